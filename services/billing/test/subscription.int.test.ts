import { entitlementProjection } from '@haven/platform';
import mongoose from 'mongoose';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import { startTestHaven, testSubgraphSecret, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient } from '../../../tools/testing/http';
import {
  confirmedLocalSetup,
  declinedTestCard,
  goodTestCard,
  signedUpPerson,
  startTrial,
} from '../../../tools/testing/subscription';
import { testInfra } from '../../../tools/testing/test-env';
import { advanceBillingClock, entitlementCopy, eventTypes, storedSubscription, subscriptionStatus } from './support';

let haven: TestHaven;
/** The quote service's own projection runs on it, to ask what a paid operation decides. */
let quoteDb: mongoose.Connection;

beforeAll(async () => {
  haven = await startTestHaven();
  quoteDb = await mongoose.createConnection(testInfra().mongoUrl, { dbName: haven.dbName('quote') }).asPromise();
});

afterAll(async () => {
  await quoteDb?.close();
  await haven?.stop();
});

const day = 24 * 60 * 60;

const signedUp = (name = 'sub') => signedUpPerson(haven.gatewayUrl, name);

async function confirmSetup(client: ApiClient, cardNumber: string) {
  const setup = await client.post<{ clientSecret: string }>('/api/create-setup-intent');
  expect(setup.status).toBe(200);
  expect(setup.body.clientSecret).toEqual(expect.any(String));
  return client.post<{ status: string; message: string | null }>('/api/local-payments/confirm-setup', {
    clientSecret: setup.body.clientSecret,
    cardNumber,
  });
}

describe('subscription lifecycle with the local test-mode provider', () => {
  it('answers GET /api/subscription-status with exactly the spec’s fields', async () => {
    const { client } = await signedUp();
    expect(Object.keys(await subscriptionStatus(client)).sort()).toEqual(
      [
        'cancel_at_period_end',
        'current_period_end',
        'isTrialing',
        'needsSetup',
        'planType',
        'status',
        'trialEnd',
      ].sort(),
    );
  });

  it('starts a 3-day trial with the good test card, once, and tells the other services', async () => {
    const { client, userId } = await signedUp();
    expect((await confirmSetup(client, goodTestCard)).body).toEqual({ status: 'succeeded', message: null });
    const created = await client.post<{ message: string }>('/api/create-subscription-after-setup');
    expect(created.status).toBe(200);
    expect(created.body.message).toMatch(/3-day free trial has started/);

    const now = Date.now() / 1000;
    const view = await subscriptionStatus(client);
    expect(view).toMatchObject({ planType: 'trial', status: 'trialing', isTrialing: true, needsSetup: false });
    expect(view.trialEnd as number).toBeGreaterThan(now + 3 * day - 120);
    expect(view.trialEnd as number).toBeLessThan(now + 3 * day + 120);
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started']);

    // Asking again answers the same subscription; a second setup is refused; neither changes anything.
    const again = await client.post<{ message: string }>('/api/create-subscription-after-setup');
    expect(again.status).toBe(200);
    expect(again.body.message).toBe(created.body.message);
    expect((await client.post('/api/create-setup-intent')).status).toBe(409);
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started']);

    await eventuallyExpect('the quote service’s copy granting access', async () =>
      expect(await entitlementCopy(haven, userId)).toMatchObject({ granted: true, status: 'trialing' }),
    );
  });

  it('starts the trial when the card is confirmed, without the browser’s second call, once', async () => {
    const { client, userId } = await signedUp('closed-tab');
    expect((await confirmSetup(client, goodTestCard)).body).toEqual({ status: 'succeeded', message: null });
    // The tab is closed here: the subscription exists all the same, and opens the paid features.
    expect(await subscriptionStatus(client)).toMatchObject({ status: 'trialing', isTrialing: true, needsSetup: false });
    expect(await storedSubscription(haven, userId)).toMatchObject({ status: 'trialing', revision: 1 });
    await eventuallyExpect('the quote service’s copy granting access', async () =>
      expect(await entitlementCopy(haven, userId)).toMatchObject({ granted: true, status: 'trialing' }),
    );
    const subscriptionId = (await storedSubscription(haven, userId))!.subscriptionId as string;

    const created = await client.post<{ message: string; subscriptionStatus: { status: string } }>(
      '/api/create-subscription-after-setup',
    );
    expect(created.status).toBe(200);
    expect(created.body.message).toMatch(/3-day free trial has started/);
    expect(created.body.subscriptionStatus).toMatchObject({ status: 'trialing' });
    expect(await storedSubscription(haven, userId)).toMatchObject({ subscriptionId, revision: 1 });
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started']);
  });

  it('keeps a declined card without a subscription, with the provider’s message', async () => {
    const { client, userId } = await signedUp();
    expect((await confirmSetup(client, declinedTestCard)).body).toEqual({
      status: 'requires_payment_method',
      message: 'Your card was declined.',
    });
    const created = await client.post('/api/create-subscription-after-setup');
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ message: 'Please complete the payment setup process.' });
    expect(await storedSubscription(haven, userId)).toBeNull();
    expect(await subscriptionStatus(client)).toMatchObject({ needsSetup: true, status: 'none' });
  });

  it('answers bad input with a clear 4xx and stores nothing', async () => {
    const { client, userId } = await signedUp();
    const other = await signedUp('other');
    const otherSetup = await other.client.post<{ clientSecret: string }>('/api/create-setup-intent');

    expect((await client.post('/api/create-subscription-after-setup')).status).toBe(400);
    expect((await client.post('/api/subscription/cancel')).status).toBe(404);
    expect((await client.post('/api/subscription/reactivate')).status).toBe(404);
    await client.post('/api/create-setup-intent');
    const wrongType = await client.post('/api/local-payments/confirm-setup', { clientSecret: 'x', cardNumber: 4242 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject({ field: 'cardNumber' });
    const notACard = await client.post('/api/local-payments/confirm-setup', { clientSecret: 'x', cardNumber: 'abc' });
    expect(notACard.body).toMatchObject({ field: 'cardNumber', message: 'Card number must be 12 to 19 digits' });
    // Someone else's setup is nobody's: refused, and it stays unconfirmed.
    const theirs = await client.post('/api/local-payments/confirm-setup', {
      clientSecret: otherSetup.body.clientSecret,
      cardNumber: goodTestCard,
    });
    expect(theirs.status).toBe(404);
    expect((await other.client.post('/api/create-subscription-after-setup')).status).toBe(400);
    expect(await storedSubscription(haven, userId)).toBeNull();
    expect(await storedSubscription(haven, other.userId)).toBeNull();
    expect((await new ApiClient(haven.gatewayUrl).post('/api/create-setup-intent')).status).toBe(401);
  });

  it('cancels and reactivates, then ends access when the clock passes a cancelled trial', async () => {
    const { client, userId } = await signedUp();
    await startTrial(client);
    const cancelled = await client.post<{ message: string }>('/api/subscription/cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toMatch(/will not be charged/);
    expect(await subscriptionStatus(client)).toMatchObject({ cancel_at_period_end: true, status: 'trialing' });
    expect((await client.post('/api/subscription/cancel')).status).toBe(409);
    expect((await client.post('/api/subscription/reactivate')).status).toBe(200);
    expect((await client.post('/api/subscription/reactivate')).status).toBe(409);
    expect((await client.post('/api/subscription/cancel')).status).toBe(200);

    await advanceBillingClock(haven, 3 * day + 60);
    expect(await subscriptionStatus(client)).toMatchObject({
      status: 'trial_expired',
      needsSetup: true,
      planType: 'free',
    });
    const types = await eventTypes(haven, userId);
    expect(types.filter((type) => type === 'billing.trial_expired')).toHaveLength(1);
    expect(types).not.toContain('billing.trial_will_end'); // no reminder for a trial that will not convert

    await eventuallyExpect('the quote service’s copy closing access', async () =>
      expect(await entitlementCopy(haven, userId)).toMatchObject({ granted: false, reason: 'trial_expired' }),
    );
    // What a paid operation in the quote service decides.
    const token = (client as unknown as { cookie: string }).cookie.split('=')[1]!;
    const decide = entitlementProjection(quoteDb, 'quote-test').source(
      { BILLING_SERVICE_URL: haven.services.billing.url, SUBGRAPH_SECRET: testSubgraphSecret },
      token,
    );
    expect(await decide({ userId, sessionId: 'any' })).toEqual({ granted: false, reason: 'trial_expired' });
  });

  it('sets aside a subscription it cannot move on, and still moves on every other one', async () => {
    // Created first, so the sweep meets it first.
    const stuck = await signedUp('stuck');
    expect((await confirmSetup(stuck.client, '4000 0000 0000 0119')).body.status).toBe('succeeded');
    expect((await stuck.client.post('/api/create-subscription-after-setup')).status).toBe(200);
    const paying = await signedUp('paying');
    await startTrial(paying.client);

    await advanceBillingClock(haven, 3 * day + 60);
    expect(await subscriptionStatus(paying.client)).toMatchObject({ status: 'active', planType: 'premium' });
    // The provider gave no answer: still in its trial, waiting to be tried again, and visible as such.
    const setAside = await storedSubscription(haven, stuck.userId);
    expect(setAside).toMatchObject({ status: 'trialing', setAsideUntil: expect.any(Date) });
    expect(await eventTypes(haven, stuck.userId)).toEqual(['billing.trial_started']);

    // Tried again once the time is up, and set aside again while the provider still fails.
    await advanceBillingClock(haven, 20 * 60);
    const again = await storedSubscription(haven, stuck.userId);
    expect(again!.setAsideUntil.getTime()).toBeGreaterThan(setAside!.setAsideUntil.getTime());
  });

  it('charges after the trial, reminds a day before, and fixes a failed payment with a new card', async () => {
    const { client, userId } = await signedUp();
    await startTrial(client);
    await advanceBillingClock(haven, 2 * day + 60);
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started', 'billing.trial_will_end']);
    await advanceBillingClock(haven, day);
    expect(await subscriptionStatus(client)).toMatchObject({
      status: 'active',
      planType: 'premium',
      needsSetup: false,
    });
    expect((await eventTypes(haven, userId)).at(-1)).toBe('billing.activated');

    const failing = await signedUp('failing');
    expect((await confirmSetup(failing.client, '4000 0000 0000 0341')).body.status).toBe('succeeded');
    await failing.client.post('/api/create-subscription-after-setup');
    await advanceBillingClock(haven, 3 * day + 60);
    expect(await subscriptionStatus(failing.client)).toMatchObject({ status: 'payment_failed', needsSetup: true });
    await eventuallyExpect('the copy naming the failed payment', async () =>
      expect(await entitlementCopy(haven, failing.userId)).toMatchObject({ granted: false, reason: 'payment_failed' }),
    );
    // Not a second subscription, which would be charged beside this one: its card is changed, and paid at once.
    expect((await failing.client.post('/api/create-setup-intent')).status).toBe(409);
    await confirmedLocalSetup(failing.client, goodTestCard, 'CHANGE_CARD');
    const changed = await failing.client.graphql('mutation { updatePaymentMethodAfterSetup { message } }');
    expect(changed.body.errors).toBeUndefined();
    expect(await subscriptionStatus(failing.client)).toMatchObject({
      status: 'active',
      isTrialing: false,
      needsSetup: false,
    });
    await eventually(
      'the copy granting access again',
      async () => (await entitlementCopy(haven, failing.userId))?.granted,
    );
  });
});
