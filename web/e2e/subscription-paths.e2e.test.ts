/**
 * The ways a subscription starts, in a real browser with the local test-mode provider (no Stripe keys): the card
 * confirmed and the page closed before its own second call still leaves one subscription, started by Haven when
 * the card is confirmed (what Stripe's `setup_intent.succeeded` webhook does); the browser's own calls racing that
 * start never make a second one; a returning subscriber, told "£4.99 today" before the card, is charged once; and a
 * card the provider takes a moment to confirm shows that wait, then the welcome.
 */
import { type Page, type Request } from 'playwright-core';
import { eventually } from '../../tools/testing/eventually';
import { mailbox } from '../../tools/testing/infra-control';
import { billingEmailTo, goodTestCard } from '../../tools/testing/subscription';
import { advanceBillingClock } from '../../services/billing/test/support';
import { useBrowserHaven } from './browserHaven';
import { addTrialCard, signUpToSubscription, userIdOf } from './subscriptionBrowser';

const world = useBrowserHaven();

const day = 24 * 60 * 60;

/** The GraphQL operation a page's request carries (the app's Apollo client names each one), or null. */
function operationOf(request: Request): string | null {
  if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/graphql') return null;
  try {
    return (request.postDataJSON() as { operationName?: string } | null)?.operationName ?? null;
  } catch {
    return null;
  }
}

/**
 * What billing holds for the user: its subscription record, its changes (oldest first), and the local provider's
 * own subscriptions and invoices for the user's customer (what Stripe's dashboard would show).
 */
async function billingRecordsOf(userId: string) {
  const subscription = await (await world.haven.collection('billing', 'subscriptions')).findOne({ _id: userId });
  const customer = await (await world.haven.collection('billing', 'customers')).findOne({ _id: userId });
  const customerId = customer?.customerId as string;
  const history = await (
    await world.haven.collection('billing', 'subscription_history')
  )
    .find({ userId })
    .sort({ revision: 1 })
    .toArray();
  const providerSubscriptions = await (
    await world.haven.collection('billing', 'local_subscriptions')
  )
    .find({ customerId })
    .toArray();
  const invoices = await (
    await world.haven.collection('billing', 'local_invoices')
  )
    .find({ customerId })
    .sort({ createdAt: 1 })
    .toArray();
  return {
    subscription,
    events: history.map((entry) => entry.event as string),
    providerSubscriptionIds: providerSubscriptions.map((entry) => entry._id),
    invoices: invoices.map(({ amount, currency, status }) => ({ amount, currency, status })),
  };
}

/** The welcome modal on /, closed: the end of a successful start in the page. */
async function welcomed(page: Page) {
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal.waitFor();
  await modal.getByRole('button', { name: 'Start My Wellness Journey' }).click();
  await modal.waitFor({ state: 'hidden' });
}

it('starts the trial when the card is confirmed, though the page closes before its own call: one subscription', async () => {
  const { page, email } = await signUpToSubscription(world.browser, world.haven.gatewayUrl, 'closed-page');
  const userId = await userIdOf(page);
  // The browser's second call never reaches Haven: the tab is gone before it is answered.
  await page.route('**/graphql', (route) =>
    operationOf(route.request()) === 'CreateSubscription' ? route.abort() : route.fallback(),
  );
  const ownCallLost = page.waitForEvent('requestfailed', (request) => operationOf(request) === 'CreateSubscription');
  await addTrialCard(page, goodTestCard);
  await ownCallLost;
  const context = page.context();
  await page.close();

  // Back later: the app opens on Premium, and Settings shows the trial.
  const later = await context.newPage();
  await later.goto(`${world.haven.gatewayUrl}/`);
  await later.getByRole('heading', { name: 'How are you feeling today?' }).waitFor();
  expect(new URL(later.url()).pathname).toBe('/');
  await later.goto(`${world.haven.gatewayUrl}/settings`);
  await later.getByText('Free Trial', { exact: true }).waitFor();
  const welcome = await mailbox().waitForEmail({
    to: email,
    subject: 'Welcome to Haven Premium',
    what: `the welcome e-mail to ${email}`,
  });
  expect(welcome.text).toContain('Your 3-day free trial has started');

  const records = await billingRecordsOf(userId);
  expect(records.subscription).toMatchObject({ status: 'trialing', revision: 1 });
  expect(records.events).toEqual(['billing.trial_started']);
  expect(records.providerSubscriptionIds).toEqual([records.subscription!.subscriptionId]);
  expect(records.invoices).toEqual([{ amount: 0, currency: 'gbp', status: 'paid' }]);
  await context.close();
});

it('starts one subscription when the browser’s own calls race the confirmation that starts it', async () => {
  const { page } = await signUpToSubscription(world.browser, world.haven.gatewayUrl, 'both-paths');
  const userId = await userIdOf(page);
  /** What each of the browser's racing calls answered once the subscription had started. */
  const answers: { status: string; trialEnd: number }[] = [];
  /** What the calls that came before the confirmation answered: only "add your card first". */
  const early = new Set<string>();
  // The browser's call (the session's cookie, Haven's own origin), sent again and again from before the
  // confirmation reaches Haven until it answers the subscription: some arrive while the confirmation starts it.
  const browserCallUntilStarted = () =>
    eventually(
      'the browser’s call answering the started subscription',
      async () => {
        const response = await page.request.post(`${world.haven.gatewayUrl}/api/create-subscription-after-setup`, {
          headers: { origin: world.haven.gatewayUrl },
        });
        if (response.status() !== 200) {
          early.add(`${response.status()} ${((await response.json()) as { message?: string }).message}`);
          return false;
        }
        const body = (await response.json()) as { subscriptionStatus: { status: string; trialEnd: number } };
        answers.push({ status: body.subscriptionStatus.status, trialEnd: body.subscriptionStatus.trialEnd });
        return true;
      },
      { intervalMs: 1 },
    );
  await page.route('**/graphql', async (route) => {
    if (operationOf(route.request()) !== 'ConfirmTestCard') return route.fallback();
    const [response] = await Promise.all([route.fetch(), browserCallUntilStarted(), browserCallUntilStarted()]);
    await route.fulfill({ response });
  });
  await addTrialCard(page, goodTestCard);

  // The page's own call comes after, as always: the same trial, welcomed once.
  await page.getByText('Your 3-day free trial has started.', { exact: true }).first().waitFor();
  await page.waitForURL((url) => url.pathname === '/');
  await welcomed(page);

  const records = await billingRecordsOf(userId);
  // Every call answered the one trial.
  const trialEnd = Math.floor((records.subscription!.trialEnd as Date).getTime() / 1000);
  expect(answers).toEqual([
    { status: 'trialing', trialEnd },
    { status: 'trialing', trialEnd },
  ]);
  expect([...early].filter((answer) => answer !== '400 Please complete the payment setup process.')).toEqual([]);
  expect(records.subscription).toMatchObject({ status: 'trialing', revision: 1 });
  expect(records.events).toEqual(['billing.trial_started']);
  expect(records.providerSubscriptionIds).toEqual([records.subscription!.subscriptionId]);
  expect(records.invoices).toEqual([{ amount: 0, currency: 'gbp', status: 'paid' }]);
  await page.context().close();
});

it('tells a returning subscriber "£4.99 today" before the card, charges it once, and says when the next is', async () => {
  const { page, email } = await signUpToSubscription(world.browser, world.haven.gatewayUrl, 'returning');
  const userId = await userIdOf(page);
  await addTrialCard(page, goodTestCard);
  await welcomed(page);
  // The trial is cancelled and runs out on billing's test clock: the next subscription has no trial.
  const asUser = { headers: { origin: world.haven.gatewayUrl } };
  expect((await page.request.post(`${world.haven.gatewayUrl}/api/subscription/cancel`, asUser)).status()).toBe(200);
  await advanceBillingClock(world.haven, 3 * day + 60);

  // Before the card: what is charged today, and VAT said once.
  await page.goto(`${world.haven.gatewayUrl}/subscription`);
  await page
    .getByText('No free trial: it is once per e-mail address, and this address has had it', { exact: true })
    .waitFor();
  expect(await page.getByTestId('first-charge').textContent()).toBe(
    'Your first payment of £4.99 is today, when you add your card.',
  );
  expect(await page.getByText('Prices include VAT.', { exact: true }).count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Start 3-Day Free Trial' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Subscribe for £4.99 a month' }).click();
  await page
    .getByText('£4.99 is charged to your card as soon as it is added, then every month until you cancel.', {
      exact: true,
    })
    .waitFor();
  await page.getByLabel('Test card number').fill(goodTestCard);
  await page.getByRole('button', { name: 'Subscribe and pay £4.99' }).click();

  // Welcomed without a trial: what was paid opens Premium now, and the next payment's day is named.
  await page
    .getByText(/^You're Premium\. Your next payment of £4\.99 is on \d{1,2} [A-Z][a-z]+ \d{4}\.$/)
    .first()
    .waitFor();
  await page.waitForURL((url) => url.pathname === '/');
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal
    .getByText('Your subscription is active, and everything in Haven Premium is open to you.', { exact: true })
    .waitFor();
  await welcomed(page);

  // Settings lists the one charge beside the first trial's £0.00 invoice.
  await page.goto(`${world.haven.gatewayUrl}/settings`);
  const invoices = page.getByTestId('invoices');
  const charged = invoices.getByTestId('invoice-row').filter({ hasText: '£4.99' });
  await charged.getByText('Paid', { exact: true }).waitFor();
  expect(await charged.count()).toBe(1);
  expect(await invoices.getByTestId('invoice-row').count()).toBe(2);

  const receiptSubject = 'Your Haven receipt: £4.99';
  const receipt = await billingEmailTo(email, receiptSubject);
  expect(receipt.text).toContain('Amount: £4.99 (including VAT)');
  expect(await mailbox().listEmails({ to: email.toLowerCase(), subject: receiptSubject })).toHaveLength(1);

  const records = await billingRecordsOf(userId);
  expect(records.invoices).toEqual([
    { amount: 0, currency: 'gbp', status: 'paid' },
    { amount: 499, currency: 'gbp', status: 'paid' },
  ]);
  expect(records.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
  expect(records.events.slice(-1)).toEqual(['billing.activated']);
  expect(records.events.filter((event) => event === 'billing.activated')).toHaveLength(1);
  await page.context().close();
});

/** The local provider's card whose setup it takes a moment to confirm (processing). */
const processingCard = '4000 0000 0000 0077';

it('says "We\'re confirming your payment" while the card is confirmed, then welcomes the user once it is', async () => {
  const { page, email } = await signUpToSubscription(world.browser, world.haven.gatewayUrl, 'processing');
  const userId = await userIdOf(page);
  await addTrialCard(page, processingCard);

  // Neither a welcome nor a failure: the page says what is happening, and nothing is open yet.
  const waiting = page.getByTestId('payment-processing');
  await waiting.getByText("We're confirming your payment", { exact: true }).waitFor();
  await waiting.getByText(/^Your card provider is confirming your card\. /).waitFor();
  expect(new URL(page.url()).pathname).toBe('/subscription');
  expect(await page.getByText('Payment Failed', { exact: true }).count()).toBe(0);
  expect(await page.getByRole('dialog', { name: 'Welcome to Haven Premium!' }).count()).toBe(0);
  const before = await page.request.get(`${world.haven.gatewayUrl}/api/subscription-status`);
  expect(await before.json()).toMatchObject({ status: 'none', needsSetup: true });

  // The provider confirms the card (billing's test clock passes its time, and the scheduler's pass settles it):
  // the trial starts at Haven, and the page that was waiting goes on to the welcome.
  await advanceBillingClock(world.haven, 10);
  await page.getByText('Your 3-day free trial has started.', { exact: true }).first().waitFor();
  await page.waitForURL((url) => url.pathname === '/');
  await welcomed(page);
  await billingEmailTo(email, 'Welcome to Haven Premium');

  const records = await billingRecordsOf(userId);
  expect(records.subscription).toMatchObject({ status: 'trialing', revision: 1 });
  expect(records.events).toEqual(['billing.trial_started']);
  expect(records.providerSubscriptionIds).toEqual([records.subscription!.subscriptionId]);
  await page.context().close();
});
