/**
 * Forgot password in a real browser: ask for the link on the sign-in screen, open it from the mail catcher,
 * choose a new password; the new one signs in and the old one does not.
 */
import { type Page } from 'playwright-core';
import { mailbox } from '../../tools/testing/infra-control';
import { uniqueEmail } from '../../tools/testing/http';
import { useBrowserHaven } from './browserHaven';

const world = useBrowserHaven();

async function newPage(): Promise<Page> {
  const context = await world.browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 900 } });
  return context.newPage();
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

it('forgot password → the e-mailed link → the new password signs in and the old one does not', async () => {
  const email = uniqueEmail('forgot');
  const oldPassword = 'the old long password';
  const newPassword = 'the new long password';

  const setup = await newPage();
  await setup.goto(`${world.haven.gatewayUrl}/auth`);
  await setup.getByRole('tab', { name: 'Create Account' }).click();
  await setup.getByLabel('Email').fill(email);
  await setup.getByLabel('Password').fill(oldPassword);
  await setup.getByRole('button', { name: 'Create Account' }).click();
  await setup.waitForURL('**/subscription');
  await setup.context().close();

  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForURL('**/forgot-password');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();

  const message = await mailbox().waitForEmail({
    to: email,
    subject: 'Reset your Haven password',
    what: `the reset e-mail to ${email}`,
  });
  const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(message.text ?? '')![0];
  await page.goto(`${world.haven.gatewayUrl}${new URL(link).pathname}${new URL(link).search}`);
  await page.getByLabel('New password').fill(newPassword);
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await page.getByRole('heading', { name: 'Password Reset' }).waitFor();

  // The link works once.
  const reused = await newPage();
  await reused.goto(`${world.haven.gatewayUrl}${new URL(link).pathname}${new URL(link).search}`);
  await reused.getByLabel('New password').fill('a third long password');
  await reused.getByRole('button', { name: 'Set New Password' }).click();
  await reused.getByRole('heading', { name: 'Reset Failed' }).waitFor();

  const withOld = await newPage();
  await signIn(withOld, email, oldPassword);
  await withOld.getByText('Login failed', { exact: true }).waitFor();
  expect(new URL(withOld.url()).pathname).toBe('/auth');

  const withNew = await newPage();
  await signIn(withNew, email, newPassword);
  await withNew.getByText('Login successful', { exact: true }).waitFor();
  await withNew.waitForURL('**/subscription');
});
