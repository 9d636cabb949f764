/**
 * E-mail verification in a real browser: register, open the link from the mail catcher and land verified;
 * the same link a second time shows the error state; resend (from that page and from the sign-in screen)
 * sends a new link, and is rate-limited. Crisis help is one tap away before the address is verified.
 */
import { type Page } from 'playwright-core';
import { uniqueEmail } from '../../tools/testing/http';
import { verificationEmailTo, verificationTokenIn } from '../../tools/testing/verification';
import { reachHelpInOneTap, useBrowserHaven } from './browserHaven';

// Low, so the test reaches it: one bucket per operation and client (this browser).
const rateLimit = 4;

const world = useBrowserHaven({ RATE_LIMIT_AUTH_MAX: String(rateLimit) });

async function newPage(): Promise<Page> {
  const context = await world.browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 900 } });
  return context.newPage();
}

/** The link as the e-mail has it, pointed at this run's gateway. */
function linkFor(token: string): string {
  return `${world.haven.gatewayUrl}/verify-email?token=${token}`;
}

it('offers resend on the sign-in screen', async () => {
  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('button', { name: "Didn't get the verification email?" }).click();
  await page.locator('#signin-resend-email').fill(uniqueEmail('nobody'));
  await page.getByRole('button', { name: 'Resend Verification Email' }).click();
  // The same answer whether or not the address has an account.
  await page.getByText('Verification Email Sent', { exact: true }).waitFor();
});

it('verifies with the e-mailed link, refuses it the second time, resends, and limits resending', async () => {
  const page = await newPage();
  const email = uniqueEmail('verify');
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a calm long password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/subscription');
  // Not verified yet, and already one tap from the help page.
  await reachHelpInOneTap(page);

  const token = verificationTokenIn(await verificationEmailTo(email));
  await page.goto(linkFor(token));
  await page.getByRole('heading', { name: 'Email Verified' }).waitFor();
  await page.getByText('Your email has been successfully verified!', { exact: true }).first().waitFor();
  await page.getByRole('button', { name: 'Continue to App' }).waitFor();
  // After 3 s the page goes to / (which sends a user still setting up to /subscription).
  await page.waitForURL((url) => url.pathname !== '/verify-email', { timeout: 30_000 });

  // The same link again: the error state, with a resend form and the way back.
  const again = await newPage();
  await again.goto(linkFor(token));
  await again.getByRole('heading', { name: 'Verification Failed' }).waitFor();
  await again.getByText('This verification link is invalid or has expired. Please ask for a new one below.').waitFor();
  await again.getByRole('button', { name: 'Back to Sign In' }).waitFor();

  // Resend without an address: a toast asks for it, nothing is sent.
  await again.getByRole('button', { name: 'Resend Verification Email' }).click();
  await again.getByText('Please enter your email address to resend verification', { exact: true }).waitFor();

  // Resend works for an address waiting to be verified: a new link arrives, and it verifies.
  const other = uniqueEmail('resend');
  const otherPage = await newPage();
  await otherPage.goto(`${world.haven.gatewayUrl}/auth`);
  await otherPage.getByRole('tab', { name: 'Create Account' }).click();
  await otherPage.getByLabel('Email').fill(other);
  await otherPage.getByLabel('Password').fill('another calm password');
  await otherPage.getByRole('button', { name: 'Create Account' }).click();
  await otherPage.waitForURL('**/subscription');
  const firstToken = verificationTokenIn(await verificationEmailTo(other));

  await again.getByRole('textbox', { name: 'Email' }).fill(other);
  await again.getByRole('button', { name: 'Resend Verification Email' }).click();
  await again.getByText('Verification Email Sent', { exact: true }).waitFor();
  const secondToken = verificationTokenIn(await verificationEmailTo(other, firstToken));
  await otherPage.goto(linkFor(secondToken));
  await otherPage.getByRole('heading', { name: 'Email Verified' }).waitFor();

  // Resending is limited: within the window the server refuses, and the page says so.
  let refused = false;
  // Twice the limit: a window that turns over during the loop starts counting again.
  for (let attempt = 0; attempt <= 2 * rateLimit && !refused; attempt++) {
    const [response] = await Promise.all([
      again.waitForResponse(
        (answer) => answer.url().endsWith('/graphql') && /resendVerification/.test(answer.request().postData() ?? ''),
      ),
      again.getByRole('button', { name: 'Resend Verification Email' }).click(),
    ]);
    refused = /TOO_MANY_REQUESTS/.test(await response.text());
  }
  expect(refused).toBe(true);
  await again.getByText('Failed to Send', { exact: true }).waitFor();

  await again.getByRole('button', { name: 'Back to Sign In' }).click();
  await again.waitForURL('**/auth');
});

it('says "Invalid verification link" when the link has no token, once the build’s page has checked it', async () => {
  const page = await newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${world.haven.gatewayUrl}/verify-email`);
  await page.getByRole('heading', { name: 'Verification Failed' }).waitFor();
  await page.getByText('Invalid verification link', { exact: true }).waitFor();
  // The build's page (its link being checked) was the start, and React adopted it without complaint.
  expect(await page.locator('#root[data-prerendered]').count()).toBe(1);
  expect(problems).toEqual([]);
});
