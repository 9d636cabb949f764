import type { HTMLAttributes } from 'react';
import { cx } from './cx';

export type BadgeVariant = 'default' | 'secondary' | 'success' | 'info' | 'outline' | 'destructive';

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: BadgeVariant;
}

export function Badge({ variant = 'default', className, ...rest }: BadgeProps) {
  return <span className={cx('badge', `badge--${variant}`, className)} {...rest} />;
}
