import Stripe from 'stripe';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { havenOnStripeMock, setupSucceededEvent } from '../../../tools/testing/stripe-haven';
import { billingMessages } from '../src/domain/messages';
import { eventTypes, storedSubscription, subscriptionStatus } from './support';

const webhookSecret = 'whsec_test_setup_succeeded';
const world = havenOnStripeMock(webhookSecret);

const stripe = new Stripe('sk_test_haven');

interface StartedSetup {
  client: ApiClient;
  userId: string;
  setupIntentId: string;
  /** The signed `setup_intent.succeeded` Stripe sends once the card is confirmed. */
  succeededEvent: string;
}

/** A new user who has started the card setup (the Subscribe page), and the webhook its confirmation brings. */
async function startedSetup(): Promise<StartedSetup> {
  const client = new ApiClient(world.haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: uniqueEmail('setup-hook'),
    password: 'a long enough password',
  });
  const userId = registered.body.user.id;
  const setup = await client.post<{ clientSecret: string }>('/api/create-setup-intent');
  expect(setup.status).toBe(200);
  // stripe-mock's client secrets are all the same: the intent's id is the one billing stored.
  const customer = await (await world.haven.collection('billing', 'customers')).findOne({ _id: userId as never });
  const setupIntentId = customer!.setupIntentId as string;
  const succeededEvent = setupSucceededEvent({ setupIntentId, customerId: customer!.customerId as string, userId });
  return { client, userId, setupIntentId, succeededEvent };
}

const deliver = (payload: string, signature?: string) => world.deliver(payload, signature);

const subscriptionCreatesSince = (mark: number) =>
  world.stripeMock.requests
    .slice(mark)
    .filter((request) => request.method === 'POST' && request.path === '/v1/subscriptions');

describe('the subscription starts when the Stripe setup succeeds', () => {
  it('names the user on the setup intent, for the webhook to find them', async () => {
    const mark = world.stripeMock.requests.length;
    const { userId } = await startedSetup();
    const created = world.stripeMock.requests.slice(mark).find((request) => request.path === '/v1/setup_intents');
    expect(new URLSearchParams(created!.body).get('metadata[userId]')).toBe(userId);
  });

  it('starts it from the signed webhook alone, once, with an idempotency key', async () => {
    const { client, userId, setupIntentId, succeededEvent } = await startedSetup();
    expect(await subscriptionStatus(client)).toMatchObject({ needsSetup: true, status: 'none' });
    const mark = world.stripeMock.requests.length;

    expect((await deliver(succeededEvent)).status).toBe(200);

    const [create, ...others] = subscriptionCreatesSince(mark);
    expect(others).toEqual([]);
    expect(create!.idempotencyKey).toBe(`subscription-${setupIntentId}`);
    const sent = new URLSearchParams(create!.body);
    expect(sent.get('default_payment_method')).toBe('pm_card_visa');
    expect(sent.get('trial_period_days')).toBe('3');
    expect(await subscriptionStatus(client)).toMatchObject({ needsSetup: false });
    expect(await storedSubscription(world.haven, userId)).toMatchObject({
      provider: 'stripe',
      paymentMethodId: 'pm_card_visa',
      revision: 1,
    });
    expect(await eventTypes(world.haven, userId)).toHaveLength(1);

    // The browser's call, late, answers the same subscription and asks Stripe for nothing.
    const callMark = world.stripeMock.requests.length;
    const late = await client.post<{ message: string }>('/api/create-subscription-after-setup');
    expect(late.status).toBe(200);
    expect(late.body.message).toEqual(expect.any(String));
    expect(world.stripeMock.requests.slice(callMark)).toEqual([]);
    expect(await storedSubscription(world.haven, userId)).toMatchObject({ revision: 1 });
    expect(await eventTypes(world.haven, userId)).toHaveLength(1);
  });

  it('starts one subscription when the webhook and the browser’s call arrive at once', async () => {
    const { client, userId, setupIntentId, succeededEvent } = await startedSetup();
    world.stripeMock.confirmSetupIntent(setupIntentId, 'pm_card_visa');
    const mark = world.stripeMock.requests.length;
    // Whichever path asks Stripe for the subscription first waits until the browser's call has read the setup,
    // so both are starting the subscription at the same time.
    const browserReadTheSetup = world.stripeMock.whenAnswered(
      (request) => request.method === 'GET' && request.path === `/v1/setup_intents/${setupIntentId}`,
    );
    world.stripeMock.hold(
      (request) => request.method === 'POST' && request.path === '/v1/subscriptions',
      browserReadTheSetup,
    );

    const [hook, call] = await Promise.all([
      deliver(succeededEvent),
      client.post<{ message: string; subscriptionStatus: { needsSetup: boolean } }>(
        '/api/create-subscription-after-setup',
      ),
    ]);

    expect(hook.status).toBe(200);
    expect(call.status).toBe(200);
    expect(call.body.subscriptionStatus).toMatchObject({ needsSetup: false });
    expect(subscriptionCreatesSince(mark)).toHaveLength(1);
    expect(await storedSubscription(world.haven, userId)).toMatchObject({ revision: 1 });
    expect(await eventTypes(world.haven, userId)).toHaveLength(1);
  });

  it('answers the browser’s call with the subscription the webhook stored and has not yet marked started', async () => {
    const { client, userId, setupIntentId, succeededEvent } = await startedSetup();
    world.stripeMock.confirmSetupIntent(setupIntentId, 'pm_card_visa');
    expect((await deliver(succeededEvent)).status).toBe(200);
    const stored = await storedSubscription(world.haven, userId);
    // The moment between the webhook's start storing the subscription and marking its claim finished.
    const starts = await world.haven.collection('billing', 'subscription_starts');
    await starts.updateOne({ _id: setupIntentId as never }, { $set: { startedAt: null, claimedAt: new Date() } });
    // The webhook's start finishes once the browser's call is past its reads and asking Stripe for the card.
    void world.stripeMock
      .whenAnswered((request) => request.method === 'GET' && request.path === `/v1/setup_intents/${setupIntentId}`)
      .then(() => starts.updateOne({ _id: setupIntentId as never }, { $set: { startedAt: new Date() } }));
    const mark = world.stripeMock.requests.length;

    const call = await client.post<{ message: string; subscriptionStatus: { needsSetup: boolean } }>(
      '/api/create-subscription-after-setup',
    );

    // Not "You already have an active subscription": it is the one this setup started.
    expect({ status: call.status, message: call.body.message }).toEqual({
      status: 200,
      message: billingMessages.activated(stored!.currentPeriodEnd as Date),
    });
    expect(call.body.subscriptionStatus).toMatchObject({ needsSetup: false, status: stored!.status });
    expect(subscriptionCreatesSince(mark)).toEqual([]);
    expect(await storedSubscription(world.haven, userId)).toMatchObject({
      revision: 1,
      subscriptionId: stored!.subscriptionId,
    });
    expect(await eventTypes(world.haven, userId)).toHaveLength(1);
  });

  it('changes nothing when the webhook comes after the browser’s call', async () => {
    const { client, userId, setupIntentId, succeededEvent } = await startedSetup();
    world.stripeMock.confirmSetupIntent(setupIntentId, 'pm_card_visa');
    const mark = world.stripeMock.requests.length;
    expect((await client.post('/api/create-subscription-after-setup')).status).toBe(200);
    expect(subscriptionCreatesSince(mark)).toHaveLength(1);
    const before = await storedSubscription(world.haven, userId);

    const hookMark = world.stripeMock.requests.length;
    expect((await deliver(succeededEvent)).status).toBe(200);

    expect(world.stripeMock.requests.slice(hookMark)).toEqual([]);
    expect(await storedSubscription(world.haven, userId)).toMatchObject({
      revision: 1,
      subscriptionId: before!.subscriptionId,
    });
    expect(await eventTypes(world.haven, userId)).toHaveLength(1);
  });

  it('refuses an unsigned or badly signed webhook and starts nothing', async () => {
    const { client, userId, succeededEvent } = await startedSetup();
    const mark = world.stripeMock.requests.length;
    const forged = stripe.webhooks.generateTestHeaderString({ payload: succeededEvent, secret: 'whsec_someone_else' });

    expect((await deliver(succeededEvent, forged)).status).toBe(400);
    expect((await deliver(succeededEvent, '')).status).toBe(400);

    expect(world.stripeMock.requests.slice(mark)).toEqual([]);
    expect(await storedSubscription(world.haven, userId)).toBeNull();
    expect(await subscriptionStatus(client)).toMatchObject({ needsSetup: true, status: 'none' });
  });
});
