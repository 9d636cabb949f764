/**
 * Changing the card of a running subscription with a card that is not confirmed at once, on the local test-mode
 * provider: one whose bank asks the person to confirm it (3-D Secure), and one the provider takes a moment to
 * confirm (processing). The new card becomes the card on file only once confirmed — by the bank's check, or by the
 * provider with the page closed — once, with one subscription throughout; a failed check leaves the old card.
 */
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import type { ApiClient } from '../../../tools/testing/http';
import { confirmedLocalSetup, goodTestCard, subscribedWithCard } from '../../../tools/testing/subscription';
import { advanceBillingClock, eventTypes, storedSubscription } from './support';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

const day = 24 * 60 * 60;
/** Stripe's test cards whose bank asks on setup (3-D Secure, and 3-D Secure 2). */
const authenticationCard = '4000 0025 0000 3155';
const authentication3ds2Card = '4000 0000 0000 3220';
const processingCard = '4000 0000 0000 0077';
const mastercard = '5555 5555 5555 4444';
const failsAtRenewal = '4000 0000 0000 0341';
const cardUpdated = 'Your new card is saved. Your next payment for Premium goes to it.';
const authenticationFailed =
  "We couldn't verify this card with your bank. Nothing was charged: you can try again or use another card.";

interface LocalSetupResult {
  status: string;
  message: string | null;
  challengeUrl?: string | null;
}

/** What Settings shows: the card on file, and where a card change stands. */
const cardView = async (client: ApiClient) => {
  const answer = await client.graphql<{
    me: { paymentMethod: { brand: string; last4: string } | null; cardChangeStatus: string | null };
  }>('{ me { id paymentMethod { brand last4 } cardChangeStatus } }');
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.me;
};

/** A change-card setup confirmed with `cardNumber` through the test-mode form, as the page sends it. */
const changeCardWith = async (client: ApiClient, cardNumber: string) => {
  const setup = await client.graphql<{ createSetupIntent: { clientSecret: string } }>(
    'mutation { createSetupIntent(purpose: CHANGE_CARD) { clientSecret } }',
  );
  expect(setup.body.errors).toBeUndefined();
  const clientSecret = setup.body.data!.createSetupIntent.clientSecret;
  const confirmed = await client.graphql<{ confirmLocalSetup: LocalSetupResult }>(
    'mutation($input: ConfirmLocalSetupInput!) { confirmLocalSetup(input: $input) { status message challengeUrl } }',
    { input: { clientSecret, cardNumber } },
  );
  expect(confirmed.body.errors).toBeUndefined();
  return { clientSecret, result: confirmed.body.data!.confirmLocalSetup };
};

const answerBankCheck = (client: ApiClient, clientSecret: string, approve: boolean) =>
  client.graphql<{ authenticateLocalSetup: LocalSetupResult }>(
    'mutation($input: AuthenticateLocalSetupInput!) { authenticateLocalSetup(input: $input) { status message } }',
    { input: { clientSecret, approve } },
  );

const updatePaymentMethod = (client: ApiClient) =>
  client.graphql<{
    updatePaymentMethodAfterSetup: { message: string; subscriptionStatus: { status: string } };
  }>('mutation { updatePaymentMethodAfterSetup { message subscriptionStatus { status } } }');

/** What the provider and billing hold: one subscription each, whatever the card changes. */
const subscriptionCounts = async (userId: string, customerId: string) => ({
  billing: await (await haven.collection('billing', 'subscriptions')).countDocuments({ _id: userId as never }),
  provider: await (await haven.collection('billing', 'local_subscriptions')).countDocuments({ customerId }),
});

describe('a card change whose bank asks the person to confirm the card (3-D Secure)', () => {
  it.each([
    ['3-D Secure', authenticationCard, '3155'],
    ['3-D Secure 2', authentication3ds2Card, '3220'],
  ])('keeps the old card until the bank check succeeds (%s), then changes it once', async (_kind, card, last4) => {
    const { client, userId } = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'change-3ds');
    const before = await storedSubscription(haven, userId);

    const { clientSecret, result } = await changeCardWith(client, card);
    expect(result).toMatchObject({ status: 'requires_action', message: null });
    expect(result.challengeUrl).toMatch(/^\/local-payments\/authenticate\?/);

    // Waiting for the bank: the old card stays on file, and the page is told the check waits.
    expect(await cardView(client)).toEqual({
      id: userId,
      paymentMethod: { brand: 'Visa', last4: '4242' },
      cardChangeStatus: 'requires_action',
    });
    const early = await updatePaymentMethod(client);
    expect(early.body.errors?.[0]).toMatchObject({
      message: 'Please add your new card first.',
      extensions: { code: 'BAD_USER_INPUT', field: 'setupIntent' },
    });
    expect(await storedSubscription(haven, userId)).toMatchObject({
      paymentMethodId: before!.paymentMethodId,
      revision: before!.revision,
    });

    // The bank's check succeeds: the new card is the card on file at once, whether or not the page comes back.
    const approved = await answerBankCheck(client, clientSecret, true);
    expect(approved.body.data?.authenticateLocalSetup).toEqual({ status: 'succeeded', message: null });
    expect(await cardView(client)).toMatchObject({
      paymentMethod: { brand: 'Visa', last4 },
      cardChangeStatus: null,
    });
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started', 'billing.payment_method_updated']);

    // The page's call on its return answers the same change and records nothing more.
    const returned = await updatePaymentMethod(client);
    expect(returned.body.data?.updatePaymentMethodAfterSetup).toEqual({
      message: cardUpdated,
      subscriptionStatus: { status: 'trialing' },
    });
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started', 'billing.payment_method_updated']);
    expect(await storedSubscription(haven, userId)).toMatchObject({
      subscriptionId: before!.subscriptionId,
      status: 'trialing',
      revision: before!.revision + 1,
    });
    expect(await subscriptionCounts(userId, before!.customerId)).toEqual({ billing: 1, provider: 1 });
  });

  it('leaves the old card on file when the bank check fails or is never answered, and says why', async () => {
    const { client, userId } = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'change-3ds-failed');
    const before = await storedSubscription(haven, userId);

    const failed = await changeCardWith(client, authenticationCard);
    const answer = await answerBankCheck(client, failed.clientSecret, false);
    expect(answer.body.data?.authenticateLocalSetup).toEqual({
      status: 'requires_payment_method',
      message: authenticationFailed,
    });
    expect(await cardView(client)).toMatchObject({
      paymentMethod: { brand: 'Visa', last4: '4242' },
      cardChangeStatus: null,
    });
    // A second answer to the same check changes nothing.
    const again = await answerBankCheck(client, failed.clientSecret, true);
    expect(again.body.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT' });
    expect((await updatePaymentMethod(client)).body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'setupIntent',
    });

    // Abandoned: the check is never answered; the old card stays, and the subscription goes on as it was.
    await changeCardWith(client, authenticationCard);
    expect(await cardView(client)).toMatchObject({
      paymentMethod: { last4: '4242' },
      cardChangeStatus: 'requires_action',
    });
    expect(await storedSubscription(haven, userId)).toMatchObject({
      status: 'trialing',
      paymentMethodId: before!.paymentMethodId,
      revision: before!.revision,
    });
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started']);
  });

  it('refuses someone else’s bank check and a blank one, naming the field, and changes nothing', async () => {
    const owner = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'change-3ds-owner');
    const other = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'change-3ds-other');
    const { clientSecret } = await changeCardWith(owner.client, authenticationCard);
    const ownerBefore = await storedSubscription(haven, owner.userId);

    const byOther = await answerBankCheck(other.client, clientSecret, true);
    expect(byOther.body.errors?.[0]).toMatchObject({
      message: 'We could not find that payment setup. Please start again.',
      extensions: { code: 'NOT_FOUND' },
    });
    const blank = await answerBankCheck(owner.client, ' ', true);
    expect(blank.body.errors?.[0]).toMatchObject({
      message: 'Client secret is required',
      extensions: { code: 'BAD_USER_INPUT', field: 'clientSecret' },
    });
    // Another member sees no card change of theirs, and the owner's still waits for its check.
    expect(await cardView(other.client)).toMatchObject({ paymentMethod: { last4: '4242' }, cardChangeStatus: null });
    expect(await cardView(owner.client)).toMatchObject({ cardChangeStatus: 'requires_action' });
    expect(await storedSubscription(haven, owner.userId)).toMatchObject({
      paymentMethodId: ownerBefore!.paymentMethodId,
      revision: ownerBefore!.revision,
    });
  });
});

describe('a card change the provider takes a moment to confirm (processing)', () => {
  it('becomes the card on file when the provider confirms it, with the page closed, once', async () => {
    const { client, userId } = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'change-processing');
    const before = await storedSubscription(haven, userId);

    const { result } = await changeCardWith(client, processingCard);
    expect(result).toMatchObject({ status: 'processing', message: null });
    expect(await cardView(client)).toMatchObject({
      paymentMethod: { last4: '4242' },
      cardChangeStatus: 'processing',
    });
    expect(await storedSubscription(haven, userId)).toMatchObject({ revision: before!.revision });

    // The provider confirms it at the scheduler's next pass; nobody calls from the page.
    await advanceBillingClock(haven, 10);
    expect(await cardView(client)).toMatchObject({
      paymentMethod: { brand: 'Visa', last4: '0077' },
      cardChangeStatus: null,
    });
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started', 'billing.payment_method_updated']);

    // The page's own call afterwards, and later passes, answer the same change.
    expect((await updatePaymentMethod(client)).body.data?.updatePaymentMethodAfterSetup.message).toBe(cardUpdated);
    await advanceBillingClock(haven, 10);
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started', 'billing.payment_method_updated']);
    expect(await subscriptionCounts(userId, before!.customerId)).toEqual({ billing: 1, provider: 1 });
  });

  it('never replaces a newer card with an older change the provider confirms late', async () => {
    const { client, userId } = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'change-late');
    await changeCardWith(client, processingCard);
    // The person adds another card meanwhile, which is confirmed at once.
    await confirmedLocalSetup(client, mastercard, 'CHANGE_CARD');
    expect((await updatePaymentMethod(client)).body.errors).toBeUndefined();
    expect(await cardView(client)).toMatchObject({ paymentMethod: { brand: 'Mastercard', last4: '4444' } });

    await advanceBillingClock(haven, 10);
    expect(await cardView(client)).toMatchObject({
      paymentMethod: { brand: 'Mastercard', last4: '4444' },
      cardChangeStatus: null,
    });
    expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started', 'billing.payment_method_updated']);
  });
});

describe('a failed payment put right by a card change through the bank check', () => {
  it('charges the new card once the check succeeds, and opens Premium again', async () => {
    const { client, userId } = await subscribedWithCard(haven.gatewayUrl, failsAtRenewal, 'change-3ds-unpaid');
    await advanceBillingClock(haven, 3 * day + 60);
    expect((await client.get('/api/subscription-status')).body).toMatchObject({ status: 'payment_failed' });

    const { clientSecret } = await changeCardWith(client, authenticationCard);
    expect((await client.get('/api/subscription-status')).body).toMatchObject({ status: 'payment_failed' });
    await answerBankCheck(client, clientSecret, true);
    expect((await client.get('/api/subscription-status')).body).toMatchObject({
      status: 'active',
      planType: 'premium',
      needsSetup: false,
    });
    expect(await storedSubscription(haven, userId)).toMatchObject({ paymentRetryAt: null });
    expect(await eventTypes(haven, userId)).toEqual([
      'billing.trial_started',
      'billing.payment_failed',
      'billing.activated',
    ]);
    // The return's call says what happened with the card now on file, and records nothing more.
    expect((await updatePaymentMethod(client)).body.data?.updatePaymentMethodAfterSetup.subscriptionStatus).toEqual({
      status: 'active',
    });
    expect(await eventTypes(haven, userId)).toHaveLength(3);
  });
});
