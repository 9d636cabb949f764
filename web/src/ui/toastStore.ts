/**
 * A tiny global toast store, usable from anywhere (components, the Apollo error link).
 * No React here: `ui/Toast.tsx` renders it with @radix-ui/react-toast.
 *
 * Rules: at most TOAST_LIMIT toasts at a time (a new one replaces the
 * oldest); a dismissed toast closes at once and is removed from the store after
 * TOAST_REMOVE_DELAY_MS.
 */
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '../constants';

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Display time in ms; defaults to the provider's TOAST_DEFAULT_DURATION_MS. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: string;
  variant: ToastVariant;
  open: boolean;
}

export type ToastAction =
  { type: 'add'; toast: ToastItem } | { type: 'dismiss'; id?: string } | { type: 'remove'; id?: string };

/** Pure state transition; newest toast first. */
export function toastReducer(state: readonly ToastItem[], action: ToastAction): ToastItem[] {
  switch (action.type) {
    case 'add':
      return [action.toast, ...state].slice(0, TOAST_LIMIT);
    case 'dismiss':
      return state.map((t) => (action.id === undefined || t.id === action.id ? { ...t, open: false } : t));
    case 'remove':
      return action.id === undefined ? [] : state.filter((t) => t.id !== action.id);
  }
}

type Listener = (toasts: readonly ToastItem[]) => void;

export interface ToastStore {
  toast(options: ToastOptions): { id: string; dismiss: () => void };
  dismiss(id?: string): void;
  getSnapshot(): readonly ToastItem[];
  subscribe(listener: Listener): () => void;
}

export interface TimerApi {
  setTimeout(fn: () => void, ms: number): unknown;
}

export function createToastStore(timers: TimerApi = globalThis): ToastStore {
  let toasts: readonly ToastItem[] = [];
  let counter = 0;
  const listeners = new Set<Listener>();
  const removalScheduled = new Set<string>();

  const dispatch = (action: ToastAction) => {
    toasts = toastReducer(toasts, action);
    for (const listener of listeners) listener(toasts);
  };

  const scheduleRemoval = (id: string) => {
    if (removalScheduled.has(id)) return;
    removalScheduled.add(id);
    timers.setTimeout(() => {
      removalScheduled.delete(id);
      dispatch({ type: 'remove', id });
    }, TOAST_REMOVE_DELAY_MS);
  };

  const dismiss = (id?: string) => {
    for (const t of toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
    dispatch({ type: 'dismiss', id });
  };

  return {
    toast(options) {
      counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
      const id = String(counter);
      dispatch({
        type: 'add',
        toast: { ...options, id, variant: options.variant ?? 'default', open: true },
      });
      return { id, dismiss: () => dismiss(id) };
    },
    dismiss,
    getSnapshot: () => toasts,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's one store. */
export const toastStore = createToastStore();

/** Show a toast: `toast({ title, description, variant: 'destructive', duration })`. */
export const toast = (options: ToastOptions) => toastStore.toast(options);
export const dismissToast = (id?: string) => toastStore.dismiss(id);
