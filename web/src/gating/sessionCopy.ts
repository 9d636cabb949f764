/**
 * Who was last signed in on this device, and what their subscription allowed, as the server last answered: with no
 * connection at all the signed-in pages still open for them (a check-in is kept on the device until it can be
 * sent). Used only when `Me` gets no answer; any answer wins. Forgotten when the person signs out here, and whenever
 * Haven answers that nobody is signed in.
 */
import { deviceCopy } from '../lib/deviceCopy';
import type { MeQuery, MySubscriptionQuery } from '../graphql/operations.generated';

/** The signed-in user as the `Me` query selects it (gating/session.graphql). */
export type SessionUser = NonNullable<MeQuery['me']>;
export type SubscriptionStatus = NonNullable<MySubscriptionQuery['me']>['subscriptionStatus'];

export interface SessionCopy {
  me: SessionUser;
  subscription: SubscriptionStatus;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const copy = deviceCopy<SessionCopy>(
  'haven:session',
  ({ me, subscription }) =>
    isObject(me) &&
    typeof me.id === 'string' &&
    isObject(subscription) &&
    typeof subscription.hasActiveSubscription === 'boolean',
);

export const keepSessionCopy = copy.keep;
export const forgetSessionCopy = copy.forget;
/** The copy kept here, or null when there is none or it is not one. */
export const sessionCopy = copy.read;
