/** From a Stripe webhook's subscription snapshot to billing's change and event name. Pure. */
import type { SubscriptionState } from './access';

export interface StripeSnapshot {
  status: 'trialing' | 'active' | 'payment_failed' | 'canceled';
  trialEnd: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

export interface CurrentState {
  status: SubscriptionState;
  cancelAtPeriodEnd: boolean;
}

export type StripeChangeEvent =
  | 'billing.activated'
  | 'billing.renewed'
  | 'billing.payment_failed'
  | 'billing.canceled'
  | 'billing.reactivated'
  | 'billing.trial_expired'
  | 'billing.ended';

/** Null when the snapshot changes nothing billing tracks. */
export function changeFromStripe(
  current: CurrentState & { currentPeriodEnd: Date | null },
  snapshot: StripeSnapshot,
): { status: SubscriptionState; cancelAtPeriodEnd: boolean; type: StripeChangeEvent } | null {
  // A subscription that ended during its trial (cancelled, or no payment) is an expired trial.
  const status: SubscriptionState =
    snapshot.status === 'canceled' ? (current.status === 'trialing' ? 'trial_expired' : 'canceled') : snapshot.status;
  const type = ((): StripeChangeEvent | null => {
    if (status !== current.status) {
      if (status === 'active') return 'billing.activated';
      if (status === 'payment_failed') return 'billing.payment_failed';
      if (status === 'trial_expired') return 'billing.trial_expired';
      if (status === 'canceled') return 'billing.ended';
      return null;
    }
    if (snapshot.cancelAtPeriodEnd !== current.cancelAtPeriodEnd)
      return snapshot.cancelAtPeriodEnd ? 'billing.canceled' : 'billing.reactivated';
    if (
      status === 'active' &&
      snapshot.currentPeriodEnd &&
      current.currentPeriodEnd &&
      snapshot.currentPeriodEnd > current.currentPeriodEnd
    )
      return 'billing.renewed';
    return null;
  })();
  return type ? { status, cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd, type } : null;
}
