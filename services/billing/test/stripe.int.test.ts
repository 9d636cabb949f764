import Stripe from 'stripe';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { storeStripeTrial } from '../../../tools/testing/stripe-mock';
import { havenOnStripeMock } from '../../../tools/testing/stripe-haven';

const webhookSecret = 'whsec_test_haven';
const world = havenOnStripeMock(webhookSecret);

async function signedUp(): Promise<{ client: ApiClient; userId: string }> {
  const client = new ApiClient(world.haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: uniqueEmail('stripe'),
    password: 'a long enough password',
  });
  return { client, userId: registered.body.user.id };
}

const subscriptions = () => world.haven.collection('billing', 'subscriptions');
const sentSince = (mark: number) =>
  world.stripeMock.requests.slice(mark).map((request) => `${request.method} ${request.path}`);

describe('billing with Stripe (the SDK against stripe-mock)', () => {
  it('creates the customer and the setup intent, each with an idempotency key', async () => {
    const { client } = await signedUp();
    const mark = world.stripeMock.requests.length;
    const setup = await client.post<{ clientSecret: string }>('/api/create-setup-intent');
    expect(setup.status).toBe(200);
    expect(setup.body.clientSecret).toMatch(/^seti_.+_secret_/);
    expect(sentSince(mark)).toEqual(['POST /v1/customers', 'POST /v1/setup_intents']);
    expect(world.stripeMock.requests.slice(mark).every((request) => request.idempotencyKey)).toBe(true);
    const config = await client.graphql<{ paymentConfig: { provider: string; publishableKey: string } }>(
      '{ paymentConfig { provider publishableKey } }',
    );
    expect(config.body.data?.paymentConfig).toEqual({ provider: 'stripe', publishableKey: 'pk_test_haven' });
  });

  it('refuses bad input before calling Stripe, and creates nothing for a setup that did not succeed', async () => {
    const { client, userId } = await signedUp();
    let mark = world.stripeMock.requests.length;
    expect((await client.post('/api/create-subscription-after-setup')).status).toBe(400);
    expect((await client.post('/api/subscription/cancel')).status).toBe(404);
    expect((await client.post('/api/subscription/reactivate')).status).toBe(404);
    expect(
      (await client.post('/api/local-payments/confirm-setup', { clientSecret: 'x', cardNumber: '4242424242424242' }))
        .status,
    ).toBe(400);
    expect(sentSince(mark)).toEqual([]);

    await client.post('/api/create-setup-intent');
    mark = world.stripeMock.requests.length;
    // stripe-mock's setup intents never reach "succeeded": no card was confirmed, so no subscription.
    const created = await client.post('/api/create-subscription-after-setup');
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ message: 'Please complete the payment setup process.' });
    expect(sentSince(mark)).toEqual([expect.stringMatching(/^GET \/v1\/setup_intents\//)]);
    expect(await (await subscriptions()).findOne({ _id: userId })).toBeNull();
  });

  it('cancels at the period end and reactivates through Stripe, each once, with an idempotency key', async () => {
    const { client, userId } = await signedUp();
    expect((await client.post('/api/create-setup-intent')).status).toBe(200);
    const subscriptionId = `sub_cancel_${userId.slice(0, 8)}`;
    await storeStripeTrial(world.haven, { userId, subscriptionId });

    let mark = world.stripeMock.requests.length;
    const cancelled = await client.post<{ message: string }>('/api/subscription/cancel');
    expect(cancelled.status).toBe(200);
    const [cancelCall, ...others] = world.stripeMock.requests.slice(mark);
    expect(others).toEqual([]);
    expect(cancelCall).toMatchObject({ method: 'POST', path: `/v1/subscriptions/${subscriptionId}` });
    expect(new URLSearchParams(cancelCall!.body).get('cancel_at_period_end')).toBe('true');
    expect(cancelCall!.idempotencyKey).toBeTruthy();
    expect(await (await subscriptions()).findOne({ _id: userId })).toMatchObject({ cancelAtPeriodEnd: true });
    // Cancelling again asks nothing of Stripe: there is nothing left to cancel.
    mark = world.stripeMock.requests.length;
    const again = await client.post('/api/subscription/cancel');
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: 'Your subscription is already set to end. You can reactivate it from Settings.',
    });
    expect(sentSince(mark)).toEqual([]);

    mark = world.stripeMock.requests.length;
    expect((await client.post('/api/subscription/reactivate')).status).toBe(200);
    const [reactivateCall] = world.stripeMock.requests.slice(mark);
    expect(sentSince(mark)).toEqual([`POST /v1/subscriptions/${subscriptionId}`]);
    expect(new URLSearchParams(reactivateCall!.body).get('cancel_at_period_end')).toBe('false');
    expect(reactivateCall!.idempotencyKey).not.toBe(cancelCall!.idempotencyKey);
    expect(await (await subscriptions()).findOne({ _id: userId })).toMatchObject({ cancelAtPeriodEnd: false });
  });
});

describe('Stripe webhooks', () => {
  const stripe = new Stripe('sk_test_haven');
  const hook = () => `${world.haven.gatewayUrl}/hooks/billing/stripe/webhook`;

  const seedTrial = (userId: string, subscriptionId: string) =>
    storeStripeTrial(world.haven, { userId, subscriptionId });

  function event(id: string, created: number, subscriptionId: string, status: string, extra: object = {}) {
    return JSON.stringify({
      id,
      object: 'event',
      type: 'customer.subscription.updated',
      created,
      data: {
        object: {
          id: subscriptionId,
          object: 'subscription',
          status,
          cancel_at_period_end: false,
          trial_end: null,
          items: { data: [{ current_period_end: created + 30 * 86_400 }] },
          ...extra,
        },
      },
    });
  }

  const deliver = (
    payload: string,
    signature = stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
  ) =>
    fetch(hook(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });

  const stored = async (userId: string) => (await subscriptions()).findOne({ _id: userId });
  const eventsOf = async (userId: string) =>
    (
      await (
        await world.haven.collection('billing', 'subscription_history')
      )
        .find({ userId })
        .sort({ revision: 1 })
        .toArray()
    ).map((entry) => entry.event as string);

  it('rejects a forged signature and changes nothing', async () => {
    const { userId } = await signedUp();
    await seedTrial(userId, `sub_forged_${userId}`);
    const payload = event('evt_forged', Math.floor(Date.now() / 1000), `sub_forged_${userId}`, 'past_due');
    const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    const answer = await deliver(payload, forged);
    expect(answer.status).toBe(400);
    expect((await deliver(payload, 'not a signature')).status).toBe(400);
    expect(await stored(userId)).toMatchObject({ status: 'trialing', revision: 1 });
    expect(await eventsOf(userId)).toEqual([]);
  });

  it('applies the same event once, however often it is delivered', async () => {
    const { userId } = await signedUp();
    const subscriptionId = `sub_twice_${userId}`;
    await seedTrial(userId, subscriptionId);
    const payload = event(`evt_twice_${userId}`, Math.floor(Date.now() / 1000), subscriptionId, 'past_due');
    expect((await deliver(payload)).status).toBe(200);
    expect((await deliver(payload)).status).toBe(200);
    expect(await stored(userId)).toMatchObject({ status: 'payment_failed', revision: 2 });
    expect(await eventsOf(userId)).toEqual(['billing.payment_failed']);
  });

  it('leaves the newest state when events arrive out of order', async () => {
    const { userId } = await signedUp();
    const subscriptionId = `sub_order_${userId}`;
    await seedTrial(userId, subscriptionId);
    const now = Math.floor(Date.now() / 1000);
    // The payment failed (newer) arrives before the activation that preceded it.
    expect((await deliver(event(`evt_new_${userId}`, now + 60, subscriptionId, 'past_due'))).status).toBe(200);
    expect((await deliver(event(`evt_old_${userId}`, now, subscriptionId, 'active'))).status).toBe(200);
    expect(await stored(userId)).toMatchObject({ status: 'payment_failed' });
    expect(await eventsOf(userId)).toEqual(['billing.payment_failed']);
    // A newer payment success does apply.
    expect((await deliver(event(`evt_newer_${userId}`, now + 120, subscriptionId, 'active'))).status).toBe(200);
    expect(await stored(userId)).toMatchObject({ status: 'active' });
  });
});
