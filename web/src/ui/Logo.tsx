import { BRAND } from '../brand';
import { cx } from './cx';

/** The mark: a calm leaf over a horizon, drawn in the theme's primary colour. Same shape as public/icon.svg. */
export function LogoMark({ size = 32, className }: { size?: number; className?: string }) {
  return (
    <svg
      className={cx('logo__mark', className)}
      width={size}
      height={size}
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
    >
      <rect width="64" height="64" rx="16" fill="var(--color-primary)" />
      <path
        d="M32 14c10 6 14 14 11 24-2 6-6 9-11 10-5-1-9-4-11-10-3-10 1-18 11-24z"
        fill="var(--color-primary-contrast)"
        opacity="0.95"
      />
      <path d="M32 22v24" stroke="var(--color-primary)" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M14 50h36" stroke="var(--color-primary-contrast)" strokeWidth="3" strokeLinecap="round" opacity="0.8" />
    </svg>
  );
}

/** Mark + name. */
export function Logo({ size = 32, className }: { size?: number; className?: string }) {
  return (
    <span className={cx('logo', className)}>
      <LogoMark size={size} />
      <span className="logo__name">{BRAND.name}</span>
    </span>
  );
}
