/**
 * The newsletter in a real browser (Debian's Chromium, Playwright) against the whole of Haven:
 * the landing page's sign-up form to the confirmation e-mail and its link, the admin's
 * composer (its live length count, a test copy to the admin, the confirmation with the count and the rendered
 * e-mail, where cancelling sends nothing) and the send reaching every active subscriber once,
 * the personal unsubscribe link with its one-click POST, the /unsubscribe form, the non-admin alert, and
 * the weekly summary's switch on /email-preferences and its stop link, which works signed out, and the daily
 * check-in reminder's switch with its hour.
 * (The other subscribers sign up through the endpoint the form calls, which is quicker.)
 */
import { erasureKey } from '@haven/platform';
import { randomBytes } from 'node:crypto';
import { type Page } from 'playwright-core';
import { stopToken } from '../../services/notification/src/domain/stop-links';
import { eventuallyExpect } from '../../tools/testing/eventually';
import { ApiClient, uniqueEmail } from '../../tools/testing/http';
import { mailbox, type CaughtEmail } from '../../tools/testing/infra-control';
import { useBrowserHaven } from './browserHaven';
import { goodTestCard } from '../../tools/testing/subscription';
import { verifyByEmailLink } from '../../tools/testing/verification';

const adminEmail = uniqueEmail('admin');
const password = 'a calm long password';
const inbox = mailbox();
// The services' key for keyed hashes, known here so the test can mint the stop link a weekly summary carries.
const hashSecret = randomBytes(24).toString('hex');

const world = useBrowserHaven({ ADMIN_EMAIL: adminEmail, ERASURE_HMAC_SECRET: hashSecret });

async function newPage(): Promise<Page> {
  const context = await world.browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 900 } });
  return context.newPage();
}

/** A browser page signed in as a new account (registered through the API, its cookie handed over). */
async function signedInPage(email: string): Promise<Page> {
  const response = await fetch(`${world.haven.gatewayUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(201);
  const [pair] = (response.headers.get('set-cookie') ?? '').split(';');
  const [name, value] = (pair ?? '').split('=');
  const page = await newPage();
  await page.context().addCookies([{ name: name!, value: value!, url: world.haven.gatewayUrl }]);
  return page;
}

const to = (email: string) => (caught: CaughtEmail) =>
  caught.to.some((address) => address.address.toLowerCase() === email.toLowerCase());

/** The first link in an e-mail's text that contains `path`. */
function linkIn(caught: CaughtEmail, path: string): string {
  const link = (caught.text ?? '').split(/\s+/).find((word) => word.includes(path));
  if (!link) throw new Error(`no ${path} link in "${caught.subject}"`);
  return link;
}

const confirmationTo = (email: string) =>
  inbox.waitForEmail((caught) => /newsletter/i.test(caught.subject), {
    to: email,
    what: `the confirmation e-mail to ${email}`,
  });

async function subscribe(email: string): Promise<CaughtEmail> {
  const answer = await new ApiClient(world.haven.gatewayUrl).post('/api/newsletter/subscribe', {
    email,
    subscriptionSource: 'website',
  });
  expect(answer.status).toBe(200);
  return confirmationTo(email);
}

/** A visitor signs up with the form at the foot of the landing page. */
async function subscribeOnLandingPage(email: string): Promise<CaughtEmail> {
  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.getByText('Welcome aboard!').waitFor();
  await page.context().close();
  return confirmationTo(email);
}

const readers = [uniqueEmail('reader'), uniqueEmail('reader')];
const waiting = uniqueEmail('pending');

it('confirms a subscription made on the landing page from the link in the confirmation e-mail', async () => {
  for (const [index, reader] of readers.entries()) {
    const confirmation = index === 0 ? await subscribeOnLandingPage(reader) : await subscribe(reader);
    const page = await newPage();
    await page.goto(linkIn(confirmation, '/confirm-newsletter?token='));
    await page.getByRole('heading', { name: 'Subscription Confirmed' }).waitFor();
    await page.context().close();
  }
  await subscribe(waiting);

  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/confirm-newsletter`);
  await page.getByText('Invalid confirmation link').waitFor();
  await page.getByRole('link', { name: 'Go to Homepage' }).waitFor();
  await page.getByRole('link', { name: 'Contact Support' }).waitFor();
});

it('shows a non-admin the access-required alert on /admin/newsletter', async () => {
  const page = await signedInPage(uniqueEmail('member'));
  await page.goto(`${world.haven.gatewayUrl}/admin/newsletter`);
  await page.getByText('Admin access required. Please contact support if you believe this is an error.').waitFor();
  expect(await page.getByRole('button', { name: 'Send to All Subscribers' }).count()).toBe(0);
});

it('lets the admin compose within the limit, test, confirm and send; every active subscriber gets one copy, a pending one none', async () => {
  const page = await signedInPage(adminEmail);
  await verifyByEmailLink(world.haven.gatewayUrl, adminEmail, page); // the admin is the configured address, verified
  await page.goto(`${world.haven.gatewayUrl}/admin/newsletter`);
  await page.getByRole('heading', { name: 'Subscribers' }).waitFor();
  const send = page.getByRole('button', { name: 'Send to All Subscribers' });
  const sendTest = page.getByRole('button', { name: 'Send a test to me' });
  expect(await send.isDisabled()).toBe(true);
  await page.getByText('0 of 15,000 characters').waitFor();

  const subject = `Small steps ${Date.now()}`;
  await page.getByLabel('Subject').fill(subject);
  // The live count, and past the limit a message and no way to send.
  await page.getByLabel('Content').fill('a'.repeat(15_001));
  await page.getByText('15,001 of 15,000 characters').waitFor();
  await page.getByText('This is 1 character over the limit. Please shorten it before sending.').waitFor();
  expect(await send.isDisabled()).toBe(true);
  expect(await sendTest.isDisabled()).toBe(true);
  const content = '<p>Take one slow breath before you open your inbox.</p>';
  await page.getByLabel('Content').fill(content);
  await page.getByText(`${content.length} of 15,000 characters`).waitFor();
  await page.getByText('Take one slow breath before you open your inbox.').first().waitFor(); // the preview

  // A test copy to the admin alone first.
  await sendTest.click();
  await page.getByText('Test sent to you', { exact: true }).waitFor();
  const test = await inbox.waitForEmail({ subject: `[Test] ${subject}`, what: 'the test copy to the admin' });
  expect(test.to.map((address) => address.address.toLowerCase())).toEqual([adminEmail.toLowerCase()]);
  expect(test.html).toContain('Take one slow breath before you open your inbox.');

  // Send asks first, with the subject, the count and the e-mail as subscribers see it; cancelling sends nothing.
  const active = await page.getByTestId('stat-active').textContent();
  const dialog = page.getByRole('alertdialog');
  await send.click();
  await dialog.getByText(subject).waitFor();
  expect(await dialog.getByTestId('confirm-audience').textContent()).toBe(
    `${active} ${active === '1' ? 'subscriber' : 'subscribers'}`,
  );
  await page
    .frameLocator('iframe[title="The newsletter as subscribers will see it"]')
    .getByText('Take one slow breath before you open your inbox.')
    .waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  expect(await page.getByLabel('Subject').inputValue()).toBe(subject);

  await send.click();
  await dialog.getByRole('button', { name: `Send to ${active} subscribers` }).click();
  await page.getByText('Newsletter sent successfully!', { exact: true }).waitFor();
  expect(await page.getByLabel('Subject').inputValue()).toBe('');

  await eventuallyExpect(
    'one copy for each confirmed reader',
    async () => {
      const copies = await inbox.listEmails({ subject });
      for (const reader of readers) expect(copies.filter(to(reader))).toHaveLength(1);
    },
    { timeoutMs: 60_000 },
  );
  const copies = await inbox.listEmails({ subject });
  expect(copies.filter(to(waiting))).toHaveLength(0);
  // One send: the cancelled confirmation sent nothing, and the test went to the admin alone.
  expect(copies).toHaveLength(Number(active));
  expect(copies.filter(to(adminEmail))).toHaveLength(0);

  // The reader's own unsubscribe link, then the mail client's one-click POST: both succeed.
  const copy = copies.find(to(readers[0]!))!;
  const reader = await newPage();
  await reader.goto(linkIn(copy, '/unsubscribe-newsletter?token='));
  await reader.getByRole('heading', { name: 'Successfully Unsubscribed' }).waitFor();
  await reader
    .getByText('You may still receive emails about your account, such as security and billing notices.')
    .waitFor();
  await reader.getByRole('button', { name: 'Too many emails' }).click();
  await reader.getByText('Thank you', { exact: true }).waitFor();
  const oneClick = /<([^>]+)>/.exec(String(copy.headers['list-unsubscribe']))?.[1];
  expect(copy.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  const post = await fetch(oneClick!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(post.status).toBe(200);
});

it('takes an address off the list with the /unsubscribe form', async () => {
  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/unsubscribe`);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await page.getByText('Please enter your email address.').first().waitFor();
  await page.getByLabel('Email').fill(readers[1]!);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await page.getByRole('heading', { name: 'Successfully Unsubscribed' }).waitFor();
});

it('keeps the weekly summary switch on /email-preferences, reached from Settings and from an e-mail: off at first, on after Save, off from the stop link', async () => {
  const email = uniqueEmail('weekly');
  const page = await signedInPage(email);
  // /email-preferences is for a subscribed user: a trial with the test card, through the API as the page would.
  const [cookie] = await page.context().cookies(world.haven.gatewayUrl);
  const api = (path: string, body: unknown = {}) =>
    fetch(`${world.haven.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${cookie!.name}=${cookie!.value}` },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, string> }));
  const setup = await api('/api/create-setup-intent');
  await api('/api/local-payments/confirm-setup', {
    clientSecret: setup.body.clientSecret,
    cardNumber: goodTestCard,
  });
  expect((await api('/api/create-subscription-after-setup')).status).toBe(200);

  // Reached from Settings.
  await page.goto(`${world.haven.gatewayUrl}/settings`);
  await page.getByRole('link', { name: 'Manage email preferences' }).click();
  const weekly = page.getByRole('switch', { name: 'Your week in review' });
  await weekly.waitFor();
  expect(new URL(page.url()).pathname).toBe('/email-preferences');
  expect(await weekly.getAttribute('aria-checked')).toBe('false');
  await weekly.click();
  // The daily reminder: its hour is asked only once it is on.
  expect(await page.getByLabel('Remind me at').count()).toBe(0);
  await page.getByRole('switch', { name: 'Daily check-in reminder' }).click();
  await page.getByLabel('Remind me at').selectOption({ label: '07:00' });
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await page.getByText('Your email preferences have been saved.').first().waitFor();
  const saved = await fetch(`${world.haven.gatewayUrl}/api/user/email-preferences`, {
    headers: { cookie: `${cookie!.name}=${cookie!.value}` },
  });
  expect(((await saved.json()) as { preferences: unknown }).preferences).toMatchObject({
    weeklySummary: true,
    checkInReminder: true,
    reminderHour: 7,
  });
  // Reached again from the foot of an e-mail: the trial's welcome, which says why it came.
  const welcome = await mailbox().waitForEmail((caught) => /Welcome to .* Premium/.test(caught.subject), {
    to: email,
    what: `the welcome to Premium e-mail to ${email}`,
  });
  expect(welcome.text).toContain(
    'This email is about your subscription, so it is sent whatever your email preferences say.',
  );
  const footerLink = /Choose which emails you get: (\S+)/.exec(welcome.text ?? '')?.[1];
  expect(footerLink).toBeDefined();
  await page.goto(`${world.haven.gatewayUrl}${new URL(footerLink!).pathname}`);
  await eventuallyExpect('the saved switch shown on again', async () =>
    expect(await page.getByRole('switch', { name: 'Your week in review' }).getAttribute('aria-checked')).toBe('true'),
  );

  // The summary's stop link, opened signed out (a forged one first): the switch is off afterwards.
  const me = await fetch(`${world.haven.gatewayUrl}/api/user`, {
    headers: { cookie: `${cookie!.name}=${cookie!.value}` },
  });
  const { id: userId } = (await me.json()) as { id: string };
  const linkKey = erasureKey('notification:stop-links', { ERASURE_HMAC_SECRET: hashSecret });
  const link = stopToken(linkKey, userId, 'weekly-summary');
  const visitor = await newPage();
  await visitor.goto(`${world.haven.gatewayUrl}/stop-emails?token=${link.slice(0, -2)}xy`);
  await visitor.getByRole('heading', { name: 'This link did not work' }).waitFor();
  await visitor.goto(`${world.haven.gatewayUrl}/stop-emails?token=${link}`);
  await visitor.getByRole('heading', { name: 'Done' }).waitFor();
  await visitor.getByText("You won't get the weekly summary any more.", { exact: false }).waitFor();
  await visitor.context().close();
  await page.reload();
  await eventuallyExpect('the switch shown off after the stop link', async () =>
    expect(await page.getByRole('switch', { name: 'Your week in review' }).getAttribute('aria-checked')).toBe('false'),
  );
  await page.context().close();
});
