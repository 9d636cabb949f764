/**
 * Checking in without a connection, in the installed app: the check-in page, started once online so the service
 * worker keeps the app, accepts a check-in offline and says it is saved on this device and waiting; it is still
 * waiting in a page opened later, offline; when the connection is back it is sent, stored once (two open tabs and
 * all) and its message shows. A check-in whose ratings show crisis signals shows the help at once, offline.
 */
import { type BrowserContext, type Page } from 'playwright-core';
import { eventually } from '../../tools/testing/eventually';
import { type ApiClient } from '../../tools/testing/http';
import { subscribedUser } from '../../tools/testing/subscribed-user';
import { useBrowserHaven } from './browserHaven';

const world = useBrowserHaven();

/** A subscriber's phone-sized browser, signed in, with the service worker allowed (the installed app). */
async function subscriberContext(prefix: string): Promise<{ context: BrowserContext; client: ApiClient }> {
  const { client } = await subscribedUser(world.haven.gatewayUrl, prefix);
  const context = await world.browser.newContext({
    viewport: { width: 412, height: 900 },
    timezoneId: 'Europe/London',
    locale: 'en-GB',
  });
  await context.addCookies([
    { name: 'haven_session', value: client.cookieValue('haven_session')!, url: world.haven.gatewayUrl },
  ]);
  return { context, client };
}

/** The check-in page, with the service worker installed and in control, so the page opens again offline. */
async function installedCheckInPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${world.haven.gatewayUrl}/sliders`);
  await page.getByRole('heading', { name: 'You: state assessment' }).waitFor();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return page;
}

async function openCheckInPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${world.haven.gatewayUrl}/sliders`);
  await page.getByRole('heading', { name: 'You: state assessment' }).waitFor();
  return page;
}

const waitingRegion = (page: Page) => page.getByRole('region', { name: 'Saved on this device' });

async function storedQuotes(client: ApiClient): Promise<string[]> {
  const recent = await client.get<{ quotes: Array<{ text: string }> }>('/api/quotes/recent');
  expect(recent.status).toBe(200);
  return recent.body.quotes.map((quote) => quote.text.trim());
}

it('keeps a check-in made offline on the device, still waiting in a page opened later, and sends it once when the connection is back', async () => {
  const { context, client } = await subscriberContext('offline-checkin');
  const first = await installedCheckInPage(context);

  await context.setOffline(true);
  await first.getByText('Evening', { exact: true }).click();
  await first.getByLabel('Stress', { exact: true }).fill('4');
  await first.getByTestId('value-stressLevel').filter({ hasText: '4/5' }).waitFor();
  await first.getByLabel('Notes (optional)').fill('Written on the train, no signal.');
  await first.getByRole('button', { name: 'Generate My Quote' }).click();
  const waiting = waitingRegion(first);
  await waiting
    .getByText('Your check-in is saved on this device and will be sent when the connection is back.', { exact: false })
    .waitFor();
  await waiting.getByText(/^Check-in from \d\d:\d\d, waiting to be sent$/).waitFor();
  expect(await first.locator('.quote-card__text').count()).toBe(0);

  // The page closed and the app opened again at its start page, still offline: the person is still signed in here,
  // the check-in is still waiting, and nothing was sent.
  await first.close();
  const later = await context.newPage();
  await later.goto(`${world.haven.gatewayUrl}/`);
  await later.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'You' }).click();
  await later.getByRole('heading', { name: 'You: state assessment' }).waitFor();
  await waitingRegion(later)
    .getByText(/^Check-in from \d\d:\d\d, waiting to be sent$/)
    .waitFor();
  expect(await storedQuotes(client)).toEqual([]);

  // A second tab is open when the connection comes back: both hear `online`, the check-in is stored once, and both
  // show its message.
  const other = await openCheckInPage(context);
  await waitingRegion(other).waitFor();
  await context.setOffline(false);

  const message = later.locator('.quote-card__text');
  await message.waitFor();
  const shown = (await message.innerText()).trim();
  expect(shown.length).toBeGreaterThan(20);
  await waitingRegion(later).waitFor({ state: 'detached' });
  await other.locator('.quote-card__text', { hasText: shown }).waitFor();
  await waitingRegion(other).waitFor({ state: 'detached' });
  const stored = await eventually('the check-in stored', async () => {
    const quotes = await storedQuotes(client);
    return quotes.length > 0 && quotes;
  });
  expect(stored).toEqual([shown]);
  // The answers made offline are the ones stored.
  const recent = await client.get<{ quotes: Array<{ emotionalState: Record<string, number> }> }>('/api/quotes/recent');
  expect(recent.body.quotes[0]?.emotionalState.stressLevel).toBe(4);

  // The connection dropping and coming back again sends nothing more.
  await context.setOffline(true);
  await context.setOffline(false);
  await later.reload();
  await later.getByRole('heading', { name: 'You: state assessment' }).waitFor();
  expect(await waitingRegion(later).count()).toBe(0);
  expect(await storedQuotes(client)).toEqual([shown]);
  expect((await client.get<{ totalEntries: number }>('/api/user/stats')).body.totalEntries).toBe(1);
  await context.close();
});

it('shows the help of the person’s country at once, offline, when a waiting check-in’s ratings show crisis signals', async () => {
  const { context, client } = await subscriberContext('offline-crisis');
  const page = await installedCheckInPage(context);

  await context.setOffline(true);
  await page.getByLabel('Urgency of need', { exact: true }).fill('5');
  await page.getByLabel('Hope for future', { exact: true }).fill('1');
  await page.getByTestId('value-urgencyOfNeed').filter({ hasText: '5/5' }).waitFor();
  await page.getByRole('button', { name: 'Generate My Quote' }).click();

  // A person in the UK (by the browser) is met with Samaritans and 999 before anything is sent.
  const help = page.getByRole('region', { name: 'Someone can talk with you right now' });
  await help.getByRole('link', { name: /Samaritans/ }).waitFor();
  expect(await help.innerText()).toContain('If your life is in danger, call 999.');
  await help.getByRole('link', { name: 'More helplines' }).waitFor();
  await waitingRegion(page).waitFor();
  expect(await storedQuotes(client)).toEqual([]);

  // Back online, the server's crisis reply takes the help's place: one card, never two.
  await context.setOffline(false);
  await page.locator('.quote-card__text').waitFor();
  await waitingRegion(page).waitFor({ state: 'detached' });
  expect(await help.count()).toBe(1);
  await help.getByRole('link', { name: /Samaritans/ }).waitFor();
  expect(await storedQuotes(client)).toHaveLength(1);
  await context.close();
});
