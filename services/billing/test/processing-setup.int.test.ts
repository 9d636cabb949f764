/**
 * A card setup the local test-mode provider takes a moment to confirm (its `processing` card): nothing starts
 * and nothing opens while it processes; when the provider confirms it, billing's scheduler starts the
 * subscription on its own (the page may be closed), once, and the browser's call answers that same one.
 */
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { signedUpPerson } from '../../../tools/testing/subscription';
import { advanceBillingClock } from './support';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

const processingCard = '4000 0000 0000 0077';

it('starts the subscription when the provider confirms a processing card, once, without the browser', async () => {
  const { client, userId } = await signedUpPerson(haven.gatewayUrl, 'processing');
  const setup = await client.post<{ clientSecret: string }>('/api/create-setup-intent');
  expect(setup.status).toBe(200);
  const confirmed = await client.post('/api/local-payments/confirm-setup', {
    clientSecret: setup.body.clientSecret,
    cardNumber: processingCard,
  });
  expect(confirmed.body).toEqual({ status: 'processing', message: null });

  // While it processes: no subscription, no access, and the browser's call is told to finish the setup first.
  const early = await client.post('/api/create-subscription-after-setup');
  expect(early.status).toBe(400);
  expect(early.body).toMatchObject({ message: 'Please complete the payment setup process.' });
  const subscriptions = await haven.collection('billing', 'subscriptions');
  expect(await subscriptions.findOne({ _id: userId })).toBeNull();
  expect((await client.get('/api/subscription-status')).body).toMatchObject({ status: 'none', needsSetup: true });

  // The provider's time passes: the scheduler's pass settles the setup and starts the trial, with no call from the page.
  await advanceBillingClock(haven, 10);
  expect(await subscriptions.findOne({ _id: userId })).toMatchObject({ status: 'trialing', revision: 1 });
  expect((await client.get('/api/subscription-status')).body).toMatchObject({ status: 'trialing', needsSetup: false });

  // The browser's call afterwards, and later passes, answer the same trial and change nothing.
  const created = await client.post<{ message: string; subscriptionStatus: { status: string } }>(
    '/api/create-subscription-after-setup',
  );
  expect(created.status).toBe(200);
  expect(created.body.subscriptionStatus).toMatchObject({ status: 'trialing' });
  await advanceBillingClock(haven, 10);
  expect(await subscriptions.findOne({ _id: userId })).toMatchObject({ status: 'trialing', revision: 1 });
  const history = await (await haven.collection('billing', 'subscription_history')).find({ userId }).toArray();
  expect(history.map((entry) => entry.event)).toEqual(['billing.trial_started']);
  // The card on file is the one the provider confirmed.
  const card = await client.graphql<{ me: { paymentMethod: { last4: string } | null } }>(
    '{ me { id paymentMethod { last4 } } }',
  );
  expect(card.body.data?.me.paymentMethod).toMatchObject({ last4: '0077' });
});
