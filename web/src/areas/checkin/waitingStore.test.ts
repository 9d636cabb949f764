import { checkInDimensions } from '@haven/domain/src/check-in-rules';
import { waitingStorageKey, type WaitingCheckIn } from './waitingCheckIns';
import { forgetWaitingOnSignOut, keepWaiting, setWaitingOwner, waitingView } from './waitingStore';

/** The browser's storage, as a plain map (jest runs these in Node, which has none). */
const stored = new Map<string, string>();
Object.defineProperty(globalThis, 'localStorage', {
  value: {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
  },
});

const calm = Object.fromEntries(checkInDimensions.map((dimension) => [dimension, 3]));
const checkIn = (key: string, userId: string): WaitingCheckIn => ({
  userId,
  savedAt: '2026-11-29T10:42:00.000Z',
  input: { ...calm, idempotencyKey: key },
});

describe('the waiting check-ins this device keeps', () => {
  beforeEach(() => {
    stored.clear();
    setWaitingOwner(null);
  });

  it('keeps and shows only the signed-in account’s check-ins', () => {
    setWaitingOwner('user-a');
    expect(keepWaiting(checkIn('k1', 'user-a'))).toBe(true);
    expect(keepWaiting(checkIn('k1', 'user-a'))).toBe(true);
    expect(keepWaiting(checkIn('k2', 'user-b'))).toBe(false);
    expect(waitingView().waiting.map((item) => item.input.idempotencyKey)).toEqual(['k1']);

    // Another account signed in on the same device sees and sends nothing of the first.
    setWaitingOwner('user-b');
    expect(waitingView().waiting).toEqual([]);
    setWaitingOwner('user-a');
    expect(waitingView().waiting).toHaveLength(1);
  });

  it('asks before a sign-out removes check-ins still waiting, and keeps them when the person stays', () => {
    setWaitingOwner('user-a');
    keepWaiting(checkIn('k1', 'user-a'));
    const asked: string[] = [];
    expect(forgetWaitingOnSignOut((question) => (asked.push(question), false))).toBe(false);
    expect(stored.has(waitingStorageKey('user-a'))).toBe(true);
    expect(asked).toEqual([
      '1 check-in saved on this device has not been sent yet. Signing out removes it from this device. Sign out anyway?',
    ]);

    expect(forgetWaitingOnSignOut(() => true)).toBe(true);
    expect(stored.has(waitingStorageKey('user-a'))).toBe(false);
    expect(waitingView().waiting).toEqual([]);
  });

  it('signs out without a question when nothing is waiting', () => {
    setWaitingOwner('user-a');
    expect(
      forgetWaitingOnSignOut(() => {
        throw new Error('asked');
      }),
    ).toBe(true);
  });
});
