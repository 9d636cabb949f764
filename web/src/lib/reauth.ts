/**
 * Deleting an account needs a recent sign-in: the server answers an older session with REAUTH_REQUIRED. The app
 * remembers what the person was doing, sends them to sign in again, and brings them back to finish it, where it
 * asks once more before anything is deleted. Kept in sessionStorage: this tab only, gone when it closes, and
 * only for a few minutes. Pure apart from the storage it is given, so it is tested without a browser.
 */
import { errorCode } from '../graphql/errors';

export const REAUTH_REQUIRED = 'REAUTH_REQUIRED';
/** The sign-in page in its "sign in again" mode. */
export const REAUTH_SIGN_IN_PATH = '/auth?reauth=1';
/** As long as the server's window for a fresh sign-in; an older wish to delete is not acted on. */
export const REAUTH_INTENT_MAX_AGE_MS = 10 * 60 * 1000;

export const reauthNotice = {
  title: 'Please sign in again',
  description: 'For your safety, deleting an account needs a recent sign-in. Afterwards we bring you back to finish.',
};

/** The admin's deletion waiting for the sign-in: one account, or the selected ones. */
export type PendingAdminDeletion = { kind: 'one'; id: string; email: string } | { kind: 'bulk'; ids: string[] };

export type ReauthIntent =
  | { action: 'delete-account'; returnTo: string; at: number }
  | { action: 'admin-delete'; returnTo: string; at: number; pending: PendingAdminDeletion };

export type ReauthAction = ReauthIntent['action'];
type IntentOf<Action extends ReauthAction> = Extract<ReauthIntent, { action: Action }>;

export type ReauthStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const storageKey = 'haven.reauth';

/** A REST reply that said REAUTH_REQUIRED (the admin page calls the REST routes with fetch). */
export class ReauthRequiredError extends Error {
  readonly code = REAUTH_REQUIRED;
}

/** Whether a failure (GraphQL or REST) asks for a fresh sign-in. */
export function isReauthRequired(error: unknown): boolean {
  return error instanceof ReauthRequiredError || errorCode(error) === REAUTH_REQUIRED;
}

/** The session storage, or null where there is none (tests, privacy modes that refuse it). */
export function sessionStore(): ReauthStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function rememberReauth(intent: ReauthIntent, storage: ReauthStorage | null = sessionStore()): void {
  try {
    storage?.setItem(storageKey, JSON.stringify(intent));
  } catch {
    // Without storage the person signs in again and deletes by hand; nothing is lost.
  }
}

function isPending(value: unknown): value is PendingAdminDeletion {
  if (typeof value !== 'object' || value === null) return false;
  const pending = value as Record<string, unknown>;
  if (pending.kind === 'one') return typeof pending.id === 'string' && typeof pending.email === 'string';
  return (
    pending.kind === 'bulk' &&
    Array.isArray(pending.ids) &&
    pending.ids.length > 0 &&
    pending.ids.every((id) => typeof id === 'string')
  );
}

/** The remembered intent while it is recent; anything else (none, stale, malformed) is null. */
export function pendingReauth(
  now: number = Date.now(),
  storage: ReauthStorage | null = sessionStore(),
): ReauthIntent | null {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(storageKey) ?? null;
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    const fresh = typeof value.at === 'number' && now - value.at >= 0 && now - value.at <= REAUTH_INTENT_MAX_AGE_MS;
    // Only a path of this app: never another origin (`//host`, `/\host`).
    if (!fresh || typeof value.returnTo !== 'string' || !/^\/(?![/\\])/.test(value.returnTo)) return null;
    if (value.action === 'delete-account') return value as ReauthIntent;
    if (value.action === 'admin-delete' && isPending(value.pending)) return value as ReauthIntent;
  } catch {
    // not ours
  }
  return null;
}

export function clearReauth(storage: ReauthStorage | null = sessionStore()): void {
  try {
    storage?.removeItem(storageKey);
  } catch {
    // nothing to clear
  }
}

/**
 * The intent for `action` on the page at `pathname`, taken (removed) so it is acted on once; null when there is
 * none for this page.
 */
export function takeReauth<Action extends ReauthAction>(
  action: Action,
  pathname: string,
  now: number = Date.now(),
  storage: ReauthStorage | null = sessionStore(),
): IntentOf<Action> | null {
  const intent = pendingReauth(now, storage);
  if (!intent || intent.action !== action || intent.returnTo !== pathname) return null;
  clearReauth(storage);
  return intent as IntentOf<Action>;
}

/**
 * Where a signed-in person goes after signing in again: back to the page that asked, while its intent is
 * waiting there; null when nothing waits or they are on it already (or on the sign-in page itself).
 */
export function reauthReturn(
  pathname: string,
  now: number = Date.now(),
  storage: ReauthStorage | null = sessionStore(),
): string | null {
  const intent = pendingReauth(now, storage);
  if (!intent || pathname === intent.returnTo || pathname === '/auth') return null;
  return intent.returnTo;
}
