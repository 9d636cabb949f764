/**
 * The free trial is had once per address, also across a deleted account: billing keeps a keyed hash of the
 * canonical address of every account that subscribed, after the account is erased, and a new account with that
 * address subscribes without a trial (charged at once), and is told so before it adds a card (`trialAvailable`).
 */
import { createHmac } from 'node:crypto';
import { eventually } from '../../../tools/testing/eventually';
import { deletionProgress } from '../../../tools/testing/erasure';
import { startTestHaven, testSubgraphSecret, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { goodTestCard, startTrial } from '../../../tools/testing/subscription';

const password = 'a long enough password';
let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
  await Promise.all(Object.values(haven.services).map((service) => service.eventsReady));
});

afterAll(async () => {
  await haven?.stop();
});

async function registered(email: string): Promise<ApiClient> {
  const client = new ApiClient(haven.gatewayUrl);
  expect((await client.post('/api/auth/register', { email, password })).status).toBe(201);
  return client;
}

const trialAvailable = async (client: ApiClient) =>
  (await client.graphql<{ me: { trialAvailable: boolean } }>('{ me { trialAvailable } }')).body.data?.me.trialAvailable;

/** The card setup and the subscription, as the subscription page does them; the answer of the last step. */
async function subscribe(client: ApiClient) {
  const setup = await client.post<{ clientSecret: string }>('/api/create-setup-intent');
  expect(setup.status).toBe(200);
  const confirmed = await client.post<{ status: string }>('/api/local-payments/confirm-setup', {
    clientSecret: setup.body.clientSecret,
    cardNumber: goodTestCard,
  });
  expect(confirmed.body.status).toBe('succeeded');
  return client.post<{ message: string; subscriptionStatus: { status: string; isTrialing: boolean } }>(
    '/api/create-subscription-after-setup',
  );
}

it('gives an address that had a trial under a deleted account no second one, and says so before the card', async () => {
  const email = uniqueEmail('second-trial');
  const first = await registered(email);
  expect(await trialAvailable(first)).toBe(true);
  await startTrial(first);
  expect(await trialAvailable(first)).toBe(false);

  // The account goes, every service erases its part.
  const deleted = await first.request<{ requestId: string }>('DELETE', '/api/user/delete-account');
  expect(deleted.status).toBe(200);
  await eventually('the deletion to complete', async () =>
    (await deletionProgress(haven, deleted.body.requestId)).status === 'completed' ? true : null,
  );
  // What billing keeps on purpose: a keyed hash of the address, never the address itself.
  const claims = await (await haven.collection('billing', 'trial_claims')).find({}).toArray();
  expect(claims.length).toBeGreaterThan(0);
  expect(JSON.stringify(claims)).not.toContain(email);
  const plain = createHmac('sha256', testSubgraphSecret).update(email).digest('hex');
  expect(claims.map((claim) => claim._id)).not.toContain(plain);

  // The same address again, typed differently: a new account, no trial, charged at once.
  const again = await registered(email.toUpperCase());
  expect(await trialAvailable(again)).toBe(false);
  const subscribed = await subscribe(again);
  expect(subscribed.status).toBe(200);
  expect(subscribed.body.subscriptionStatus).toMatchObject({ status: 'active', isTrialing: false });
  expect(subscribed.body.message).toMatch(/^You're Premium\. Your next payment of £4\.99 is on /);

  // Another address still starts with the trial.
  const other = await registered(uniqueEmail('first-trial'));
  expect(await trialAvailable(other)).toBe(true);
  const trial = await subscribe(other);
  expect(trial.body.subscriptionStatus).toMatchObject({ status: 'trialing', isTrialing: true });
});
