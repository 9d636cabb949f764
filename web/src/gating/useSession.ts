/**
 * The one session hook. Two calls, kept apart on purpose: `Me` alone decides whether someone is signed in;
 * `MySubscription` follows only then, and its failure (billing down) is an error state of its own, never
 * "signed out". A failed `me` (gateway unreachable, UNAUTHENTICATED) counts as signed out, except with no answer at all
 * (the device offline): then the person last signed in here stays signed in, from the device's copy (sessionCopy.ts).
 */
import { useCallback, useEffect, useMemo } from 'react';
import { useQuery } from '@apollo/client/react';
import { MeDocument, MySubscriptionDocument } from '../graphql/operations.generated';
import { serverAnswered } from '../graphql/errors';
import type { SessionState, SubscriptionCheck } from './routeGating';
import {
  forgetSessionCopy,
  keepSessionCopy,
  sessionCopy,
  type SessionUser,
  type SubscriptionStatus,
} from './sessionCopy';

export type { SessionUser, SubscriptionStatus } from './sessionCopy';

export type Session =
  | { status: 'loading'; user: null; refetch: () => Promise<void> }
  | { status: 'signedOut'; user: null; refetch: () => Promise<void> }
  | {
      status: 'signedIn';
      user: SessionUser;
      /** Null while the subscription call is loading or after it failed (`subscriptionCheck` says which). */
      subscription: SubscriptionStatus | null;
      subscriptionCheck: SubscriptionCheck;
      needsSetup: boolean;
      hasActiveSubscription: boolean;
      refetch: () => Promise<void>;
      refetchSubscription: () => Promise<void>;
    };

export function useSession(): Session {
  const { data, error, refetch: refetchMe } = useQuery(MeDocument);
  const offline = error !== undefined && !serverAnswered(error);
  const copy = useMemo(() => (offline ? sessionCopy() : null), [offline]);
  const me = data?.me ?? copy?.me;
  const subscriptionQuery = useQuery(MySubscriptionDocument, { skip: !me });
  const answeredSubscription = subscriptionQuery.data?.me?.subscriptionStatus;

  // The device's copy follows every answer: who is signed in and what they may use, or nobody.
  useEffect(() => {
    if (data && !data.me) forgetSessionCopy();
    else if (data?.me && answeredSubscription) keepSessionCopy({ me: data.me, subscription: answeredSubscription });
  }, [data, answeredSubscription]);
  const refetchSubscriptionQuery = subscriptionQuery.refetch;

  const refetch = useCallback(async () => {
    try {
      await refetchMe();
    } catch {
      // The hook's own state reflects the failure (signed out); nothing more to do.
    }
  }, [refetchMe]);
  const refetchSubscription = useCallback(async () => {
    try {
      await refetchSubscriptionQuery();
    } catch {
      // Shown as the subscription's error state.
    }
  }, [refetchSubscriptionQuery]);

  // Keep showing the last known state while a refetch is in flight.
  if (me) {
    const subscriptionUnanswered = subscriptionQuery.error !== undefined && !serverAnswered(subscriptionQuery.error);
    // The device's copy stands in only for the same person, and only while billing cannot be reached at all.
    const kept = subscriptionUnanswered ? (copy ?? sessionCopy()) : null;
    const subscription = answeredSubscription ?? (kept?.me.id === me.id ? kept.subscription : null);
    const subscriptionCheck: SubscriptionCheck = subscription
      ? 'ready'
      : subscriptionQuery.error || (subscriptionQuery.data && !subscriptionQuery.data.me)
        ? 'error'
        : 'loading';
    return {
      status: 'signedIn',
      user: me,
      subscription,
      subscriptionCheck,
      needsSetup: subscription?.needsSetup ?? false,
      hasActiveSubscription: subscription?.hasActiveSubscription ?? false,
      refetch,
      refetchSubscription,
    };
  }
  if (data || error) return { status: 'signedOut', user: null, refetch };
  return { status: 'loading', user: null, refetch };
}

/** The part of the session the route gating needs. */
export function toGatingState(session: Session): SessionState {
  if (session.status === 'signedIn') {
    return { status: 'signedIn', needsSetup: session.needsSetup, subscriptionCheck: session.subscriptionCheck };
  }
  return { status: session.status };
}
