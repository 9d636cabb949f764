import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient } from '../../../tools/testing/http';
import { authenticationTestCard, signedUpPerson } from '../../../tools/testing/subscription';
import { storedSubscription, subscriptionStatus } from './support';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

const signedUp = (name = '3ds') => signedUpPerson(haven.gatewayUrl, name);

interface SetupAnswer {
  status: string;
  message: string | null;
  challengeUrl?: string | null;
}

/** A new setup confirmed with the card whose bank asks the person to confirm it. */
async function challengedSetup(client: ApiClient) {
  const setup = await client.post<{ clientSecret: string }>('/api/create-setup-intent');
  expect(setup.status).toBe(200);
  const confirmed = await client.post<SetupAnswer>('/api/local-payments/confirm-setup', {
    clientSecret: setup.body.clientSecret,
    cardNumber: authenticationTestCard,
  });
  return { clientSecret: setup.body.clientSecret, confirmed };
}

const authenticate = (client: ApiClient, body: unknown) =>
  client.post<SetupAnswer & { field?: string }>('/api/local-payments/authenticate-setup', body);
const startEvents = async (userId: string) =>
  (await (await haven.collection('billing', 'subscription_history')).find({ userId }).toArray()).filter(
    (entry) => entry.event === 'billing.trial_started',
  );
const intentOf = async (clientSecret: string) =>
  (await haven.collection('billing', 'local_setup_intents')).findOne({ clientSecret });

describe('a card whose bank asks the person to confirm it (local test-mode provider)', () => {
  it('waits in requires_action with a challenge URL on Haven’s own origin, and grants nothing', async () => {
    const { client, userId } = await signedUp();
    const { clientSecret, confirmed } = await challengedSetup(client);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('requires_action');
    const url = new URL(confirmed.body.challengeUrl!, 'http://haven.invalid');
    expect(url.origin).toBe('http://haven.invalid');
    expect(url.pathname).toBe('/local-payments/authenticate');
    expect(url.searchParams.get('setup_intent')).toBe((await intentOf(clientSecret))!._id);
    expect(await intentOf(clientSecret)).toMatchObject({ status: 'requires_action', paymentMethodId: null });
    // Nothing to start from: the card is not confirmed yet.
    expect((await client.post('/api/create-subscription-after-setup')).status).toBe(400);
    expect(await storedSubscription(haven, userId)).toBeNull();
    expect(await subscriptionStatus(client)).toMatchObject({ status: 'none', needsSetup: true });
  });

  it('approved: the setup succeeds, the card is saved and the subscription starts once', async () => {
    const { client, userId } = await signedUp();
    const { clientSecret } = await challengedSetup(client);
    const approved = await authenticate(client, { clientSecret, approve: true });
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ status: 'succeeded', message: null });
    expect(await intentOf(clientSecret)).toMatchObject({
      status: 'succeeded',
      card: { brand: 'Visa', last4: '3184' },
      pendingCard: null,
    });
    // The return page asks again, as it does after Stripe's redirect: the same subscription answers.
    expect((await client.post('/api/create-subscription-after-setup')).status).toBe(200);
    expect((await client.post('/api/create-subscription-after-setup')).status).toBe(200);
    await eventually('the trial opening Premium', async () => {
      const now = await subscriptionStatus(client);
      return now.status === 'trialing' && !now.needsSetup;
    });
    expect(await startEvents(userId)).toHaveLength(1);
    const card = await client.graphql<{ me: { paymentMethod: { brand: string; last4: string } } }>(
      '{ me { id paymentMethod { brand last4 } } }',
    );
    expect(card.body.data?.me.paymentMethod).toEqual({ brand: 'Visa', last4: '3184' });
    // The check is answered once: a second answer changes nothing.
    const again = await authenticate(client, { clientSecret, approve: false });
    expect(again.status).toBe(409);
    expect(await intentOf(clientSecret)).toMatchObject({ status: 'succeeded' });
  });

  it('failed: the setup asks for a card again, with a plain reason, and nothing starts', async () => {
    const { client, userId } = await signedUp();
    const { clientSecret } = await challengedSetup(client);
    const failed = await authenticate(client, { clientSecret, approve: false });
    expect(failed.status).toBe(200);
    expect(failed.body.status).toBe('requires_payment_method');
    expect(failed.body.message).toMatch(/couldn't verify this card with your bank/);
    expect(await intentOf(clientSecret)).toMatchObject({ status: 'requires_payment_method', card: null });
    expect((await client.post('/api/create-subscription-after-setup')).status).toBe(400);
    expect(await storedSubscription(haven, userId)).toBeNull();
    expect(await subscriptionStatus(client)).toMatchObject({ status: 'none', needsSetup: true });
  });

  it('answers someone else’s setup as none, and changes nothing', async () => {
    const owner = await signedUp('3ds-owner');
    const stranger = await signedUp('3ds-stranger');
    const { clientSecret } = await challengedSetup(owner.client);
    await stranger.client.post('/api/create-setup-intent');
    const theirs = await authenticate(stranger.client, { clientSecret, approve: true });
    expect(theirs.status).toBe(404);
    expect(await intentOf(clientSecret)).toMatchObject({ status: 'requires_action', paymentMethodId: null });
    expect(await storedSubscription(haven, owner.userId)).toBeNull();
    expect(await storedSubscription(haven, stranger.userId)).toBeNull();
  });

  it('answers bad input with a clear 4xx naming the field, and changes nothing', async () => {
    const { client, userId } = await signedUp();
    const { clientSecret } = await challengedSetup(client);
    const noApprove = await authenticate(client, { clientSecret });
    expect(noApprove.status).toBe(400);
    expect(JSON.stringify(noApprove.body)).toMatch(/approve/);
    const wrongType = await authenticate(client, { clientSecret, approve: 'yes' });
    expect(wrongType.status).toBe(400);
    expect(JSON.stringify(wrongType.body)).toMatch(/approve/);
    const noSecret = await authenticate(client, { approve: true });
    expect(noSecret.status).toBe(400);
    expect(JSON.stringify(noSecret.body)).toMatch(/clientSecret/);
    const blankSecret = await authenticate(client, { clientSecret: ' ', approve: true });
    expect(blankSecret.status).toBe(400);
    expect(blankSecret.body).toMatchObject({ field: 'clientSecret' });
    const signedOut = await new ApiClient(haven.gatewayUrl).post('/api/local-payments/authenticate-setup', {
      clientSecret,
      approve: true,
    });
    expect(signedOut.status).toBe(401);
    expect(await intentOf(clientSecret)).toMatchObject({ status: 'requires_action' });
    expect(await storedSubscription(haven, userId)).toBeNull();
  });
});
