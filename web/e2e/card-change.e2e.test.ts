/**
 * Changing the card in Settings, in a real browser with the local test-mode provider, with a card that is not
 * confirmed at once: one whose bank asks the person to confirm it (3-D Secure) goes to the bank's page and back to
 * Settings, and becomes the card on file only when the bank confirms it (a failed check leaves the old card, and
 * says so); one the card provider takes a moment to confirm shows that wait, and becomes the card on file once
 * confirmed, with the page open or closed. One subscription throughout.
 */
import { type Page } from 'playwright-core';
import { goodTestCard } from '../../tools/testing/subscription';
import { advanceBillingClock } from '../../services/billing/test/support';
import { useBrowserHaven } from './browserHaven';
import { addTrialCard, signUpToSubscription, userIdOf } from './subscriptionBrowser';

const world = useBrowserHaven();

/** A new member on a trial with the good test card, on Settings: the card line names it. */
async function onSettingsWithTrial(name: string): Promise<Page> {
  const { page } = await signUpToSubscription(world.browser, world.haven.gatewayUrl, name);
  await addTrialCard(page, goodTestCard);
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal.getByRole('button', { name: 'Start My Wellness Journey' }).click();
  await modal.waitFor({ state: 'hidden' });
  await page.goto(`${world.haven.gatewayUrl}/settings`);
  await cardLine(page, 'Visa', '4242').waitFor();
  return page;
}

const cardLine = (page: Page, brand: string, last4: string) =>
  page
    .getByTestId('card-on-file')
    .getByText(new RegExp(`^Card on file: ${brand} ending in ${last4}, expires 12/\\d{4}\\.$`));

/** From Settings: the change-card form, filled with `cardNumber` and sent. */
async function changeCardTo(page: Page, cardNumber: string) {
  await page.getByRole('button', { name: 'Change card' }).click();
  const form = page.getByRole('form', { name: 'Test-mode card form' });
  await form.getByLabel('Test card number').fill(cardNumber);
  await form.getByRole('button', { name: 'Save new card' }).click();
}

/** Billing's own record: one subscription for the user, and the changes it recorded. */
async function billingRecordsOf(userId: string) {
  const subscriptions = await (
    await world.haven.collection('billing', 'subscriptions')
  ).countDocuments({ _id: userId });
  const history = await (
    await world.haven.collection('billing', 'subscription_history')
  )
    .find({ userId })
    .sort({ revision: 1 })
    .toArray();
  return { subscriptions, events: history.map((entry) => entry.event as string) };
}

it('changes to a card whose bank asks to confirm it only after the bank’s check, back on Settings', async () => {
  const page = await onSettingsWithTrial('change-3ds');
  const userId = await userIdOf(page);
  await changeCardTo(page, '4000 0025 0000 3155');

  // The bank's page (the test-mode stand-in); the card on file is still the old one meanwhile.
  await page.waitForURL('**/local-payments/authenticate?**');
  await page.getByRole('heading', { name: 'Your bank asks you to confirm this card' }).waitFor();
  expect((await billingRecordsOf(userId)).events).toEqual(['billing.trial_started']);
  await page.getByRole('button', { name: 'Complete authentication' }).click();

  // Back where the change started, told, with the new card on file and the address clean.
  await page.waitForURL((url) => url.pathname === '/settings');
  await page.getByText('Card updated', { exact: true }).first().waitFor();
  await page.getByText('Your new card is saved. Your next payment for Premium goes to it.').first().waitFor();
  await cardLine(page, 'Visa', '3155').waitFor();
  expect(new URL(page.url()).search).toBe('');
  await page.getByText('Free Trial', { exact: true }).waitFor();
  expect(await billingRecordsOf(userId)).toEqual({
    subscriptions: 1,
    events: ['billing.trial_started', 'billing.payment_method_updated'],
  });
});

it('keeps the old card when the bank’s check fails, and says so', async () => {
  const page = await onSettingsWithTrial('change-3ds-failed');
  const userId = await userIdOf(page);
  await changeCardTo(page, '4000 0000 0000 3220');
  await page.waitForURL('**/local-payments/authenticate?**');
  await page.getByRole('button', { name: 'Fail authentication' }).click();

  await page.waitForURL((url) => url.pathname === '/settings');
  await page.getByText("We couldn't change your card", { exact: true }).first().waitFor();
  await page
    .getByText(
      "Your bank didn't confirm your new card, so your current card stays on file. Nothing was charged: you can try again or use another card.",
    )
    .first()
    .waitFor();
  await cardLine(page, 'Visa', '4242').waitFor();
  expect(new URL(page.url()).search).toBe('');
  expect(await billingRecordsOf(userId)).toEqual({ subscriptions: 1, events: ['billing.trial_started'] });
});

it('shows a card the provider is still confirming, then makes it the card on file, page open', async () => {
  const page = await onSettingsWithTrial('change-processing');
  const userId = await userIdOf(page);
  await changeCardTo(page, '4000 0000 0000 0077');

  const waiting = page.getByTestId('payment-processing');
  await waiting.getByText("We're confirming your new card").waitFor();
  await waiting.getByText(/Your current card stays on file until then/).waitFor();
  await cardLine(page, 'Visa', '4242').waitFor();

  // The provider confirms it at billing's next pass; the page, asking meanwhile, says so.
  await advanceBillingClock(world.haven, 10);
  await page.getByText('Card updated', { exact: true }).first().waitFor();
  await cardLine(page, 'Visa', '0077').waitFor();
  await waiting.waitFor({ state: 'hidden' });
  expect(await billingRecordsOf(userId)).toEqual({
    subscriptions: 1,
    events: ['billing.trial_started', 'billing.payment_method_updated'],
  });
});

it('makes a card the provider confirms after the page was closed the card on file', async () => {
  const page = await onSettingsWithTrial('change-processing-closed');
  const userId = await userIdOf(page);
  await changeCardTo(page, '4000 0000 0000 0077');
  await page.getByTestId('payment-processing').waitFor();
  // Opened again before the provider has confirmed it: the old card, and the new one's wait, are both said.
  await page.reload();
  await cardLine(page, 'Visa', '4242').waitFor();
  await page.getByTestId('card-change-pending').waitFor();
  const context = page.context();
  await page.close();

  await advanceBillingClock(world.haven, 10);
  const later = await context.newPage();
  await later.goto(`${world.haven.gatewayUrl}/settings`);
  await cardLine(later, 'Visa', '0077').waitFor();
  expect(await later.getByTestId('card-change-pending').count()).toBe(0);
  expect(await billingRecordsOf(userId)).toEqual({
    subscriptions: 1,
    events: ['billing.trial_started', 'billing.payment_method_updated'],
  });
});
