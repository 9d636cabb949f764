/**
 * The design system's Switch (ui/Switch.tsx, @radix-ui/react-switch), its code loaded after the rest of the page:
 * a page whose first load has a tight script budget (the FAQ; prerender/budget.ts) is usable before it arrives.
 * On a prerendered page React adopts the switch's HTML once the code is there, and until then it stays as
 * prerendered (disabled, as every control is before the script runs); elsewhere a disabled look-alike shows.
 */
import { lazy, Suspense, type ComponentProps } from 'react';
import { loadOrReload } from '../lib/bundles';
import { cx } from './cx';
import type { Switch as SwitchType } from './Switch';

const Switch = lazy(loadOrReload(() => import('./Switch').then(({ Switch }) => ({ default: Switch }))));

export function LazySwitch(props: ComponentProps<typeof SwitchType>) {
  const state = props.checked ? 'checked' : 'unchecked';
  return (
    <Suspense
      fallback={
        <button
          type="button"
          role="switch"
          id={props.id}
          aria-checked={props.checked === true}
          data-state={state}
          data-disabled=""
          disabled
          className={cx('switch', props.className)}
        >
          <span data-state={state} data-disabled="" className="switch__thumb" />
        </button>
      }
    >
      <Switch {...props} />
    </Suspense>
  );
}
