/**
 * A subscription whose payment failed is still running at the provider (Stripe keeps retrying it), so subscribing
 * again would start a second one charged beside it. Billing refuses the new start on every path — the new card
 * setup, the browser's start call, Stripe's webhook — before it stores anything or asks the provider, and sends
 * the person to change the card of the one they have.
 */
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { storeStripeTrial } from '../../../tools/testing/stripe-mock';
import { subscribedWithCard } from '../../../tools/testing/subscription';
import { advanceBillingClock } from './support';
import { havenOnStripeMock, setupSucceededEvent } from '../../../tools/testing/stripe-haven';

const day = 24 * 60 * 60;
const failsAtRenewal = '4000 0000 0000 0341';
const updateCardInstead =
  "Your last payment didn't go through, so your Premium subscription is on hold. Subscribing again would start a second one, so please update your card on the Subscription page instead: we'll try the payment again straight away.";

/**
 * What billing keeps about the person's subscription and payment setup: what a refused start must leave as it was
 * (the event publisher's own bookkeeping on the record may move meanwhile).
 */
async function billingRecords(haven: TestHaven, userId: string) {
  const subscription = await (await haven.collection('billing', 'subscriptions')).findOne({ _id: userId as never });
  const customer = await (await haven.collection('billing', 'customers')).findOne({ _id: userId as never });
  const history = await (await haven.collection('billing', 'subscription_history')).countDocuments({ userId });
  return {
    subscription: subscription && {
      status: subscription.status,
      revision: subscription.revision,
      subscriptionId: subscription.subscriptionId,
      paymentMethodId: subscription.paymentMethodId,
      currentPeriodEnd: subscription.currentPeriodEnd,
    },
    customer: customer && {
      customerId: customer.customerId,
      setupIntentId: customer.setupIntentId,
      setupPurpose: customer.setupPurpose,
      setupAttempts: customer.setupAttempts,
    },
    history,
  };
}

const newSetup = (client: ApiClient) =>
  client.graphql<{ createSetupIntent: { clientSecret: string } }>('mutation { createSetupIntent { clientSecret } }');

describe('a second subscription while a payment has failed, with the local test-mode provider', () => {
  let haven: TestHaven;

  beforeAll(async () => {
    haven = await startTestHaven();
  });

  afterAll(async () => {
    await haven?.stop();
  });

  /** What the local provider holds for the customer: its setups and subscriptions (Stripe's dashboard here). */
  const providerRecords = async (customerId: string) => ({
    setups: await (await haven.collection('billing', 'local_setup_intents')).countDocuments({ customerId }),
    subscriptions: await (await haven.collection('billing', 'local_subscriptions')).countDocuments({ customerId }),
  });

  it('is refused, pointing to the card change; nothing is created and the provider is not asked', async () => {
    const { client, userId } = await subscribedWithCard(haven.gatewayUrl, failsAtRenewal, 'past-due');
    await advanceBillingClock(haven, 3 * day + 60);
    expect((await client.get('/api/subscription-status')).body).toMatchObject({ status: 'payment_failed' });
    const before = await billingRecords(haven, userId);
    const customerId = before.customer!.customerId as string;
    const atProvider = await providerRecords(customerId);
    expect(atProvider).toEqual({ setups: 1, subscriptions: 1 });

    // Subscribing again, through the REST route and through the web app's GraphQL call.
    const rest = await client.post('/api/create-setup-intent');
    expect(rest.status).toBe(409);
    expect(rest.body).toEqual({ message: updateCardInstead });
    const graphql = await newSetup(client);
    expect(graphql.body.errors?.[0]).toMatchObject({ message: updateCardInstead, extensions: { code: 'CONFLICT' } });

    // The browser's start call with the setup it has answers the subscription that setup started, and starts none.
    const start = await client.post<{ subscriptionStatus: { status: string } }>('/api/create-subscription-after-setup');
    expect(start.status).toBe(200);
    expect(start.body.subscriptionStatus.status).toBe('payment_failed');

    expect(await billingRecords(haven, userId)).toEqual(before);
    expect(await providerRecords(customerId)).toEqual(atProvider);

    // The way it points to is open: a new card for the subscription the person has.
    const change = await client.graphql('mutation { createSetupIntent(purpose: CHANGE_CARD) { clientSecret } }');
    expect(change.body.errors).toBeUndefined();
    expect(await providerRecords(customerId)).toEqual({ setups: 2, subscriptions: 1 });
  });

  it('still lets a person whose subscription has ended start a new one', async () => {
    const { client } = await subscribedWithCard(haven.gatewayUrl, '4242 4242 4242 4242', 'ended');
    expect((await client.post('/api/subscription/cancel')).status).toBe(200);
    await advanceBillingClock(haven, 3 * day + 60);
    expect((await client.get('/api/subscription-status')).body).toMatchObject({ status: 'trial_expired' });
    expect((await client.post('/api/create-setup-intent')).status).toBe(200);
  });
});

describe('a second subscription while Stripe retries a failed payment (stripe-mock)', () => {
  const webhookSecret = 'whsec_test_past_due';
  const world = havenOnStripeMock(webhookSecret);

  const described = (mark: number) => world.stripeMock.requests.slice(mark).map((r) => `${r.method} ${r.path}`);

  it('is refused on every path, asking Stripe for nothing and creating nothing', async () => {
    const client = new ApiClient(world.haven.gatewayUrl);
    const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
      email: uniqueEmail('stripe-past-due'),
      password: 'a long enough password',
    });
    const userId = registered.body.user.id;
    // The start setup that began it, and the subscription Stripe now retries (past_due is payment_failed here).
    expect((await client.post('/api/create-setup-intent')).status).toBe(200);
    const customer = await (await world.haven.collection('billing', 'customers')).findOne({ _id: userId as never });
    const customerId = customer!.customerId as string;
    const setupIntentId = customer!.setupIntentId as string;
    await storeStripeTrial(world.haven, { userId, subscriptionId: `sub_past_due_${userId.slice(0, 8)}`, customerId });
    await (
      await world.haven.collection('billing', 'subscriptions')
    ).updateOne({ _id: userId as never }, { $set: { status: 'payment_failed' } });
    const before = await billingRecords(world.haven, userId);
    const mark = world.stripeMock.requests.length;

    const rest = await client.post('/api/create-setup-intent');
    expect(rest.status).toBe(409);
    expect(rest.body).toEqual({ message: updateCardInstead });
    const graphql = await newSetup(client);
    expect(graphql.body.errors?.[0]).toMatchObject({ message: updateCardInstead, extensions: { code: 'CONFLICT' } });

    // The browser's start call with its setup: refused before Stripe is even asked what the setup confirmed.
    const start = await client.post('/api/create-subscription-after-setup');
    expect(start.status).toBe(409);
    expect(start.body).toEqual({ message: updateCardInstead });

    // Stripe's webhook for that setup is taken (no redelivery), and starts nothing.
    expect(
      (await world.deliver(setupSucceededEvent({ setupIntentId, userId, customerId, purpose: 'start' }))).status,
    ).toBe(200);

    expect(described(mark)).toEqual([]);
    expect(await billingRecords(world.haven, userId)).toEqual(before);
  });
});
