/**
 * The subscription journey's first steps in a real browser, shared by the subscription test files: a new account
 * made through the app's own form (which lands on /subscription), and a card added with the local test-mode
 * provider's form.
 */
import { type Browser, type Page } from 'playwright-core';
import { uniqueEmail } from '../../tools/testing/http';

/** The password of every account `signUpToSubscription` makes (for signing in again). */
export const subscriberPassword = 'a calm long password';

/** A new account, signed up through the app's form in a phone-sized context of its own, on /subscription. */
export async function signUpToSubscription(
  browser: Browser,
  gatewayUrl: string,
  name: string,
): Promise<{ page: Page; email: string }> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 900 } });
  const page = await context.newPage();
  const email = uniqueEmail(name);
  await page.goto(`${gatewayUrl}/auth`);
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByLabel('First name').fill('Robin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(subscriberPassword);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/subscription');
  return { page, email };
}

/** The signed-in user's id, as the page's own session answers it. */
export async function userIdOf(page: Page): Promise<string> {
  return page.evaluate(async () => ((await (await fetch('/api/user')).json()) as { id: string }).id);
}

/** From the plan card with the free trial on offer: the test-mode card form, filled and sent. */
export async function addTrialCard(page: Page, cardNumber: string): Promise<void> {
  await page.getByRole('button', { name: 'Start 3-Day Free Trial' }).click();
  await page.getByText('Test mode.').waitFor();
  await page.getByLabel('Test card number').fill(cardNumber);
  await page.getByRole('button', { name: 'Start Free Trial' }).click();
}
