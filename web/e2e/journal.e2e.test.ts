/**
 * The journal as a person uses it: the dashboard calendar marks exactly the days with a check-in, month by
 * month; its arrows sit beside the month's name on a phone; a ?date= filter says which day it shows and
 * "Show all" clears it; the progress journey goes on past 50 entries, a page at a time; the year view shows a
 * square for each day with a check-in, named with its mood; Home, Settings' counts and Favorites are right
 * after a check-in or a favourite without reloading the page; and an entry deleted after a confirmation leaves the
 * journey, progress, streak and analytics at once.
 */
import { type Browser, type Page } from 'playwright-core';
import { storeCheckInAt } from '../../tools/testing/check-ins';
import { eventually } from '../../tools/testing/eventually';
import { type TestHaven } from '../../tools/testing/haven';
import { type ApiClient } from '../../tools/testing/http';
import { subscribedUser } from '../../tools/testing/subscribed-user';
import {
  accessibilityViolations,
  browserHavenStartMs,
  browserWaitMs,
  startInProcessBrowserHaven,
  stopInProcessBrowserHaven,
} from './browserHaven';

let haven: TestHaven;
let browser: Browser;

// Haven in this process, as in subscription.e2e.test.ts: the check-ins of other days go straight into its database.
beforeAll(async () => {
  ({ haven, browser } = await startInProcessBrowserHaven());
}, browserHavenStartMs);

afterAll(() => stopInProcessBrowserHaven({ haven, browser }));

/**
 * A subscriber's phone-sized page, signed in, in UTC (the account's own time zone) and British English, and the
 * API client of the same session.
 */
async function subscriberPage(prefix: string): Promise<{ page: Page; userId: string; client: ApiClient }> {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, prefix);
  const context = await browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 412, height: 900 },
    timezoneId: 'UTC',
    locale: 'en-GB',
  });
  context.setDefaultTimeout(browserWaitMs);
  await context.addCookies([
    { name: 'haven_session', value: client.cookieValue('haven_session')!, url: haven.gatewayUrl },
  ]);
  return { page: await context.newPage(), userId, client };
}

/** Noon UTC of a day of the month `monthsFromNow` away from the present one. */
const noonOn = (monthsFromNow: number, day: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsFromNow, day, 12));
};

const monthTitle = (date: Date) =>
  date.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * A calendar day's accessible name, "Saturday 3 October 2026" (with or without a comma after the weekday, as
 * Chromium's version writes it) and ", checked in" on a day with a check-in.
 */
const dayName = (date: Date, checkedIn: boolean) => {
  const [day, month, year] = [
    date.getUTCDate(),
    date.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' }),
    date.getUTCFullYear(),
  ];
  return new RegExp(`^\\w+,? ${day} ${month} ${year}${checkedIn ? ', checked in' : ''}$`);
};

/** The day numbers the calendar marks, read from what a screen reader hears and checked against what shows. */
async function markedDays(page: Page): Promise<number[]> {
  const heard = await page.getByRole('button', { name: /, checked in$/ }).allInnerTexts();
  const seen = await page.locator('.calendar__day--checked-in').allInnerTexts();
  expect(seen).toEqual(heard);
  return heard.map(Number);
}

async function generateQuote(page: Page): Promise<string> {
  await page.getByRole('heading', { name: 'You: state assessment' }).waitFor();
  await page.getByRole('button', { name: 'Generate My Quote' }).click();
  const text = page.locator('.quote-card__text');
  await text.waitFor();
  return (await text.innerText()).trim();
}

/** Home's preview of a quote: its first 75 characters. */
const previewOf = (text: string) => (text.length > 75 ? `${text.slice(0, 75).trimEnd()}...` : text);

const bottomNav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

it('marks exactly the days with a check-in, month by month', async () => {
  const { page, userId } = await subscriberPage('calendar-marks');
  const today = new Date();
  await storeCheckInAt(haven, userId, noonOn(-1, 3));
  await storeCheckInAt(haven, userId, noonOn(-1, 17));
  await storeCheckInAt(haven, userId, noonOn(-1, 17));
  await storeCheckInAt(haven, userId, noonOn(0, 1));
  await storeCheckInAt(haven, userId, noonOn(-2, 9));

  await page.goto(`${haven.gatewayUrl}/`);
  await page.getByRole('heading', { name: monthTitle(today) }).waitFor();
  await page.getByRole('button', { name: dayName(noonOn(0, 1), true) }).waitFor();
  expect(await markedDays(page)).toEqual([1]);

  await page.getByRole('button', { name: 'Previous month' }).click();
  await page.getByRole('heading', { name: monthTitle(noonOn(-1, 1)) }).waitFor();
  await page.getByRole('button', { name: dayName(noonOn(-1, 17), true) }).waitFor();
  expect(await markedDays(page)).toEqual([3, 17]);
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await page.getByRole('button', { name: dayName(noonOn(-1, 4), false) }).count()).toBe(1);

  await page.getByRole('button', { name: 'Next month' }).click();
  await page.getByRole('button', { name: 'Next month' }).click();
  await page.getByRole('heading', { name: monthTitle(noonOn(1, 1)) }).waitFor();
  await page.locator('.calendar__day').first().waitFor();
  expect(await markedDays(page)).toEqual([]);

  // A check-in today marks today, back on the present month, without reloading.
  await bottomNav(page, 'You').click();
  await generateQuote(page);
  await bottomNav(page, 'Home').click();
  await page.getByRole('heading', { name: monthTitle(today) }).waitFor();
  await page.getByRole('button', { name: dayName(today, true) }).waitFor();
  expect(await markedDays(page)).toEqual([...new Set([1, today.getUTCDate()])].sort((a, b) => a - b));
});

it("puts the month arrows beside the month's name on a phone", async () => {
  const { page } = await subscriberPage('calendar-arrows');
  await page.goto(`${haven.gatewayUrl}/`);
  const title = await page.getByRole('heading', { name: monthTitle(new Date()) }).boundingBox();
  const previous = await page.getByRole('button', { name: 'Previous month' }).boundingBox();
  const next = await page.getByRole('button', { name: 'Next month' }).boundingBox();
  const middle = (box: { y: number; height: number }) => box.y + box.height / 2;
  expect(previous!.x + previous!.width).toBeLessThanOrEqual(title!.x);
  expect(next!.x).toBeGreaterThanOrEqual(title!.x + title!.width);
  // On one line: each arrow's middle within the name's height.
  expect(Math.abs(middle(previous!) - middle(title!))).toBeLessThan(title!.height / 2);
  expect(Math.abs(middle(next!) - middle(title!))).toBeLessThan(title!.height / 2);
});

it('shows which day the progress list is filtered to, and "Show all" clears it', async () => {
  const { page, userId } = await subscriberPage('date-filter');
  const chosen = noonOn(-1, 27);
  await storeCheckInAt(haven, userId, chosen, 'The quote of the chosen day.');
  await storeCheckInAt(haven, userId, noonOn(-1, 28), 'The quote of the day after.');
  const key = chosen.toISOString().slice(0, 10);

  await page.goto(`${haven.gatewayUrl}/`);
  await page.getByRole('button', { name: 'Previous month' }).click();
  await page.getByRole('button', { name: dayName(chosen, true) }).click();
  await page.waitForURL(`**/progress?date=${key}`);
  const label = `Showing ${chosen.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })}`;
  await page.getByText(label, { exact: true }).waitFor();
  await page.getByText('The quote of the chosen day.').waitFor();
  expect(await page.locator('.journey-row').count()).toBe(1);

  await page.getByRole('button', { name: 'Show all' }).click();
  await page.getByText('The quote of the day after.').waitFor();
  expect(new URL(page.url()).search).toBe('');
  expect(await page.getByText(label).count()).toBe(0);
  expect(await page.locator('.journey-row').count()).toBe(2);
});

it('shows the whole journey, 50 entries at a time, with "Show older entries"', async () => {
  const { page, userId } = await subscriberPage('long-journey');
  // 120 daily entries, oldest first: three pages of the journey (50, 50, 20).
  const first = Date.UTC(2026, 0, 1, 12);
  for (let day = 0; day < 120; day += 1) {
    await storeCheckInAt(haven, userId, new Date(first + day * 86_400_000), `Entry number ${day + 1}.`);
  }

  await page.goto(`${haven.gatewayUrl}/progress`);
  await page.getByText('Entry number 120.').waitFor();
  expect(await page.locator('.journey-row').count()).toBe(50);
  const older = page.getByRole('button', { name: 'Show older entries' });
  await older.click();
  await page.getByText('Entry number 21.').waitFor();
  expect(await page.locator('.journey-row').count()).toBe(100);
  await older.click();
  await page.getByText('Entry number 1.', { exact: true }).waitFor();
  expect(await page.locator('.journey-row').count()).toBe(120);
  // The last page was not full: nothing older is offered.
  expect(await older.count()).toBe(0);
});

it("shows last year at a glance: a square for each day's check-ins, named with its mood, opening that day", async () => {
  const { page, userId } = await subscriberPage('year-view');
  const lastYear = new Date().getUTCFullYear() - 1;
  // All-3 check-ins (mood 3, yellow): two on 3 March, one on 14 July.
  const march = new Date(Date.UTC(lastYear, 2, 3, 9));
  await storeCheckInAt(haven, userId, march, 'A March morning.');
  await storeCheckInAt(haven, userId, new Date(Date.UTC(lastYear, 2, 3, 19)), 'A March evening.');
  await storeCheckInAt(haven, userId, new Date(Date.UTC(lastYear, 6, 14, 12)), 'A July noon.');

  await page.goto(`${haven.gatewayUrl}/analytics`);
  await page.getByRole('button', { name: 'Previous year' }).click();
  await page.getByText(`Your Year: ${lastYear}`).waitFor();
  await page
    .getByTestId('year-summary')
    .filter({ hasText: `2 days with a check-in in ${lastYear}` })
    .waitFor();
  const days = page.locator('a.year__day');
  expect(await days.count()).toBe(2);
  expect(await days.evaluateAll((links) => links.map((link) => link.getAttribute('aria-label')))).toEqual([
    expect.stringMatching(new RegExp(`March,? ${lastYear}: mood 3 of 5, 2 check-ins$`)),
    expect.stringMatching(new RegExp(`July,? ${lastYear}: mood 3 of 5, 1 check-in$`)),
  ]);
  expect(await days.first().getAttribute('class')).toContain('mood--yellow');
  expect(await accessibilityViolations(page)).toEqual([]);

  // Reached by keyboard, it opens the day's entries.
  await days.first().focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/progress?date=${march.toISOString().slice(0, 10)}`);
  await page.getByText('A March evening.').waitFor();
  expect(await page.locator('.journey-row').count()).toBe(2);
});

it('keeps Home, the counts and Favorites right after a check-in and a favourite, without a reload', async () => {
  const { page } = await subscriberPage('fresh');
  await page.goto(`${haven.gatewayUrl}/`);
  await page.getByText('No quotes yet. Create your first one!').waitFor();
  // Settings' Account Information counts as read aloud: "Total Quotes 1 Entries 1 Favorites 0".
  const counts = async () =>
    (await page.locator('.account__count').allInnerTexts()).map((count) => count.replace(/\s+/g, ' ')).join(' ');
  const countsRead = (expected: string) =>
    eventually(`Settings showing "${expected}"`, async () => ((await counts()) === expected ? expected : false), {
      timeoutMs: browserWaitMs,
    });
  await bottomNav(page, 'Settings').click();
  await countsRead('Total Quotes 0 Entries 0 Favorites 0');
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Favorites' }).click();
  await page.getByText('No Favorites Yet').waitFor();

  await bottomNav(page, 'You').click();
  const first = await generateQuote(page);
  await bottomNav(page, 'Home').click();
  await page.locator('.recent-quote__day', { hasText: 'Today' }).waitFor();
  await page.locator('.recent-quote__text', { hasText: previewOf(first) }).waitFor();
  await bottomNav(page, 'Settings').click();
  await countsRead('Total Quotes 1 Entries 1 Favorites 0');

  await bottomNav(page, 'You').click();
  const second = await generateQuote(page);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Saved', exact: true }).waitFor();
  await bottomNav(page, 'Settings').click();
  await countsRead('Total Quotes 2 Entries 2 Favorites 1');
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Favorites' }).click();
  await page.getByText(second).waitFor();
  expect(await page.getByText('No Favorites Yet').count()).toBe(0);
  await bottomNav(page, 'Home').click();
  await page.locator('.recent-quote__text', { hasText: previewOf(second) }).waitFor();
  expect(await page.locator('.recent-quote').count()).toBe(2);
});

it('deletes an entry after confirming, and progress, streak and analytics follow without a reload', async () => {
  const { page, client } = await subscriberPage('delete-entry');
  // Two check-ins today through the API, as the app makes them: the progress record counts both.
  const checkIn = async (input: { notes?: string }) => {
    const answer = await client.post<{ quote: { id: string } }>('/api/quotes/generate', input);
    expect(answer.status).toBe(200);
    return answer.body.quote.id;
  };
  const kept = await checkIn({});
  const notes = 'A note kept only with the entry I delete.';
  await checkIn({ notes });
  const tile = (testId: string, value: number) =>
    page.getByTestId(testId).filter({ hasText: new RegExp(`^${value}$`) });

  // Analytics first, so its counts are in the app's cache when the entry goes.
  await page.goto(`${haven.gatewayUrl}/analytics`);
  await tile('analytics-entries', 2).waitFor();
  await bottomNav(page, 'Settings').click();
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Progress' }).click();
  await tile('total-entries', 2).waitFor();
  await tile('day-streak', 1).waitFor();
  const rows = page.locator('.journey-row');
  await rows.nth(1).waitFor();

  // The newest entry, opened, offers its deletion by name; keeping it changes nothing.
  await rows.first().getByRole('button', { expanded: false }).click();
  await rows.first().getByText(notes).waitFor();
  const deleteButton = rows.first().getByRole('button', { name: 'Delete entry from Today', exact: true });
  const dialog = page.getByRole('alertdialog', { name: 'Delete this entry?' });
  await deleteButton.click();
  await dialog
    .getByText(
      'The check-in, its notes and its message are deleted for good. Your progress, streaks and analytics will no longer count it.',
    )
    .waitFor();
  expect(await accessibilityViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await dialog.waitFor({ state: 'hidden' });
  // Focus goes back to the button that opened the dialog.
  await deleteButton.and(page.locator(':focus')).waitFor();
  expect(await rows.count()).toBe(2);
  await tile('total-entries', 2).waitFor();

  await deleteButton.click();
  await dialog.getByRole('button', { name: 'Delete entry', exact: true }).click();
  await page.getByText('Entry deleted', { exact: true }).first().waitFor();
  await dialog.waitFor({ state: 'hidden' });
  await rows.nth(1).waitFor({ state: 'detached' });
  expect(await rows.count()).toBe(1);
  expect(await page.getByText(notes).count()).toBe(0);
  await tile('total-entries', 1).waitFor();
  await tile('day-streak', 1).waitFor();
  // The button went with its row: focus moves to the journey's heading rather than falling to the page.
  await page.getByRole('heading', { name: 'Your Progress Journey' }).and(page.locator(':focus')).waitFor();

  await bottomNav(page, 'Analytics').click();
  await tile('analytics-entries', 1).waitFor();
  await tile('analytics-total-quotes', 1).waitFor();
  await tile('analytics-current-streak', 1).waitFor();

  const recent = await client.get<{ quotes: Array<{ id: string }> }>('/api/quotes/recent');
  expect(recent.body.quotes.map((quote) => quote.id)).toEqual([kept]);
});
