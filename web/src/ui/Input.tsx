import type { InputHTMLAttributes, Ref } from 'react';
import { cx } from './cx';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
}

export function Input({ className, type = 'text', ...rest }: InputProps) {
  return <input type={type} className={cx('input', className)} {...rest} />;
}
