/** The subscription (the billing service). */
import { pick, signedIn, type RestRoute, type Json } from './types';

const statusFields = 'planType status isTrialing needsSetup trialEnd currentPeriodEnd cancelAtPeriodEnd';

/** Exactly the /api contract's fields, with its snake_case names for the two period fields. */
function specStatus(status: Json): Json {
  const { currentPeriodEnd, cancelAtPeriodEnd, ...rest } = status;
  return { ...rest, current_period_end: currentPeriodEnd, cancel_at_period_end: cancelAtPeriodEnd };
}

/** A change of the subscription: the contract's `{ message }`, plus the status after it. */
const changeReply = (field: string) => (data: Json) => {
  const result = data[field] as Json;
  return { message: result.message, subscriptionStatus: specStatus(result.subscriptionStatus as Json) };
};

export const billingRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/subscription-status',
    operation: `query SubscriptionStatus { me { subscriptionStatus { ${statusFields} } } }`,
    reply: (data) => {
      const status = signedIn(data)?.subscriptionStatus as Json | undefined;
      return status ? specStatus(status) : null;
    },
  },
  {
    method: 'POST',
    path: '/api/create-setup-intent',
    operation: 'mutation CreateSetupIntent { createSetupIntent { clientSecret } }',
    reply: (data) => data.createSetupIntent as Json,
  },
  {
    // The local test-mode provider's card form (what Stripe.js does in the browser with Stripe).
    method: 'POST',
    path: '/api/local-payments/confirm-setup',
    operation: `mutation ConfirmLocalSetup($input: ConfirmLocalSetupInput!) {
      confirmLocalSetup(input: $input) { status message challengeUrl } }`,
    variables: (body) => ({ input: pick(body, ['clientSecret', 'cardNumber']) }),
    // The challenge URL only when the bank asks for its check: every other answer keeps its two fields.
    reply: (data) => {
      const { challengeUrl, ...answer } = data.confirmLocalSetup as Json;
      return challengeUrl ? { ...answer, challengeUrl } : answer;
    },
  },
  {
    // The local test-mode provider's stand-in for the bank's check (what Stripe's hosted challenge page does).
    method: 'POST',
    path: '/api/local-payments/authenticate-setup',
    operation: `mutation AuthenticateLocalSetup($input: AuthenticateLocalSetupInput!) {
      authenticateLocalSetup(input: $input) { status message } }`,
    variables: (body) => ({ input: pick(body, ['clientSecret', 'approve']) }),
    reply: (data) => data.authenticateLocalSetup as Json,
  },
  {
    method: 'POST',
    path: '/api/create-subscription-after-setup',
    operation: `mutation CreateSubscriptionAfterSetup { createSubscriptionAfterSetup {
      message subscriptionStatus { ${statusFields} } } }`,
    reply: changeReply('createSubscriptionAfterSetup'),
  },
  {
    method: 'POST',
    path: '/api/subscription/cancel',
    operation: `mutation CancelSubscription { cancelSubscription { message subscriptionStatus { ${statusFields} } } }`,
    reply: changeReply('cancelSubscription'),
  },
  {
    method: 'POST',
    path: '/api/subscription/reactivate',
    operation: `mutation ReactivateSubscription { reactivateSubscription {
      message subscriptionStatus { ${statusFields} } } }`,
    reply: changeReply('reactivateSubscription'),
  },
];
