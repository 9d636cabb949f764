import * as SwitchPrimitive from '@radix-ui/react-switch';
import type { ComponentProps } from 'react';
import { useInteractive } from '../lib/prerendered';
import { cx } from './cx';

export function Switch({ className, disabled, ...rest }: ComponentProps<typeof SwitchPrimitive.Root>) {
  const interactive = useInteractive();
  return (
    <SwitchPrimitive.Root className={cx('switch', className)} disabled={disabled || !interactive} {...rest}>
      <SwitchPrimitive.Thumb className="switch__thumb" />
    </SwitchPrimitive.Root>
  );
}
