import * as TabsPrimitive from '@radix-ui/react-tabs';
import type { ComponentProps } from 'react';
import { useInteractive } from '../lib/prerendered';
import { cx } from './cx';

export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...rest }: ComponentProps<typeof TabsPrimitive.List>) {
  return <TabsPrimitive.List className={cx('tabs__list', className)} {...rest} />;
}

export function TabsTrigger({ className, disabled, ...rest }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  // A tab chosen before the page's script runs would be lost: it waits, as the buttons do.
  const interactive = useInteractive();
  return (
    <TabsPrimitive.Trigger className={cx('tabs__trigger', className)} disabled={disabled || !interactive} {...rest} />
  );
}

export function TabsContent({ className, ...rest }: ComponentProps<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={cx('tabs__content', className)} {...rest} />;
}
