/**
 * Who was last signed in on this device, and what their subscription allowed, as the server last answered: with no
 * connection at all the signed-in pages still open for them (a check-in is kept on the device until it can be
 * sent). Used only when `Me` gets no answer; any answer wins. Forgotten when the person signs out here, and whenever
 * Haven answers that nobody is signed in.
 */
import type { SessionUser, SubscriptionStatus } from './useSession';

export interface SessionCopy {
  me: SessionUser;
  subscription: SubscriptionStatus;
}

const storageKey = 'haven:session';

export function keepSessionCopy(copy: SessionCopy | null): void {
  try {
    if (copy) localStorage.setItem(storageKey, JSON.stringify(copy));
    else localStorage.removeItem(storageKey);
  } catch {
    // Storage refused (private mode, full): the app still works online.
  }
}

export const forgetSessionCopy = (): void => keepSessionCopy(null);

/** The copy kept here, or null when there is none or it is not one. */
export function sessionCopy(): SessionCopy | null {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
    if (typeof kept !== 'object' || kept === null) return null;
    const { me, subscription } = kept as Record<string, unknown>;
    const whole =
      typeof me === 'object' &&
      me !== null &&
      typeof (me as Record<string, unknown>).id === 'string' &&
      typeof subscription === 'object' &&
      subscription !== null &&
      typeof (subscription as Record<string, unknown>).hasActiveSubscription === 'boolean';
    return whole ? (kept as SessionCopy) : null;
  } catch {
    return null;
  }
}
