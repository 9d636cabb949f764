/**
 * The app's toasts: `toast()` from anywhere (ui/toastStore.ts), drawn by ui/ToastViewport.tsx with
 * @radix-ui/react-toast. Radix's code is not part of the first page: it loads with the first toast, or with
 * the signed-in pages (`preloadToasts`), so a visitor who reads a public page and leaves never downloads it.
 */
import { lazy, Suspense, useEffect, useSyncExternalStore, type ComponentType } from 'react';
import type { ReactNode } from 'react';
import { loadOrReload } from '../lib/bundles';
import { toastStore } from './toastStore';
import type { ToastViewportProps } from './ToastViewport';

export { toast, dismissToast } from './toastStore';
export type { ToastOptions, ToastVariant } from './toastStore';

const loadViewport = loadOrReload(() => import('./ToastViewport'));
// The viewport sits outside the routes' error boundary: a bundle that cannot arrive leaves the toasts unseen
// rather than taking the page down.
const ToastViewport = lazy<ComponentType<ToastViewportProps>>(() =>
  loadViewport().catch(() => ({ default: () => null })),
);

/** Whether the viewport is wanted before any toast: once true, it stays (the live region is there for the next). */
let wanted = false;
const wantedListeners = new Set<() => void>();

/** Starts loading the toasts' code and keeps their viewport on the page from now on. */
export function preloadToasts(): void {
  // A failure shows when the viewport renders (nothing, see above); here it is only a head start.
  loadViewport().catch(() => undefined);
  if (wanted) return;
  wanted = true;
  for (const listener of wantedListeners) listener();
}

function subscribeWanted(listener: () => void): () => void {
  wantedListeners.add(listener);
  return () => wantedListeners.delete(listener);
}

/** Wraps the app once; the toasts' viewport follows the page from the first toast on. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.getSnapshot, toastStore.getSnapshot);
  const viewportWanted = useSyncExternalStore(
    subscribeWanted,
    () => wanted,
    () => false,
  );
  useEffect(() => {
    if (toasts.length > 0) preloadToasts();
  }, [toasts.length]);
  return (
    <>
      {children}
      {(viewportWanted || toasts.length > 0) && (
        <Suspense fallback={null}>
          <ToastViewport toasts={toasts} />
        </Suspense>
      )}
    </>
  );
}
