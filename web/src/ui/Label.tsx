import type { LabelHTMLAttributes } from 'react';
import { cx } from './cx';

/** A form label; always pass `htmlFor` so the control gets its accessible name. */
export function Label({ className, ...rest }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cx('label', className)} {...rest} />;
}
