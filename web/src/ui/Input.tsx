import type { InputHTMLAttributes, Ref } from 'react';
import { useInteractive } from '../lib/prerendered';
import { cx } from './cx';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
}

export function Input({ className, type = 'text', disabled, ...rest }: InputProps) {
  const interactive = useInteractive();
  return <input type={type} className={cx('input', className)} disabled={disabled || !interactive} {...rest} />;
}
