/**
 * "Continue with Google" in a real browser, against a local OpenID Connect provider (oidc-provider on a
 * loopback port, configured as Google's issuer for the user service): a first sign-in creates the account
 * and lands on the signed-in app (a new account goes to /subscription), a second one reuses it; an existing
 * password account is linked with its password (and Settings lists both ways in); saying no at the provider comes back to /auth with a note.
 */
import { type Page } from 'playwright-core';
import { uniqueEmail } from '../../tools/testing/http';
import { mailbox } from '../../tools/testing/infra-control';
import {
  planTestOidcProvider,
  type PlannedOidcProvider,
  type TestOidcProvider,
} from '../../tools/testing/oidc-provider';
import { useBrowserHaven } from './browserHaven';

// The provider's address goes to the apps; the apps' public origin (the gateway) goes to the provider.
let planned: PlannedOidcProvider;
let provider: TestOidcProvider;
const world = useBrowserHaven(async () => {
  planned = await planTestOidcProvider();
  return planned.env;
});

beforeAll(async () => {
  provider = await planned.start(world.haven.gatewayUrl);
});

afterAll(() => provider?.stop());

/** A fresh browser profile in Tokyo: no Haven session, no session at the provider either. */
async function newPage(): Promise<Page> {
  const context = await world.browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 412, height: 900 },
    timezoneId: 'Asia/Tokyo',
  });
  return context.newPage();
}

/** On /auth: "Continue with Google", then the provider's own sign-in page. */
async function continueWithGoogle(page: Page, account: { email: string; givenName?: string; verified?: boolean }) {
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await page.getByRole('textbox', { name: 'Email' }).fill(account.email);
  if (account.givenName) await page.getByLabel('First name').fill(account.givenName);
  if (account.verified === false) await page.getByLabel('The provider has verified this email').uncheck();
  await page.getByRole('button', { name: 'Continue' }).click();
}

const currentUserId = (page: Page) =>
  page.evaluate(async () => ((await (await fetch('/api/user')).json()) as { id: string }).id);

it('creates the account on the first Google sign-in in the browser’s time zone, lands in the app, and reuses it the second time', async () => {
  const email = uniqueEmail('google-browser');
  const first = await newPage();
  await continueWithGoogle(first, { email, givenName: 'Robin' });
  // A new account still has to set up its subscription (the route gating sends it there).
  await first.waitForURL('**/subscription');
  await first.getByRole('button', { name: 'Logout' }).first().waitFor();
  const id = await currentUserId(first);
  // Check-in days and e-mail times count in the browser's time zone, as after a registration by password.
  const timeZone = await first.evaluate(async () => {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ me { timeZone } }' }),
    });
    return ((await response.json()) as { data: { me: { timeZone: string } } }).data.me.timeZone;
  });
  expect(timeZone).toBe('Asia/Tokyo');

  const second = await newPage();
  await continueWithGoogle(second, { email });
  await second.waitForURL('**/subscription');
  expect(await currentUserId(second)).toBe(id);
  const me = await second.evaluate(async () => (await fetch('/api/user')).json());
  expect(me).toMatchObject({ id, email, firstName: 'Robin', emailVerified: true });
});

it('links Google to an existing password account once its password is given', async () => {
  const email = uniqueEmail('google-link');
  const password = 'a long enough password';
  const setup = await newPage();
  await setup.goto(`${world.haven.gatewayUrl}/auth`);
  await setup.getByRole('tab', { name: 'Create Account' }).click();
  await setup.getByLabel('Email').fill(email);
  await setup.getByLabel('Password').fill(password);
  await setup.getByRole('button', { name: 'Create Account' }).click();
  await setup.waitForURL('**/subscription');
  const id = await currentUserId(setup);

  // Haven has not verified the address yet, so Google is linked only with the account's password.
  const page = await newPage();
  await continueWithGoogle(page, { email });
  await page.getByRole('heading', { name: 'Link your Google sign-in' }).waitFor();
  expect(new URL(page.url()).search).toBe(''); // the one-time token does not stay in the address bar
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await page.getByText('That password is not right. Please try again.', { exact: true }).waitFor();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await page.getByText('Google sign-in is linked. Welcome back!', { exact: true }).waitFor();
  await page.waitForURL('**/subscription');
  expect(await currentUserId(page)).toBe(id);

  await mailbox().waitForEmail({
    to: email,
    subject: 'Google sign-in was linked to your Haven account',
    what: `the "sign-in method linked" notice to ${email}`,
  });

  // Settings lists both ways in: the password, then Google with the address it gave.
  await page.goto(`${world.haven.gatewayUrl}/settings`);
  const methods = page.getByRole('list', { name: 'Sign-in Methods' }).getByRole('listitem');
  await methods.first().waitFor();
  expect(await methods.allInnerTexts()).toEqual([
    'Email and password',
    expect.stringMatching(new RegExp(`^Google · ${email.replace(/[.+]/g, '\\$&')}, linked `)),
  ]);
});

it('comes back to /auth with a kind note when the person says no at Google', async () => {
  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page
    .getByText('Google sign-in was cancelled, so nothing changed. You can try again, or use your email and password.', {
      exact: true,
    })
    .waitFor();
  expect(new URL(page.url()).pathname).toBe('/auth');
  expect(new URL(page.url()).search).toBe('');
});
