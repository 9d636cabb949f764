/**
 * Deleting needs a recent sign-in, in a real browser: with a session older than the window (a few seconds here,
 * REAUTH_MAX_AGE_MS), Settings' "Delete account" and the admin's row delete send the person to sign in again
 * ("Sign in again", the address filled in), then back to the page that asked, where the confirmation is asked
 * once more and the deletion finishes.
 */
import type { Page } from 'playwright-core';
import { eventually } from '../../tools/testing/eventually';
import { ApiClient, uniqueEmail } from '../../tools/testing/http';
import { verifyByEmailLink } from '../../tools/testing/verification';
import { useBrowserHaven } from './browserHaven';

/**
 * Long enough for signing in again, loading the page that asked and its deletion on a loaded machine (a token's
 * time is in whole seconds): a window shorter than that sends the browser round to sign in again for ever.
 */
const windowMs = 15_000;
/** A journey waits out the window once, beside other test files. */
const journeyMs = 180_000;
const password = 'a re-auth browser password';
const adminEmail = uniqueEmail('admin');
const confirmation =
  'Are you sure you want to delete your account? This action cannot be undone and will remove all your data permanently.';

const world = useBrowserHaven({
  REAUTH_MAX_AGE_MS: String(windowMs),
  ADMIN_EMAIL: adminEmail,
});

async function signedInPage(email: string): Promise<Page> {
  const context = await world.browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname !== '/auth');
  return page;
}

/** Waits on the clock alone until the page's sign-in is older than the window (its token's `iat`). */
async function olderThanTheWindow(page: Page): Promise<void> {
  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'haven_session');
  const token = decodeURIComponent(session?.value ?? '');
  const { iat } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iat: number };
  await eventually('the session to be older than the re-auth window', () => Date.now() - iat * 1000 > windowMs + 500, {
    timeoutMs: 3 * windowMs,
    intervalMs: 200,
  });
}

/** The sign-in page in its "sign in again" mode, the address already filled in: the password, then Sign In. */
async function signInAgain(page: Page, email: string): Promise<void> {
  await page.waitForURL('**/auth?reauth=1');
  await page.getByRole('heading', { name: 'Sign in again' }).waitFor();
  expect(await page.getByLabel('Email').inputValue()).toBe(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

it(
  'sends an old session to sign in again from Settings, then back to finish deleting the account',
  async () => {
    const email = uniqueEmail('leaving');
    expect((await new ApiClient(world.haven.gatewayUrl).post('/api/auth/register', { email, password })).status).toBe(
      201,
    );
    const page = await signedInPage(email);
    await page.goto(`${world.haven.gatewayUrl}/settings`);
    await page.getByRole('heading', { name: 'Data & Privacy' }).waitFor();
    await olderThanTheWindow(page);

    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.getByText('Please sign in again', { exact: true }).first().waitFor();
    await signInAgain(page, email);

    // Back on Settings, asked once more, and deleted.
    await page.getByText('Account Deleted', { exact: true }).first().waitFor();
    expect(asked).toEqual([confirmation, confirmation]);
    await page.waitForURL(`${world.haven.gatewayUrl}/`);
    expect((await page.request.get(`${world.haven.gatewayUrl}/api/user`)).status()).toBe(401);
    expect((await new ApiClient(world.haven.gatewayUrl).post('/api/auth/login', { email, password })).status).toBe(401);
  },
  journeyMs,
);

it(
  'sends an admin with an old session to sign in again, then back to the same confirmation',
  async () => {
    const admin = new ApiClient(world.haven.gatewayUrl);
    expect((await admin.post('/api/auth/register', { email: adminEmail, password, firstName: 'Ada' })).status).toBe(
      201,
    );
    await verifyByEmailLink(world.haven.gatewayUrl, adminEmail, admin);
    const leaving = uniqueEmail('removed');
    expect(
      (await new ApiClient(world.haven.gatewayUrl).post('/api/auth/register', { email: leaving, password })).status,
    ).toBe(201);

    const page = await signedInPage(adminEmail);
    await page.goto(`${world.haven.gatewayUrl}/admin/users`);
    await page.getByPlaceholder('Search users by email or name...').fill(leaving);
    const remove = page.getByRole('button', { name: `Delete ${leaving}` });
    await remove.waitFor();
    await olderThanTheWindow(page);

    await remove.click();
    await page.getByRole('button', { name: 'Delete user', exact: true }).click();
    await page.getByText('Please sign in again', { exact: true }).first().waitFor();
    await signInAgain(page, adminEmail);

    // Back on the page, the same deletion waits in its dialog.
    await page.waitForURL('**/admin/users');
    await page
      .getByRole('alertdialog')
      .getByText(`This permanently deletes ${leaving}’s account`, { exact: false })
      .waitFor();
    await page.getByRole('button', { name: 'Delete user', exact: true }).click();
    await page.getByText('User deleted', { exact: true }).waitFor();
    expect(
      (await new ApiClient(world.haven.gatewayUrl).post('/api/auth/login', { email: leaving, password })).status,
    ).toBe(401);
  },
  journeyMs,
);
