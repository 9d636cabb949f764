/**
 * Changing the card with Stripe (the SDK against stripe-mock): what billing asks Stripe, with which idempotency
 * keys, and that a change-card setup's `setup_intent.succeeded` starts nothing: it makes the card the subscription's,
 * once with the page's own call.
 */
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { storeStripeTrial } from '../../../tools/testing/stripe-mock';
import { havenOnStripeMock, setupSucceededEvent } from '../../../tools/testing/stripe-haven';
import { eventTypes, storedSubscription } from './support';

const webhookSecret = 'whsec_test_change_card';
const world = havenOnStripeMock(webhookSecret);

const subscriptions = () => world.haven.collection('billing', 'subscriptions');
const customers = () => world.haven.collection('billing', 'customers');
const sentSince = (mark: number) => world.stripeMock.requests.slice(mark);
const described = (mark: number) => sentSince(mark).map((request) => `${request.method} ${request.path}`);

/** A member with a trialing Stripe subscription on the customer their first setup made. */
async function subscribed(): Promise<{
  client: ApiClient;
  userId: string;
  subscriptionId: string;
  customerId: string;
}> {
  const client = new ApiClient(world.haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: uniqueEmail('stripe-card'),
    password: 'a long enough password',
  });
  const userId = registered.body.user.id;
  expect((await client.post('/api/create-setup-intent')).status).toBe(200);
  const customerId = (await (await customers()).findOne({ _id: userId as never }))!.customerId as string;
  const subscriptionId = `sub_card_${userId.slice(0, 8)}`;
  await storeStripeTrial(world.haven, { userId, subscriptionId, customerId });
  return { client, userId, subscriptionId, customerId };
}

/** A change-card setup, confirmed in "the browser" (the proxy answers it as succeeded with `paymentMethodId`). */
async function confirmedChangeSetup(client: ApiClient, userId: string, paymentMethodId: string) {
  const setup = await client.graphql('mutation { createSetupIntent(purpose: CHANGE_CARD) { clientSecret } }');
  expect(setup.body.errors).toBeUndefined();
  const setupIntentId = (await (await customers()).findOne({ _id: userId as never }))!.setupIntentId as string;
  world.stripeMock.confirmSetupIntent(setupIntentId, paymentMethodId);
  return setupIntentId;
}

const updatePaymentMethod = (client: ApiClient) =>
  client.graphql<{ updatePaymentMethodAfterSetup: { message: string; subscriptionStatus: { status: string } } }>(
    'mutation { updatePaymentMethodAfterSetup { message subscriptionStatus { status } } }',
  );

describe('changing the card with Stripe', () => {
  it('shows the card Stripe describes, to its owner', async () => {
    const { client } = await subscribed();
    const mark = world.stripeMock.requests.length;
    const answer = await client.graphql<{ me: { paymentMethod: unknown } }>(
      '{ me { id paymentMethod { brand last4 expMonth expYear } } }',
    );
    expect(answer.body.errors).toBeUndefined();
    // stripe-mock answers every payment method with the same Visa.
    expect(answer.body.data!.me.paymentMethod).toEqual({
      brand: 'Visa',
      last4: expect.stringMatching(/^\d{4}$/),
      expMonth: expect.any(Number),
      expYear: expect.any(Number),
    });
    expect(described(mark)).toEqual(['GET /v1/payment_methods/pm_test']);
  });

  it('sets up on the subscription’s customer; the webhook makes the card the default and starts nothing', async () => {
    const { client, userId, subscriptionId, customerId } = await subscribed();
    let mark = world.stripeMock.requests.length;
    const setupIntentId = await confirmedChangeSetup(client, userId, 'pm_card_mastercard');
    // No second customer: the new card belongs to the one the subscription charges.
    expect(described(mark)).toEqual(['POST /v1/setup_intents']);
    const created = new URLSearchParams(sentSince(mark)[0]!.body);
    expect(created.get('customer')).toBe(customerId);
    expect(created.get('metadata[purpose]')).toBe('change_card');

    // Stripe's webhook for the change-card setup (the page may be closed): no subscription is created, and the
    // card becomes the subscription's default, with the same calls and keys as the page's own call makes.
    mark = world.stripeMock.requests.length;
    expect(
      (
        await world.deliver(
          setupSucceededEvent({
            setupIntentId,
            userId,
            customerId,
            paymentMethodId: 'pm_card_mastercard',
            purpose: 'change_card',
          }),
        )
      ).status,
    ).toBe(200);
    expect(described(mark)).toEqual([`POST /v1/subscriptions/${subscriptionId}`, `POST /v1/customers/${customerId}`]);
    const [subscriptionCall, customerCall] = sentSince(mark);
    expect(new URLSearchParams(subscriptionCall!.body).get('default_payment_method')).toBe('pm_card_mastercard');
    expect(subscriptionCall!.idempotencyKey).toBe(`payment-method-${setupIntentId}-subscription`);
    expect(new URLSearchParams(customerCall!.body).get('invoice_settings[default_payment_method]')).toBe(
      'pm_card_mastercard',
    );
    expect(customerCall!.idempotencyKey).toBe(`payment-method-${setupIntentId}-customer`);
    expect(await storedSubscription(world.haven, userId)).toMatchObject({
      subscriptionId,
      paymentMethodId: 'pm_card_mastercard',
      revision: 2,
    });

    // The page's own call afterwards answers that same change: it only reads the setup, and records nothing more.
    mark = world.stripeMock.requests.length;
    const changed = await updatePaymentMethod(client);
    expect(changed.body.errors).toBeUndefined();
    expect(changed.body.data!.updatePaymentMethodAfterSetup.subscriptionStatus.status).toBe('trialing');
    expect(described(mark)).toEqual([`GET /v1/setup_intents/${setupIntentId}`]);
    expect(await storedSubscription(world.haven, userId)).toMatchObject({
      paymentMethodId: 'pm_card_mastercard',
      revision: 2,
    });
    expect(await eventTypes(world.haven, userId)).toEqual(['billing.payment_method_updated']);
  });

  it('pays the failed payment’s open invoice with the new card, with an idempotency key', async () => {
    const { client, userId, subscriptionId } = await subscribed();
    await (await subscriptions()).updateOne({ _id: userId as never }, { $set: { status: 'payment_failed' } });
    const setupIntentId = await confirmedChangeSetup(client, userId, 'pm_card_visa');

    const mark = world.stripeMock.requests.length;
    const changed = await updatePaymentMethod(client);
    expect(changed.body.errors).toBeUndefined();
    expect(described(mark).slice(0, 4)).toEqual([
      `GET /v1/setup_intents/${setupIntentId}`,
      `POST /v1/subscriptions/${subscriptionId}`,
      expect.stringMatching(/^POST \/v1\/customers\//),
      'GET /v1/invoices',
    ]);
    const pay = sentSince(mark).find((request) => /^\/v1\/invoices\/[^/]+\/pay$/.test(request.path));
    expect(pay).toBeDefined();
    expect(new URLSearchParams(pay!.body).get('payment_method')).toBe('pm_card_visa');
    expect(pay!.idempotencyKey).toBe(`retry-${userId}-1-pay`);
    // stripe-mock's invoice never reaches "paid": the card is saved, and Stripe's webhook brings the payment later.
    expect(changed.body.data!.updatePaymentMethodAfterSetup).toMatchObject({
      message: expect.stringMatching(/^Your new card is saved, but the payment has not gone through yet/),
      subscriptionStatus: { status: 'payment_failed' },
    });
    expect(await storedSubscription(world.haven, userId)).toMatchObject({
      status: 'payment_failed',
      paymentMethodId: 'pm_card_visa',
    });
  });

  it('refuses without a confirmed change-card setup, asking Stripe to change nothing', async () => {
    const { client, userId } = await subscribed();
    let mark = world.stripeMock.requests.length;
    const refused = await updatePaymentMethod(client);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'setupIntent' });
    expect(described(mark)).toEqual([]);

    await client.graphql('mutation { createSetupIntent(purpose: CHANGE_CARD) { clientSecret } }');
    mark = world.stripeMock.requests.length;
    // stripe-mock's intents stay unconfirmed: billing reads the setup, and writes nothing.
    const unconfirmed = await updatePaymentMethod(client);
    expect(unconfirmed.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'setupIntent' });
    expect(described(mark)).toEqual([expect.stringMatching(/^GET \/v1\/setup_intents\//)]);
    expect(await storedSubscription(world.haven, userId)).toMatchObject({ revision: 1, paymentMethodId: 'pm_test' });
  });
});
