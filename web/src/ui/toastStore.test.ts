import {
  TOAST_DEFAULT_DURATION_MS,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  TOAST_SWIPE_DIRECTION,
  TOAST_SWIPE_THRESHOLD_PX,
  TOAST_VIEWPORT_HOTKEY,
  TOOLTIP_DELAY_MS,
  TOOLTIP_SKIP_DELAY_MS,
} from '../constants';
import { createToastStore, toastReducer, type ToastItem } from './toastStore';

const item = (id: string): ToastItem => ({ id, title: `t${id}`, variant: 'default', open: true });

describe('toast constants', () => {
  it('match the specification', () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_DEFAULT_DURATION_MS).toBe(5000);
    expect(TOAST_SWIPE_DIRECTION).toBe('right');
    expect(TOAST_SWIPE_THRESHOLD_PX).toBe(50);
    expect(TOAST_REMOVE_DELAY_MS).toBe(1_000_000);
    expect(TOAST_VIEWPORT_HOTKEY).toEqual(['F8']);
    expect(TOOLTIP_DELAY_MS).toBe(700);
    expect(TOOLTIP_SKIP_DELAY_MS).toBe(300);
  });
});

describe('toastReducer', () => {
  it('keeps at most one toast, the newest', () => {
    const state = toastReducer(toastReducer([], { type: 'add', toast: item('1') }), { type: 'add', toast: item('2') });
    expect(state.map((t) => t.id)).toEqual(['2']);
  });

  it('closes a dismissed toast without removing it', () => {
    const state = toastReducer([item('1')], { type: 'dismiss', id: '1' });
    expect(state).toEqual([{ ...item('1'), open: false }]);
  });

  it('dismisses or removes all when no id is given', () => {
    expect(toastReducer([item('1')], { type: 'dismiss' })[0]?.open).toBe(false);
    expect(toastReducer([item('1')], { type: 'remove' })).toEqual([]);
  });

  it('removes one toast by id', () => {
    expect(toastReducer([item('1')], { type: 'remove', id: '2' })).toHaveLength(1);
    expect(toastReducer([item('1')], { type: 'remove', id: '1' })).toEqual([]);
  });
});

describe('createToastStore', () => {
  function fakeTimers() {
    const pending: Array<{ fn: () => void; ms: number }> = [];
    return {
      pending,
      setTimeout(fn: () => void, ms: number) {
        pending.push({ fn, ms });
        return pending.length;
      },
    };
  }

  it('shows a toast with the default variant and notifies listeners', () => {
    const store = createToastStore(fakeTimers());
    const seen: number[] = [];
    const unsubscribe = store.subscribe((toasts) => seen.push(toasts.length));
    store.toast({ title: 'Login successful', description: 'Welcome back!' });
    expect(store.getSnapshot()).toEqual([
      {
        id: expect.any(String),
        title: 'Login successful',
        description: 'Welcome back!',
        variant: 'default',
        open: true,
      },
    ]);
    unsubscribe();
    store.toast({ title: 'again' });
    expect(seen).toEqual([1]);
  });

  it('keeps the duration and variant it was given', () => {
    const store = createToastStore(fakeTimers());
    store.toast({ title: 'Trial Expired', variant: 'destructive', duration: 5000 });
    expect(store.getSnapshot()[0]).toMatchObject({ variant: 'destructive', duration: 5000 });
  });

  it('removes a dismissed toast after TOAST_REMOVE_DELAY_MS', () => {
    const timers = fakeTimers();
    const store = createToastStore(timers);
    const { dismiss } = store.toast({ title: 'Hello' });
    dismiss();
    dismiss(); // a second dismiss does not schedule a second removal
    expect(store.getSnapshot()[0]?.open).toBe(false);
    expect(timers.pending).toHaveLength(1);
    expect(timers.pending[0]?.ms).toBe(1_000_000);
    timers.pending[0]?.fn();
    expect(store.getSnapshot()).toEqual([]);
  });

  it('gives every toast its own id', () => {
    const store = createToastStore(fakeTimers());
    const a = store.toast({ title: 'a' });
    const b = store.toast({ title: 'b' });
    expect(a.id).not.toBe(b.id);
  });
});
