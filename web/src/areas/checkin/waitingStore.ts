/**
 * The device's waiting check-ins (waitingCheckIns.ts has the rules): kept in localStorage, one entry per account,
 * and a small store the pages read. No Apollo here, so signing out (lib/navigation.ts) can ask about them from any
 * page. Sending is WaitingCheckInsSender.tsx's.
 */
import { useSyncExternalStore } from 'react';
import type { GenerateQuoteMutation } from '../../graphql/operations.generated';
import { readWaiting, waitingStorageKey, waitingWords, withWaiting, type WaitingCheckIn } from './waitingCheckIns';

export type CheckInReply = GenerateQuoteMutation['generateQuote'];

export interface WaitingView {
  /** The account signed in here, whose check-ins these are; null before the session is known. */
  userId: string | null;
  waiting: readonly WaitingCheckIn[];
  /** The latest reply to a check-in sent from the device, for the check-in page to show. */
  lastSent: { key: string; reply: CheckInReply } | null;
  /** What the server refused, said plainly, newest last. */
  refusals: readonly string[];
}

let view: WaitingView = { userId: null, waiting: [], lastSent: null, refusals: [] };
const listeners = new Set<() => void>();

export function publishWaiting(next: Partial<WaitingView>): void {
  view = { ...view, ...next };
  for (const listener of listeners) listener();
}

export const waitingView = (): WaitingView => view;

export function useWaitingCheckIns(): WaitingView {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    waitingView,
    waitingView,
  );
}

export function readStoredWaiting(userId: string): WaitingCheckIn[] {
  try {
    return readWaiting(localStorage.getItem(waitingStorageKey(userId)), userId);
  } catch {
    return [];
  }
}

/** Writes an account's list; false when the device refused it (private mode, storage full). */
export function writeStoredWaiting(userId: string, list: readonly WaitingCheckIn[]): boolean {
  try {
    if (list.length > 0) localStorage.setItem(waitingStorageKey(userId), JSON.stringify(list));
    else localStorage.removeItem(waitingStorageKey(userId));
    return true;
  } catch {
    return false;
  }
}

/** The account signed in here: its check-ins are the ones shown and sent; another account's never are. */
export function setWaitingOwner(userId: string | null): void {
  if (userId === view.userId) return;
  publishWaiting({ userId, waiting: userId ? readStoredWaiting(userId) : [], lastSent: null, refusals: [] });
}

/** Re-reads the owner's list (another tab changed it). */
export function refreshWaiting(): void {
  if (view.userId) publishWaiting({ waiting: readStoredWaiting(view.userId) });
}

/** Keeps a check-in on the device for the account signed in; false when it could not be kept. */
export function keepWaiting(checkIn: WaitingCheckIn): boolean {
  if (checkIn.userId !== view.userId) return false;
  const next = withWaiting(readStoredWaiting(checkIn.userId), checkIn);
  if (!writeStoredWaiting(checkIn.userId, next)) return false;
  publishWaiting({ waiting: next });
  return true;
}

/**
 * Before signing out here: the person is asked first when check-ins are still waiting, as signing out removes them
 * from the device (their answers are not left behind for whoever uses it next). False when they chose to stay.
 */
export function forgetWaitingOnSignOut(confirm: (question: string) => boolean): boolean {
  const { userId } = view;
  if (!userId) return true;
  const count = readStoredWaiting(userId).length;
  if (count > 0 && !confirm(waitingWords.signOutQuestion(count))) return false;
  writeStoredWaiting(userId, []);
  publishWaiting({ waiting: [] });
  return true;
}
