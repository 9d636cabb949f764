/**
 * The card on file and changing it, with the local test-mode provider: what Settings shows, a change-card setup
 * that never starts a subscription, and a failed renewal put right by a new card.
 */
import { eventuallyExpect } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import {
  confirmedLocalSetup,
  goodTestCard,
  signedUpPerson,
  startTrial,
  subscribedWithCard,
} from '../../../tools/testing/subscription';
import { verifyByEmailLink } from '../../../tools/testing/verification';
import { advanceBillingClock, entitlementCopy, eventTypes, storedSubscription, subscriptionStatus } from './support';

let haven: TestHaven;
const adminEmail = uniqueEmail('card-admin');

beforeAll(async () => {
  haven = await startTestHaven({ env: { ADMIN_EMAIL: adminEmail } });
});

afterAll(async () => {
  await haven?.stop();
});

const day = 24 * 60 * 60;
const mastercard = '5555 5555 5555 4444';
const failsAtRenewal = '4000 0000 0000 0341';

interface Card {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

interface ChangeResult {
  message: string;
  subscriptionStatus: { status: string; hasActiveSubscription: boolean };
}

const cardOnFile = async (client: ApiClient) => {
  const answer = await client.graphql<{ me: { paymentMethod: Card | null } }>(
    '{ me { id paymentMethod { brand last4 expMonth expYear } } }',
  );
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.me.paymentMethod;
};

const updatePaymentMethod = (client: ApiClient) =>
  client.graphql<{ updatePaymentMethodAfterSetup: ChangeResult }>(
    'mutation { updatePaymentMethodAfterSetup { message subscriptionStatus { status hasActiveSubscription } } }',
  );

describe('the card on file', () => {
  it('is none before subscribing, and the card used after', async () => {
    const { client } = await signedUpPerson(haven.gatewayUrl, 'card');
    expect(await cardOnFile(client)).toBeNull();
    await startTrial(client);
    const card = await cardOnFile(client);
    expect(card).toEqual({ brand: 'Visa', last4: '4242', expMonth: 12, expYear: expect.any(Number) });
    expect(card!.expYear).toBeGreaterThan(new Date().getUTCFullYear());
  });

  it('is the owner’s alone: an admin’s or another member’s view of the account shows none', async () => {
    const owner = await signedUpPerson(haven.gatewayUrl, 'owner');
    await startTrial(owner.client);
    const query = 'query($id: ID!) { user(id: $id) { id subscriptionStatus { status } paymentMethod { last4 } } }';
    const other = await signedUpPerson(haven.gatewayUrl, 'other');
    const byOther = await other.client.graphql(query, { id: owner.userId });
    expect(byOther.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });

    const admin = await signedUpPerson(haven.gatewayUrl, 'card-admin', adminEmail);
    await verifyByEmailLink(haven.gatewayUrl, adminEmail, admin.client);
    const byAdmin = await admin.client.graphql<{
      user: { subscriptionStatus: { status: string }; paymentMethod: Card | null };
    }>(query, { id: owner.userId });
    expect(byAdmin.body.errors).toBeUndefined();
    // The admin sees the subscription's state, and no card.
    expect(byAdmin.body.data!.user.subscriptionStatus.status).toBe('trialing');
    expect(byAdmin.body.data!.user.paymentMethod).toBeNull();
    expect(await cardOnFile(owner.client)).toMatchObject({ last4: '4242' });
  });

  it('changes to the new card, keeps exactly one subscription, and records the change', async () => {
    const { client, userId } = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'card');
    const before = await storedSubscription(haven, userId);

    await confirmedLocalSetup(client, mastercard, 'CHANGE_CARD');
    // Confirming a change-card setup starts nothing and changes nothing yet.
    expect(await storedSubscription(haven, userId)).toMatchObject({ revision: before!.revision });
    const changed = await updatePaymentMethod(client);
    expect(changed.body.errors).toBeUndefined();
    expect(changed.body.data!.updatePaymentMethodAfterSetup).toMatchObject({
      message: 'Your new card is saved. Your next payment for Premium goes to it.',
      subscriptionStatus: { status: 'trialing', hasActiveSubscription: true },
    });

    expect(await cardOnFile(client)).toMatchObject({ brand: 'Mastercard', last4: '4444' });
    const after = await storedSubscription(haven, userId);
    expect(after).toMatchObject({
      subscriptionId: before!.subscriptionId,
      status: 'trialing',
      trialEnd: before!.trialEnd,
      revision: before!.revision + 1,
    });
    expect(after!.paymentMethodId).not.toBe(before!.paymentMethodId);
    expect(await (await haven.collection('billing', 'subscriptions')).countDocuments({ _id: userId as never })).toBe(1);
    expect(
      await (
        await haven.collection('billing', 'local_subscriptions')
      ).countDocuments({ customerId: before!.customerId }),
    ).toBe(1);
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started', 'billing.payment_method_updated']);

    // Asked again, the same change is already made: nothing more is recorded.
    expect((await updatePaymentMethod(client)).body.errors).toBeUndefined();
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started', 'billing.payment_method_updated']);
  });

  it('never starts a subscription from a change-card setup, whichever path asks', async () => {
    const { client, userId } = await signedUpPerson(haven.gatewayUrl, 'no-start');
    // Without a subscription there is no card to change.
    const refused = await client.graphql('mutation { createSetupIntent(purpose: CHANGE_CARD) { clientSecret } }');
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });

    // A lapsed trial (cancelled, run out): a change-card setup is not for it either.
    const lapsed = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'lapsed');
    expect((await lapsed.client.post('/api/subscription/cancel')).status).toBe(200);
    await confirmedLocalSetup(lapsed.client, mastercard, 'CHANGE_CARD');
    await advanceBillingClock(haven, 3 * day + 60);
    expect(await subscriptionStatus(lapsed.client)).toMatchObject({ status: 'trial_expired' });
    expect(
      (await lapsed.client.graphql('mutation { createSetupIntent(purpose: CHANGE_CARD) { clientSecret } }')).body
        .errors?.[0]?.extensions,
    ).toMatchObject({ code: 'NOT_FOUND' });
    // The confirmed change-card setup it had is no start: the start path refuses it and starts nothing.
    const revision = (await storedSubscription(haven, lapsed.userId))!.revision;
    const start = await lapsed.client.post('/api/create-subscription-after-setup');
    expect(start.status).toBe(400);
    expect(start.body).toMatchObject({ field: 'setupIntent' });
    expect(await storedSubscription(haven, lapsed.userId)).toMatchObject({ status: 'trial_expired', revision });
    expect(await storedSubscription(haven, userId)).toBeNull();
  });

  it('refuses bad input with a 4xx naming what is missing, and changes nothing', async () => {
    // No subscription at all.
    const { client, userId } = await signedUpPerson(haven.gatewayUrl, 'bad-input');
    const none = await updatePaymentMethod(client);
    expect(none.body.errors?.[0]).toMatchObject({
      message: 'You have no subscription whose card to change. You can start one on the Subscription page.',
      extensions: { code: 'NOT_FOUND' },
    });
    expect(await storedSubscription(haven, userId)).toBeNull();

    // A subscription, but no change-card setup (only the setup that started it).
    const subscribed = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'no-change-setup');
    const before = await storedSubscription(haven, subscribed.userId);
    const noSetup = await updatePaymentMethod(subscribed.client);
    expect(noSetup.body.errors?.[0]).toMatchObject({
      message: 'Please add your new card first.',
      extensions: { code: 'BAD_USER_INPUT', field: 'setupIntent' },
    });

    // A change-card setup not yet confirmed (or declined).
    await subscribed.client.graphql('mutation { createSetupIntent(purpose: CHANGE_CARD) { clientSecret } }');
    const unconfirmed = await updatePaymentMethod(subscribed.client);
    expect(unconfirmed.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'setupIntent' });
    expect(await storedSubscription(haven, subscribed.userId)).toMatchObject({
      paymentMethodId: before!.paymentMethodId,
      revision: before!.revision,
    });
    expect(await eventTypes(haven, subscribed.userId)).toEqual(['billing.trial_started']);

    expect(
      (await new ApiClient(haven.gatewayUrl).graphql('mutation { updatePaymentMethodAfterSetup { message } }')).body
        .errors?.[0]?.extensions,
    ).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('puts a failed payment right with a new card: charged at once, access back, everywhere', async () => {
    const { client, userId } = await subscribedWithCard(haven.gatewayUrl, failsAtRenewal, 'renewal');
    await advanceBillingClock(haven, 3 * day + 60);
    expect(await subscriptionStatus(client)).toMatchObject({ status: 'payment_failed', needsSetup: true });
    await eventuallyExpect('the copy naming the failed payment', async () =>
      expect(await entitlementCopy(haven, userId)).toMatchObject({ granted: false, reason: 'payment_failed' }),
    );
    // The person whose payment failed sees which card failed.
    expect(await cardOnFile(client)).toMatchObject({ brand: 'Visa', last4: '0341' });
    const before = await storedSubscription(haven, userId);

    await confirmedLocalSetup(client, goodTestCard, 'CHANGE_CARD');
    // A lapsed subscription may start anew, but a change-card setup's confirmation is no start.
    expect(await storedSubscription(haven, userId)).toMatchObject({
      status: 'payment_failed',
      revision: before!.revision,
    });
    const changed = await updatePaymentMethod(client);
    expect(changed.body.errors).toBeUndefined();
    expect(changed.body.data!.updatePaymentMethodAfterSetup.message).toMatch(
      /^Your new card is saved and your payment of £4\.99 went through/,
    );
    expect(changed.body.data!.updatePaymentMethodAfterSetup.subscriptionStatus).toEqual({
      status: 'active',
      hasActiveSubscription: true,
    });
    expect(await subscriptionStatus(client)).toMatchObject({
      status: 'active',
      planType: 'premium',
      needsSetup: false,
    });
    expect(await cardOnFile(client)).toMatchObject({ last4: '4242' });
    expect(await storedSubscription(haven, userId)).toMatchObject({ subscriptionId: before!.subscriptionId });
    expect(await eventTypes(haven, userId)).toEqual([
      'billing.trial_started',
      'billing.payment_failed',
      'billing.activated',
    ]);
    await eventuallyExpect('the copy granting access again', async () =>
      expect(await entitlementCopy(haven, userId)).toMatchObject({ granted: true, status: 'active' }),
    );
  });

  it('keeps a failed payment failed when the new card fails too, with the card saved', async () => {
    const { client, userId } = await subscribedWithCard(haven.gatewayUrl, failsAtRenewal, 'still-failing');
    await advanceBillingClock(haven, 3 * day + 60);
    expect(await subscriptionStatus(client)).toMatchObject({ status: 'payment_failed' });

    await confirmedLocalSetup(client, failsAtRenewal, 'CHANGE_CARD');
    const changed = await updatePaymentMethod(client);
    expect(changed.body.data!.updatePaymentMethodAfterSetup).toMatchObject({
      message: expect.stringMatching(/^Your new card is saved, but the payment has not gone through yet/),
      subscriptionStatus: { status: 'payment_failed', hasActiveSubscription: false },
    });
    expect((await eventTypes(haven, userId)).at(-1)).toBe('billing.payment_method_updated');
  });
});
