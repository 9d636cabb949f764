/** Pure rules: from a stored subscription (or none) to what the user sees and may do. */

export type SubscriptionState = 'trialing' | 'active' | 'canceled' | 'trial_expired' | 'payment_failed';

export interface StoredSubscription {
  status: SubscriptionState;
  trialEnd: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

export interface SubscriptionStatusView {
  planType: 'trial' | 'premium' | 'free';
  status: string;
  isTrialing: boolean;
  needsSetup: boolean;
  hasActiveSubscription: boolean;
  trialEnd: number | null;
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
}

const epochSeconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

export function subscriptionStatusOf(subscription: StoredSubscription | null, now: Date): SubscriptionStatusView {
  if (!subscription) {
    return {
      planType: 'free',
      status: 'none',
      isTrialing: false,
      needsSetup: true,
      hasActiveSubscription: false,
      trialEnd: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
    };
  }
  // A trial whose end has passed without a charge is over, whatever the last stored state says.
  const trialOver =
    subscription.status === 'trialing' && subscription.trialEnd !== null && subscription.trialEnd <= now;
  const status: string = trialOver ? 'trial_expired' : subscription.status;
  const isTrialing = status === 'trialing';
  const hasActiveSubscription = status === 'active' || isTrialing;
  return {
    planType: isTrialing ? 'trial' : status === 'active' ? 'premium' : 'free',
    status,
    isTrialing,
    // A lapsed user (trial over, cancelled past the period, payment failed) sets up payment again.
    needsSetup: !hasActiveSubscription,
    hasActiveSubscription,
    trialEnd: epochSeconds(subscription.trialEnd),
    currentPeriodEnd: epochSeconds(subscription.currentPeriodEnd),
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
  };
}
