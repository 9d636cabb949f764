/**
 * The subscription journey in a real browser, with the local test-mode provider (no Stripe keys): a new
 * account starts its trial with the good test card, lands on / with the welcome modal and gets the welcome
 * e-mail; the declined card leaves the user on /subscription without access; cancelling in Settings asks first,
 * naming the day access ends, and is confirmed by Haven's e-mail. When the trial has run out, crisis help is
 * still one tap away. A payment that fails (at the trial's end, or the first one of a returning subscriber) shows
 * the "Payment Failed" state with a new card for the same subscription, never a second one, and the new card
 * brings Premium back.
 */
import { type Page } from 'playwright-core';
import { mailbox } from '../../tools/testing/infra-control';
import { billingEmailDate, billingEmailTo } from '../../tools/testing/subscription';
import { advanceBillingClock } from '../../services/billing/test/support';
import { reachHelpInOneTap, useBrowserHaven } from './browserHaven';
import { addTrialCard, signUpToSubscription, subscriberPassword, userIdOf } from './subscriptionBrowser';

const world = useBrowserHaven();

const signUp = (name: string) => signUpToSubscription(world.browser, world.haven.gatewayUrl, name);

it('starts the trial with the good test card, welcomes the user on / and sends the welcome e-mail', async () => {
  const { page, email } = await signUp('trial');
  await page.getByText('Recommended').waitFor();
  // Before the card: the day of the first payment, from billing's answer, and VAT said once.
  const firstCharge = (await page.getByTestId('first-charge').textContent()) ?? '';
  expect(firstCharge).toMatch(/^Your first payment of £4\.99 is on \d{1,2} [A-Z][a-z]+\.$/);
  expect(await page.getByText('Prices include VAT.', { exact: true }).count()).toBe(1);
  await addTrialCard(page, '4242 4242 4242 4242');

  await page.getByText('Your 3-day free trial has started.', { exact: true }).waitFor();
  await page.waitForURL((url) => url.pathname === '/');
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal.waitFor();
  expect(new URL(page.url()).search).toBe(''); // the parameter is removed once the modal opens
  await modal.getByRole('button', { name: 'Start My Wellness Journey' }).click();
  await modal.waitFor({ state: 'hidden' });
  await page.getByRole('heading', { name: 'How are you feeling today?' }).waitFor();

  const welcome = await mailbox().waitForEmail({
    to: email,
    subject: 'Welcome to Haven Premium',
    what: `the welcome e-mail to ${email}`,
  });
  expect(welcome.text).toContain('Your 3-day free trial has started');

  // Settings shows the trial, and the card offers the cancellation.
  await page.goto(`${world.haven.gatewayUrl}/settings`);
  await page.getByText('Free Trial', { exact: true }).waitFor();
  await page
    .getByText(/^Trial ends /)
    .first()
    .waitFor();
  await page.getByRole('button', { name: 'Cancel Subscription' }).waitFor();
});

it('keeps a user whose card is declined on /subscription, told why, without access', async () => {
  const { page } = await signUp('declined');
  await addTrialCard(page, '4000 0000 0000 0002');

  await page.getByText('Payment Failed', { exact: true }).waitFor();
  await page.getByText('Your card was declined.', { exact: true }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/subscription');
  await page.getByRole('button', { name: 'Back to Plans' }).click();
  await page.getByText('Subscription setup required').waitFor();
  await page.goto(`${world.haven.gatewayUrl}/`);
  await page.waitForURL('**/subscription');
});

it('starts the trial with a card whose bank asks to confirm it: the check passes, Haven welcomes the user once', async () => {
  const { page } = await signUp('3ds');
  await addTrialCard(page, '4000 0027 6000 3184');

  await page.waitForURL((url) => url.pathname === '/local-payments/authenticate');
  await page.getByText('Test mode', { exact: true }).waitFor();
  await page.getByRole('heading', { name: 'Your bank asks you to confirm this card' }).waitFor();
  await page.getByRole('button', { name: 'Complete authentication' }).click();

  await page.getByText('Your 3-day free trial has started.', { exact: true }).waitFor();
  await page.waitForURL((url) => url.pathname === '/');
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal.waitFor();
  await modal.getByRole('button', { name: 'Start My Wellness Journey' }).click();
  await page.getByRole('heading', { name: 'How are you feeling today?' }).waitFor();
  const status = await page.evaluate(async () => (await fetch('/api/subscription-status')).json());
  expect(status).toMatchObject({ status: 'trialing', needsSetup: false });
  const history = await (
    await world.haven.collection('billing', 'subscription_history')
  )
    .find({ event: 'billing.trial_started', userId: await userIdOf(page) })
    .toArray();
  expect(history).toHaveLength(1);
});

it('keeps a user whose bank check fails on the payment step, told why, without access', async () => {
  const { page } = await signUp('3ds-failed');
  await addTrialCard(page, '4000 0027 6000 3184');

  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await page.getByText('Payment Failed', { exact: true }).waitFor();
  await page
    .getByText(
      "We couldn't verify this card with your bank. Nothing was charged: you can try again or use another card.",
      {
        exact: true,
      },
    )
    .waitFor();
  await page.waitForURL((url) => url.pathname === '/subscription' && url.search === '');
  await page.getByLabel('Test card number').waitFor();
  const status = await page.evaluate(async () => (await fetch('/api/subscription-status')).json());
  expect(status).toMatchObject({ status: 'none', needsSetup: true });
  // A reload does not repeat the return.
  await page.reload();
  await page.getByRole('button', { name: 'Start 3-Day Free Trial' }).waitFor();
  await page.goto(`${world.haven.gatewayUrl}/`);
  await page.waitForURL('**/subscription');
});

it('closes the app when a cancelled trial runs out: the next paid call is refused, "Trial Expired", then /auth', async () => {
  const { page, email } = await signUp('expiry');
  await addTrialCard(page, '4242 4242 4242 4242');
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal.getByRole('button', { name: 'Start My Wellness Journey' }).click();
  await page.getByRole('heading', { name: 'How are you feeling today?' }).waitFor();

  // The user cancels (the session's cookie, Haven's own origin), and three days pass on billing's test clock.
  const asUser = { headers: { origin: world.haven.gatewayUrl } };
  expect((await page.request.post(`${world.haven.gatewayUrl}/api/subscription/cancel`, asUser)).status()).toBe(200);
  await advanceBillingClock(world.haven, 259260);
  const status = await page.request.get(`${world.haven.gatewayUrl}/api/subscription-status`);
  expect(await status.json()).toMatchObject({ status: 'trial_expired' });

  // Still on the page the app had loaded: the next paid call (the analytics) answers 403 trial_expired.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  await page.getByText('Trial Expired', { exact: true }).waitFor();
  await page.waitForURL('**/auth');
  // The server session really ended: the old cookie no longer signs anyone in.
  expect((await page.request.get(`${world.haven.gatewayUrl}/api/user`)).status()).toBe(401);

  // Crisis help is never behind the paywall: one tap away signed out, and signed in again with the trial over.
  await reachHelpInOneTap(page);
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(subscriberPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/subscription');
  await reachHelpInOneTap(page);
});

it('asks before cancelling, naming the day access ends: "Keep my plan" keeps it, confirming cancels and e-mails', async () => {
  const { page, email } = await signUp('cancel');
  await addTrialCard(page, '4242 4242 4242 4242');
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal.getByRole('button', { name: 'Start My Wellness Journey' }).click();
  await modal.waitFor({ state: 'hidden' });
  const subscriptionStatus = async () =>
    (await (await page.request.get(`${world.haven.gatewayUrl}/api/subscription-status`)).json()) as {
      trialEnd: number;
      cancel_at_period_end: boolean;
    };
  const { trialEnd } = await subscriptionStatus();
  // The app's own date format, in this browser's locale.
  const shownEnd = await page.evaluate((seconds) => new Date(seconds * 1000).toLocaleDateString(), trialEnd);

  await page.goto(`${world.haven.gatewayUrl}/settings`);
  const dialog = page.getByRole('alertdialog', { name: 'Cancel your subscription?' });
  await page.getByRole('button', { name: 'Cancel Subscription', exact: true }).click();
  await dialog.getByText(`your free trial stays open until ${shownEnd}, and you will not be charged`).waitFor();
  await dialog.getByRole('button', { name: 'Keep my plan' }).click();
  await dialog.waitFor({ state: 'hidden' });
  expect((await subscriptionStatus()).cancel_at_period_end).toBe(false);
  await page.getByText('Free Trial', { exact: true }).waitFor();

  await page.getByRole('button', { name: 'Cancel Subscription', exact: true }).click();
  await dialog.getByRole('button', { name: 'Cancel subscription', exact: true }).click();
  // What followed the button before the dialog, unchanged: the support e-mail is opened and the toast says so.
  await page.getByText('Subscription cancelled', { exact: true }).first().waitFor();
  await page
    .getByText(/^Cancellation email opened\. /)
    .first()
    .waitFor();
  await page.getByRole('button', { name: 'Reactivate Subscription' }).waitFor();
  await dialog.waitFor({ state: 'hidden' });
  expect((await subscriptionStatus()).cancel_at_period_end).toBe(true);

  const cancelled = await billingEmailTo(email, 'Your Haven Premium subscription is cancelled');
  expect(cancelled.text).toContain(`Your free trial stays open until ${billingEmailDate(trialEnd)}`);
});

it('shows the card on file in Settings and changes it with the same card form: a toast, then the new card', async () => {
  const { page } = await signUp('change-card');
  await addTrialCard(page, '4242 4242 4242 4242');
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal.getByRole('button', { name: 'Start My Wellness Journey' }).click();
  await modal.waitFor({ state: 'hidden' });

  await page.goto(`${world.haven.gatewayUrl}/settings`);
  const cardLine = page.getByTestId('card-on-file');
  await cardLine.getByText(/^Card on file: Visa ending in 4242, expires 12\/\d{4}\.$/).waitFor();

  await page.getByRole('button', { name: 'Change card' }).click();
  // The payment page's own form, in change mode: no trial is started, the card is only saved.
  const form = page.getByRole('form', { name: 'Test-mode card form' });
  await form.getByLabel('Test card number').fill('5555 5555 5555 4444');
  await form.getByRole('button', { name: 'Save new card' }).click();

  await page.getByText('Card updated', { exact: true }).first().waitFor();
  await cardLine.getByText(/^Card on file: Mastercard ending in 4444, expires 12\/\d{4}\.$/).waitFor();
  await form.waitFor({ state: 'hidden' });
  // Still the one trial, on the page it was on.
  expect(new URL(page.url()).pathname).toBe('/settings');
  await page.getByText('Free Trial', { exact: true }).waitFor();
  const status = await page.request.get(`${world.haven.gatewayUrl}/api/subscription-status`);
  expect(await status.json()).toMatchObject({ status: 'trialing', isTrialing: true });

  // Under the card, the invoices: the trial's £0.00 one, then the first charge at the trial's end.
  const invoices = page.getByTestId('invoices');
  await invoices.getByText('£0.00').waitFor();
  await advanceBillingClock(world.haven, 3 * 24 * 60 * 60 + 60);
  await page.reload();
  const charged = invoices.getByTestId('invoice-row').filter({ hasText: '£4.99' });
  await charged.getByText('Paid', { exact: true }).waitFor();
  expect(await invoices.getByTestId('invoice-row').count()).toBe(2);
  // The local provider has no hosted invoice page.
  expect(await invoices.getByRole('link', { name: /View invoice/ }).count()).toBe(0);
});

const day = 24 * 60 * 60;
/** Stripe's test card whose setup succeeds and whose every charge fails. */
const failsAtRenewal = '4000 0000 0000 0341';

/** The "Payment Failed" state on /subscription. */
const paymentFailedState = (page: Page) => page.getByTestId('payment-failed');

/** Billing's changes to the user's subscription, oldest first: one subscription's story. */
async function subscriptionEvents(page: Page): Promise<string[]> {
  const history = await (
    await world.haven.collection('billing', 'subscription_history')
  )
    .find({ userId: await userIdOf(page) })
    .sort({ revision: 1 })
    .toArray();
  return history.map((entry) => entry.event as string);
}

/** A paid page answering with the person's own data: Analytics' counts come from a paid call. */
async function paidPageWorks(page: Page) {
  await page.goto(`${world.haven.gatewayUrl}/analytics`);
  await page.getByTestId('analytics-total-quotes').waitFor();
  expect(new URL(page.url()).pathname).toBe('/analytics');
}

it('shows a failed renewal as "Payment Failed", e-mails it, and a new card brings Premium back', async () => {
  const { page, email } = await signUp('renewal-fails');
  await addTrialCard(page, failsAtRenewal);
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal.getByRole('button', { name: 'Start My Wellness Journey' }).click();
  await modal.waitFor({ state: 'hidden' });

  // The trial ends on billing's test clock, and the charge after it fails.
  await advanceBillingClock(world.haven, 3 * day + 60);
  const failedEmail = await billingEmailTo(email, "We couldn't take your Haven payment");
  const link = `${world.haven.gatewayUrl}/subscription`;
  expect(failedEmail.text).toContain(link);

  // The e-mail's link: what happened, the card that failed, what to do; no second subscription on offer.
  await page.goto(link);
  const failed = paymentFailedState(page);
  await failed.getByText('Payment Failed', { exact: true }).waitFor();
  await failed
    .getByText(
      'Your payment of £4.99 could not be processed, so Premium is on hold. Your check-ins and quotes are safe.',
      {
        exact: true,
      },
    )
    .waitFor();
  await failed.getByText(/^Your last payment didn't go through on your Visa ending in 0341, /).waitFor();
  expect(await page.getByRole('button', { name: /^(Start 3-Day Free Trial|Subscribe for)/ }).count()).toBe(0);
  // Meanwhile the paid pages stay closed.
  await page.goto(`${world.haven.gatewayUrl}/analytics`);
  await page.waitForURL('**/subscription');

  await paymentFailedState(page).getByRole('button', { name: 'Update payment method' }).click();
  const form = page.getByRole('form', { name: 'Test-mode card form' });
  await form.getByLabel('Test card number').fill('4242 4242 4242 4242');
  await form.getByRole('button', { name: 'Save card and pay £4.99' }).click();

  await page.getByText('Card updated', { exact: true }).first().waitFor();
  await page.getByText("You're Premium!", { exact: true }).waitFor();
  await paidPageWorks(page);
  expect(await subscriptionEvents(page)).toEqual([
    'billing.trial_started',
    'billing.payment_failed',
    'billing.activated',
  ]);
});

it('keeps a returning subscriber whose first payment fails on the payment step, told why, with no welcome', async () => {
  const { page } = await signUp('first-charge-fails');
  await addTrialCard(page, '4242 4242 4242 4242');
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal.getByRole('button', { name: 'Start My Wellness Journey' }).click();
  await modal.waitFor({ state: 'hidden' });
  // The trial is cancelled and runs out: subscribing again has no trial, and is charged at once.
  const asUser = { headers: { origin: world.haven.gatewayUrl } };
  expect((await page.request.post(`${world.haven.gatewayUrl}/api/subscription/cancel`, asUser)).status()).toBe(200);
  await advanceBillingClock(world.haven, 3 * day + 60);

  await page.goto(`${world.haven.gatewayUrl}/subscription`);
  await page.getByText('Your first payment of £4.99 is today, when you add your card.', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Subscribe for £4.99 a month' }).click();
  await page.getByLabel('Test card number').fill(failsAtRenewal);
  await page.getByRole('button', { name: 'Subscribe and pay £4.99' }).click();

  // Told why, on the same page, and offered a new card for the subscription that is waiting for its payment.
  await page
    .getByText('Your payment could not be processed. Please update your payment method.', { exact: true })
    .first()
    .waitFor();
  const failed = paymentFailedState(page);
  await failed.getByText('Payment Failed', { exact: true }).waitFor();
  const form = page.getByRole('form', { name: 'Test-mode card form' });
  await form.getByRole('button', { name: 'Save card and pay £4.99' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/subscription');
  expect(new URL(page.url()).search).toBe('');
  expect(await page.getByRole('dialog', { name: 'Welcome to Haven Premium!' }).count()).toBe(0);

  await form.getByLabel('Test card number').fill('4242 4242 4242 4242');
  await form.getByRole('button', { name: 'Save card and pay £4.99' }).click();
  await page.getByText("You're Premium!", { exact: true }).waitFor();
  await paidPageWorks(page);
  // One subscription: the failed first payment, then the same subscription paid.
  expect((await subscriptionEvents(page)).slice(-2)).toEqual(['billing.payment_failed', 'billing.activated']);
});
