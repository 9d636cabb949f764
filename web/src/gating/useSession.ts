/**
 * The one session hook. A single query (`Me`) tells whether the user is signed in and,
 * if so, what their subscription allows. Signed in only when `me` returns a user; a failed `me` (gateway unreachable, UNAUTHENTICATED) counts as signed out.
 */
import { useCallback } from 'react';
import { useQuery } from '@apollo/client/react';
import { MeDocument, type MeQuery } from '../graphql/operations.generated';
import type { SessionState } from './routeGating';

/** The signed-in user as the `Me` query selects it (gating/session.graphql). */
export type SessionUser = NonNullable<MeQuery['me']>;
export type SubscriptionStatus = SessionUser['subscriptionStatus'];

export type Session =
  | { status: 'loading'; user: null; refetch: () => Promise<void> }
  | { status: 'signedOut'; user: null; refetch: () => Promise<void> }
  | {
      status: 'signedIn';
      user: SessionUser;
      subscription: SubscriptionStatus;
      needsSetup: boolean;
      hasActiveSubscription: boolean;
      refetch: () => Promise<void>;
    };

export function useSession(): Session {
  const { data, error, refetch: refetchMe } = useQuery(MeDocument);

  const refetch = useCallback(async () => {
    try {
      await refetchMe();
    } catch {
      // The hook's own state reflects the failure (signed out); nothing more to do.
    }
  }, [refetchMe]);

  // Keep showing the last known state while a refetch is in flight.
  const me = data?.me;
  if (me) {
    return {
      status: 'signedIn',
      user: me,
      subscription: me.subscriptionStatus,
      needsSetup: me.subscriptionStatus.needsSetup,
      hasActiveSubscription: me.subscriptionStatus.hasActiveSubscription,
      refetch,
    };
  }
  if (data || error) return { status: 'signedOut', user: null, refetch };
  return { status: 'loading', user: null, refetch };
}

/** The part of the session the route gating needs. */
export function toGatingState(session: Session): SessionState {
  if (session.status === 'signedIn') return { status: 'signedIn', needsSetup: session.needsSetup };
  return { status: session.status };
}
