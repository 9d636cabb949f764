/**
 * Renders the toast store with @radix-ui/react-toast. Radix gives the live region
 * (announced to screen readers), the F8 hotkey, swipe-to-dismiss and pause on hover.
 * Loaded by ui/Toast.tsx with the first toast (or with the signed-in pages), never before.
 */
import * as ToastPrimitive from '@radix-ui/react-toast';
import {
  TOAST_DEFAULT_DURATION_MS,
  TOAST_SWIPE_DIRECTION,
  TOAST_SWIPE_THRESHOLD_PX,
  TOAST_VIEWPORT_HOTKEY,
} from '../constants';
import { cx } from './cx';
import { toastStore, type ToastItem } from './toastStore';

export interface ToastViewportProps {
  /** The store's toasts, read by the provider (ui/Toast.tsx) that renders this viewport. */
  toasts: readonly ToastItem[];
}

/** The toasts and the viewport they live in. */
export default function ToastViewport({ toasts }: ToastViewportProps) {
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DEFAULT_DURATION_MS}
      swipeDirection={TOAST_SWIPE_DIRECTION}
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
    >
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) toastStore.dismiss(t.id);
          }}
          duration={t.duration}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
          className={cx('toast', t.variant === 'destructive' && 'toast--destructive')}
        >
          <div className="toast__body">
            <ToastPrimitive.Title className="toast__title">{t.title}</ToastPrimitive.Title>
            {t.description && (
              <ToastPrimitive.Description className="toast__description">{t.description}</ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close className="toast__close" aria-label="Close">
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="toast-viewport" hotkey={TOAST_VIEWPORT_HOTKEY} />
    </ToastPrimitive.Provider>
  );
}
