/**
 * The core experience in a real browser: a subscribed user checks in with chosen slider values, gets a
 * quote, saves it, finds it in Favorites and in Recent Quotes, opens it in Progress with the right score,
 * dot colour and emotional-state bars, and sees Analytics reflect it. Also: "Need help now?" signed out, and the
 * safety plan a crisis reply leads to.
 */
import { type BrowserContextOptions, type Page } from 'playwright-core';
import { ApiClient, uniqueEmail } from '../../tools/testing/http';
import { startTrial } from '../../tools/testing/subscription';
import { reachHelpInOneTap, useBrowserHaven } from './browserHaven';

const world = useBrowserHaven();

async function newPage(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await world.browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 412, height: 900 },
    ...options,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.haven.gatewayUrl });
  return context.newPage();
}

/** A page signed up through the app's own form, then on a trial (started through the API, as the page would). */
async function signedUpOnTrial(
  prefix: string,
  browserOptions: BrowserContextOptions = {},
): Promise<{ page: Page; api: ApiClient }> {
  const page = await newPage(browserOptions);
  const email = uniqueEmail(prefix);
  const password = 'a calm long password';
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/subscription');
  const api = new ApiClient(world.haven.gatewayUrl);
  expect((await api.post('/api/auth/login', { email, password })).status).toBe(200);
  await startTrial(api);
  return { page, api };
}

it('checks in, saves the quote, and finds it in Favorites, Recent Quotes, Progress and Analytics', async () => {
  const { page } = await signedUpOnTrial('checkin');

  await page.goto(`${world.haven.gatewayUrl}/sliders`);
  await page.getByRole('heading', { name: 'You: state assessment' }).waitFor();
  await page.getByText('Evening', { exact: true }).click();
  const chosen: Array<[string, string]> = [
    ['Stress', '2'],
    ['Confidence', '3'],
    ['Focus and clarity', '5'],
    ['Motivation', '4'],
    ['Anxiety', '1'],
    ['Sense of purpose', '2'],
    ['Hope for future', '4'],
    ['Gratitude levels', '5'],
  ];
  for (const [label, value] of chosen) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByTestId('value-motivationLevel').filter({ hasText: '4/5' }).waitFor();
  await page.getByLabel('Notes (optional)').fill('Slept well after a long walk.');
  await page.getByRole('button', { name: 'Generate My Quote' }).click();

  const save = page.getByRole('button', { name: 'Save', exact: true });
  await save.waitFor();
  const quoteText = (await page.locator('.quote-card__text').innerText()).trim();
  expect(quoteText.length).toBeGreaterThan(20);
  await save.click();
  await page.getByRole('button', { name: 'Saved', exact: true }).waitFor();
  await page.getByText('Added to favorites', { exact: true }).waitFor();

  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByText('Quote copied to clipboard', { exact: true }).waitFor();

  await page.goto(`${world.haven.gatewayUrl}/favorites`);
  await page.getByRole('heading', { name: 'Your Favorite Quotes' }).waitFor();
  await page.getByText(quoteText).waitFor();

  await page.goto(`${world.haven.gatewayUrl}/`);
  await page.getByRole('heading', { name: 'How are you feeling today?' }).waitFor();
  await page.locator('.recent-quote__day', { hasText: 'Today' }).waitFor();
  const preview = quoteText.length > 75 ? `${quoteText.slice(0, 75).trimEnd()}...` : quoteText;
  await page.locator('.recent-quote__text', { hasText: preview }).waitFor();

  await page.goto(`${world.haven.gatewayUrl}/progress`);
  await page.getByText('Your Progress Journey').waitFor();
  // score = (4 + 3 + 5 + (6−2) + (6−1) + 2 + 4) / 7 = 27 / 7 = 3.86 → "3.9/5", yellow (3 ≤ score < 4)
  await page.getByTestId('score').filter({ hasText: '3.9/5' }).waitFor();
  expect(await page.locator('.journey-row .dot').getAttribute('data-colour')).toBe('yellow');
  // avg mood = ((6−2) + 3 + 4 + (6−1) + 4 + 5) / 6 = 25 / 6 = 4.17 → "4.2"
  await page.getByTestId('avg-mood').filter({ hasText: '4.2' }).waitFor();
  await page.getByTestId('total-entries').filter({ hasText: '1' }).waitFor();
  await page.locator('.journey-row__summary').click();
  await page.getByText('Your Emotional State').waitFor();
  // The person's own words come back with the entry.
  expect(await page.getByTestId('journey-notes').innerText()).toBe('Slept well after a long walk.');
  const bars = { Motivation: '4/5', Confidence: '3/5', Focus: '5/5', Stress: '2/5', Anxiety: '1/5', Purpose: '2/5' };
  for (const [label, value] of Object.entries(bars)) {
    expect([label, await page.getByTestId(`state-${label}`).innerText()]).toEqual([label, value]);
  }
  await page.getByRole('button', { name: 'Share Quote' }).waitFor();

  await page.goto(`${world.haven.gatewayUrl}/analytics`);
  await page.getByRole('heading', { name: 'Your Wellness Journey' }).waitFor();
  await page.getByTestId('analytics-total-quotes').filter({ hasText: '1' }).waitFor();
  expect(await page.getByTestId('analytics-favorite-quotes').innerText()).toBe('1');
  expect(await page.getByTestId('analytics-entries').innerText()).toBe('1');
  expect(await page.getByTestId('analytics-average').innerText()).toBe('4.2');
  expect(await page.getByTestId('analytics-current-streak').innerText()).toBe('1');
  await page.locator('.mood-chart__bar').first().waitFor();
});

it('stores a check-in the network sends twice once, and the next submission as a new one', async () => {
  const { page, api } = await signedUpOnTrial('checkin-twice');

  // A flaky network that delivers the check-in twice (a retried request): the page sees the second answer.
  let sent = 0;
  await page.route('**/graphql', async (route) => {
    if ((route.request().postDataJSON() as { operationName?: string } | null)?.operationName !== 'GenerateQuote') {
      await route.continue();
      return;
    }
    await route.fetch();
    sent += 2;
    await route.fulfill({ response: await route.fetch() });
  });
  await page.goto(`${world.haven.gatewayUrl}/sliders`);
  await page.getByRole('heading', { name: 'You: state assessment' }).waitFor();
  await page.getByRole('button', { name: 'Generate My Quote' }).click();
  const quoteText = page.locator('.quote-card__text');
  await quoteText.waitFor();
  const first = (await quoteText.innerText()).trim();

  expect(sent).toBe(2);
  const recent = await api.get<{ quotes: Array<{ text: string }> }>('/api/quotes/recent');
  expect(recent.body.quotes.map((quote) => quote.text.trim())).toEqual([first]);
  expect((await api.get<{ totalEntries: number }>('/api/user/stats')).body.totalEntries).toBe(1);

  // The quote came back: pressing again is the next check-in, with its own key.
  await page.getByRole('button', { name: 'Generate My Quote' }).click();
  await page.getByText('Crafting your quote...').waitFor({ state: 'detached' });
  await quoteText.waitFor();
  expect(sent).toBe(4);
  expect((await api.get<{ totalEntries: number }>('/api/user/stats')).body.totalEntries).toBe(2);
});

it('meets crisis words with the help of the person’s country first: in the US by the browser, 988 and 911; asked once, Ireland’s; changed in Settings, Japan’s directory and 119', async () => {
  const { page } = await signedUpOnTrial('crisis-us', { locale: 'en-US', timezoneId: 'America/Chicago' });
  await page.goto(`${world.haven.gatewayUrl}/sliders`);
  await page.getByRole('heading', { name: 'You: state assessment' }).waitFor();
  await page
    .getByLabel('Notes (optional)')
    .fill('Work was fine. I keep thinking everyone would be better off without me.');
  await page.getByRole('button', { name: 'Generate My Quote' }).click();
  const help = page.getByRole('region', { name: 'Someone can talk with you right now' });
  await help.getByRole('link', { name: /988 Suicide & Crisis Lifeline/ }).waitFor();
  expect(await help.innerText()).toContain('If your life is in danger, call 911.');
  expect(await help.innerText()).not.toContain('116 123');

  // Asked once, under the first reply: the browser's guess is offered, and the person says where they really are.
  const question = page.getByRole('region', { name: 'Help close to you' });
  expect(await question.getByLabel('Your country').inputValue()).toBe('US');
  await question.getByLabel('Your country').selectOption({ label: 'Ireland' });
  await question.getByRole('button', { name: 'Keep this country' }).click();
  await page.getByText('Thank you. You can change it any time in Settings.').waitFor();

  // The next reply lists Ireland's help, and the question is not asked again.
  await page.getByRole('button', { name: 'Generate My Quote' }).click();
  await help.getByText('If your life is in danger, call 112.').waitFor();
  await help.getByRole('link', { name: /Samaritans/ }).waitFor();
  expect(await help.innerText()).not.toContain('988');
  await page.locator('.quote-card__text').waitFor();
  expect(await question.count()).toBe(0);

  // Changed in Settings to a country without a confirmed line: the directory and that country's emergency number,
  // and no number to call that is not confirmed.
  await page.goto(`${world.haven.gatewayUrl}/settings`);
  await page.getByLabel('Your country', { exact: true }).selectOption({ label: 'Japan' });
  await page.getByText('Country updated', { exact: true }).waitFor();
  await page.goto(`${world.haven.gatewayUrl}/sliders`);
  await page
    .getByLabel('Notes (optional)')
    .fill('Work was fine. I keep thinking everyone would be better off without me.');
  await page.getByRole('button', { name: 'Generate My Quote' }).click();
  await help.getByRole('link', { name: /Find A Helpline/ }).waitFor();
  expect(await help.innerText()).toContain('If your life is in danger, call 119.');
  expect(await help.locator('a[href^="tel:"]').count()).toBe(0);
  await page.context().close();
});

it('leads a person in crisis to their own safety plan, which opens from this device without a connection, and is forgotten when they sign out', async () => {
  const { page } = await signedUpOnTrial('safety-plan', { locale: 'en-GB', timezoneId: 'Europe/London' });
  await page.goto(`${world.haven.gatewayUrl}/sliders`);
  await page.getByRole('heading', { name: 'You: state assessment' }).waitFor();
  await page.getByLabel('Notes (optional)').fill('I keep thinking everyone would be better off without me.');
  await page.getByRole('button', { name: 'Generate My Quote' }).click();
  const help = page.getByRole('region', { name: 'Someone can talk with you right now' });
  // A person in the UK (by the browser) is met with Samaritans and 999.
  await help.getByRole('link', { name: /Samaritans/ }).waitFor();
  expect(await help.innerText()).toContain('If your life is in danger, call 999.');
  await help.getByRole('link', { name: /Your safety plan/ }).click();
  await page.getByRole('heading', { name: 'Your safety plan' }).waitFor();

  await page.getByLabel('1. My warning signs').fill('Staying in bed all day\nNot answering my phone');
  await page.getByLabel('4. People I can ask for help').fill('Alex: 07700 900456');
  await page.getByRole('button', { name: 'Save my plan' }).click();
  await page.getByText('Plan saved', { exact: true }).waitFor();
  await page.reload();
  const warningSigns = page.getByLabel('1. My warning signs');
  await warningSigns.waitFor();
  expect(await warningSigns.inputValue()).toBe('Staying in bed all day\nNot answering my phone');

  // Without a connection: to the help page and back to the plan, read from the copy this device keeps.
  await page.context().setOffline(true);
  await page.getByRole('link', { name: 'people are ready to listen' }).click();
  await page.getByRole('link', { name: 'Open your safety plan' }).click();
  await page.getByText('You’re offline, so this is the copy kept on this device.', { exact: false }).waitFor();
  expect(await page.getByRole('region', { name: 'My warning signs' }).innerText()).toContain('Not answering my phone');
  expect(await page.getByRole('region', { name: 'People I can ask for help' }).innerText()).toContain('Alex');
  await page.context().setOffline(false);

  // Signed out on this device, the copy goes with the session.
  const kept = () => page.evaluate(() => localStorage.getItem('haven:safety-plan'));
  expect(await kept()).toContain('Alex');
  await page.goto(`${world.haven.gatewayUrl}/settings`);
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/settings');
  await page.waitForLoadState('load');
  expect(await kept()).toBeNull();
  await page.context().close();
});

it('shows "Need help now?" to a visitor who is not signed in, their country first, and any country they pick', async () => {
  const page = await newPage({ locale: 'en-GB', timezoneId: 'Europe/London' });
  await page.goto(`${world.haven.gatewayUrl}/terms`);
  await reachHelpInOneTap(page);
  const mine = page.getByRole('region', { name: /^Help in / });
  await mine.getByRole('link', { name: /Samaritans/ }).waitFor();
  expect(await mine.innerText()).toContain('If your life is in danger, call 999.');
  expect(await mine.innerText()).not.toContain('988');

  // Picked in the page, the country stays picked on this device.
  await page.getByLabel('Your country').selectOption({ label: 'United States' });
  await mine.getByRole('link', { name: /988 Suicide & Crisis Lifeline/ }).waitFor();
  expect(await mine.innerText()).toContain('If your life is in danger, call 911.');
  await page.reload();
  await mine.getByRole('link', { name: /988 Suicide & Crisis Lifeline/ }).waitFor();

  // A country without a confirmed line: the directory and its own emergency number, no call link.
  await page.getByLabel('Your country').selectOption({ label: 'Japan' });
  await mine.getByRole('link', { name: /Find A Helpline/ }).waitFor();
  expect(await mine.innerText()).toContain('If your life is in danger, call 119.');
  expect(await mine.locator('a[href^="tel:"]').count()).toBe(0);

  // Every other country is one tap away, even without a pick.
  await page
    .locator('details summary')
    .filter({ hasText: /^United Kingdom$/ })
    .click();
  await page
    .getByRole('link', { name: /Samaritans/ })
    .first()
    .waitFor();

  // The safety plan is one tap further; signed out, it says how to write one.
  await page.getByRole('link', { name: 'Open your safety plan' }).click();
  await page.getByText('Sign in to write your plan. It stays private to you.').waitFor();
  await page.context().close();
});
