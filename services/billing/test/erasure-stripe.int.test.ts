/**
 * Account deletion with Stripe (the SDK against stripe-mock, behind the recording proxy): the subscription is
 * cancelled and the customer deleted at the provider before the deletion answers; afterwards billing keeps
 * only the retained record (dates and Stripe's subscription id under a keyed hash), and a webhook that
 * arrives late for that subscription brings nothing back.
 */
import Stripe from 'stripe';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startStripeMock, storeStripeTrial, stripeEnv, type StripeMock } from '../../../tools/testing/stripe-mock';

const webhookSecret = 'whsec_test_haven_erasure';
let haven: TestHaven;
let stripeMock: StripeMock;

beforeAll(async () => {
  stripeMock = await startStripeMock();
  haven = await startTestHaven({ env: stripeEnv(stripeMock, webhookSecret) });
  await Promise.all(Object.values(haven.services).map((service) => service.eventsReady));
});

afterAll(async () => {
  await haven?.stop();
  await stripeMock?.stop();
});

const sentSince = (mark: number) =>
  stripeMock.requests.slice(mark).map((request) => `${request.method} ${request.path}`);

it('cancels the Stripe subscription and deletes the customer before the deletion answers', async () => {
  const client = new ApiClient(haven.gatewayUrl);
  const email = uniqueEmail('stripe-erased');
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email,
    password: 'a long enough password',
  });
  const userId = registered.body.user.id;
  // The customer and setup intent as Stripe made them; the trialing subscription as a completed setup
  // leaves it (stripe-mock cannot confirm a card).
  expect((await client.post('/api/create-setup-intent')).status).toBe(200);
  const customer = await (await haven.collection('billing', 'customers')).findOne({ _id: userId });
  const customerId = String(customer?.customerId);
  const subscriptionId = `sub_erased_${userId.slice(0, 8)}`;
  await storeStripeTrial(haven, { userId, subscriptionId, customerId, email });

  const mark = stripeMock.requests.length;
  const answer = await client.request('DELETE', '/api/user/delete-account');
  const sentBeforeTheAnswer = sentSince(mark);
  expect(answer.status).toBe(200);
  expect(sentBeforeTheAnswer).toEqual([
    `DELETE /v1/subscriptions/${subscriptionId}`,
    `DELETE /v1/customers/${customerId}`,
  ]);

  const retained = await haven.collection('billing', 'retained_billing_records');
  const kept = await eventually('the retained billing record', () =>
    retained.findOne({ providerSubscriptionId: subscriptionId }),
  );
  expect(kept).toMatchObject({
    provider: 'stripe',
    statusAtDeletion: 'canceled',
    _id: expect.stringMatching(/^[0-9a-f]{64}$/),
  });
  expect(JSON.stringify(kept)).not.toContain(userId);
  await eventually(
    'the subscription and customer erased',
    async () =>
      (await (await haven.collection('billing', 'subscriptions')).countDocuments({ _id: userId })) === 0 &&
      (await (await haven.collection('billing', 'customers')).countDocuments({ _id: userId })) === 0,
  );

  // Stripe's own late word about the cancelled subscription finds nothing to change.
  const stripe = new Stripe('sk_test_haven');
  const payload = JSON.stringify({
    id: `evt_late_${userId}`,
    object: 'event',
    type: 'customer.subscription.deleted',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: subscriptionId, object: 'subscription', status: 'canceled', cancel_at_period_end: false } },
  });
  const late = await fetch(`${haven.gatewayUrl}/hooks/billing/stripe/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
    },
    body: payload,
  });
  expect(late.status).toBe(200);
  expect(await (await haven.collection('billing', 'subscriptions')).countDocuments({ _id: userId })).toBe(0);
});
