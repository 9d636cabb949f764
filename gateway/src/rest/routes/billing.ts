/** The subscription (the billing service). */
import { signedIn, type RestRoute, type Json } from './types';

export const billingRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/subscription-status',
    operation: `query SubscriptionStatus { me { subscriptionStatus {
      planType status isTrialing needsSetup hasActiveSubscription trialEnd currentPeriodEnd cancelAtPeriodEnd } } }`,
    reply: (data) => {
      const status = signedIn(data)?.subscriptionStatus as Json | undefined;
      if (!status) return null;
      const { currentPeriodEnd, cancelAtPeriodEnd, ...rest } = status;
      return { ...rest, current_period_end: currentPeriodEnd, cancel_at_period_end: cancelAtPeriodEnd };
    },
  },
];
