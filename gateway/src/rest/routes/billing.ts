/** The subscription (the billing service). */
import {
  AuthenticateLocalSetupDocument,
  CancelSubscriptionDocument,
  ConfirmLocalSetupDocument,
  CreateSetupIntentDocument,
  CreateSubscriptionAfterSetupDocument,
  ReactivateSubscriptionDocument,
  SubscriptionStatusDocument,
  type SubscriptionStatusFieldsFragment,
} from './billing.generated';
import { pick, restRoute, signedIn, type RestRoute } from './types';

/** Exactly the /api contract's fields, with its snake_case names for the two period fields. */
function specStatus({ currentPeriodEnd, cancelAtPeriodEnd, ...rest }: SubscriptionStatusFieldsFragment) {
  return { ...rest, current_period_end: currentPeriodEnd, cancel_at_period_end: cancelAtPeriodEnd };
}

/** A change of the subscription: the contract's `{ message }`, plus the status after it. */
const changeReply = (result: { message: string; subscriptionStatus: SubscriptionStatusFieldsFragment }) => ({
  message: result.message,
  subscriptionStatus: specStatus(result.subscriptionStatus),
});

export const billingRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    path: '/api/subscription-status',
    document: SubscriptionStatusDocument,
    reply: (data) => {
      const status = signedIn(data)?.subscriptionStatus;
      return status ? specStatus(status) : null;
    },
  }),
  restRoute({
    method: 'POST',
    path: '/api/create-setup-intent',
    document: CreateSetupIntentDocument,
    reply: (data) => data.createSetupIntent,
  }),
  restRoute({
    // The local test-mode provider's card form (what Stripe.js does in the browser with Stripe).
    method: 'POST',
    path: '/api/local-payments/confirm-setup',
    document: ConfirmLocalSetupDocument,
    variables: (body) => ({ input: pick(body, ['clientSecret', 'cardNumber']) }),
    // The challenge URL only when the bank asks for its check: every other answer keeps its two fields.
    reply: (data) => {
      const { challengeUrl, ...answer } = data.confirmLocalSetup;
      return challengeUrl ? { ...answer, challengeUrl } : answer;
    },
  }),
  restRoute({
    // The local test-mode provider's stand-in for the bank's check (what Stripe's hosted challenge page does).
    method: 'POST',
    path: '/api/local-payments/authenticate-setup',
    document: AuthenticateLocalSetupDocument,
    variables: (body) => ({ input: pick(body, ['clientSecret', 'approve']) }),
    reply: (data) => data.authenticateLocalSetup,
  }),
  restRoute({
    method: 'POST',
    path: '/api/create-subscription-after-setup',
    document: CreateSubscriptionAfterSetupDocument,
    reply: (data) => changeReply(data.createSubscriptionAfterSetup),
  }),
  restRoute({
    method: 'POST',
    path: '/api/subscription/cancel',
    document: CancelSubscriptionDocument,
    reply: (data) => changeReply(data.cancelSubscription),
  }),
  restRoute({
    method: 'POST',
    path: '/api/subscription/reactivate',
    document: ReactivateSubscriptionDocument,
    reply: (data) => changeReply(data.reactivateSubscription),
  }),
];
