import { cx } from './cx';

export interface SpinnerProps {
  size?: 'sm' | 'md' | 'lg';
  /** Text for assistive technology; ignored when decorative. */
  label?: string;
  /** Purely visual (e.g. inside a busy button that already says what is happening). */
  decorative?: boolean;
  className?: string;
}

export function Spinner({ size = 'md', label = 'Loading', decorative = false, className }: SpinnerProps) {
  if (decorative) {
    return <span className={cx('spinner', `spinner--${size}`, className)} aria-hidden="true" />;
  }
  return (
    <span role="status" className={cx('spinner-wrap', className)}>
      <span className={cx('spinner', `spinner--${size}`)} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** The whole-screen loading state: only a centred spinner. */
export function FullPageSpinner() {
  return (
    <div className="full-page-center">
      <Spinner size="lg" />
    </div>
  );
}
