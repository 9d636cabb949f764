/**
 * The journal as a person uses it: the dashboard calendar marks exactly the days with a check-in, month by
 * month; its arrows sit beside the month's name on a phone; a ?date= filter says which day it shows and
 * "Show all" clears it; the progress journey goes on past 50 entries, a page at a time; the year view shows a
 * square for each day with a check-in, named with its mood; Home, Settings' counts and Favorites are right
 * after a check-in or a favourite without reloading the page; an entry deleted after a confirmation leaves the
 * journey, progress, streak and analytics at once; and an entry of the last week, edited, changes in place, with
 * progress and analytics following, the help to reach first when it now shows crisis signals, and every change
 * kept when the server refuses one.
 */
import { type Page } from 'playwright-core';
import { storeCheckInAt } from '../../tools/testing/check-ins';
import { eventually } from '../../tools/testing/eventually';
import { type ApiClient } from '../../tools/testing/http';
import { subscribedUser } from '../../tools/testing/subscribed-user';
import { accessibilityViolations, browserWaitMs, useBrowserHaven } from './browserHaven';

// The check-ins of other days go straight into Haven's database (its services run in this process).
const world = useBrowserHaven();

/**
 * A subscriber's phone-sized page, signed in, in UTC (the account's own time zone) and British English, and the
 * API client of the same session.
 */
async function subscriberPage(prefix: string): Promise<{ page: Page; userId: string; client: ApiClient }> {
  const { client, userId } = await subscribedUser(world.haven.gatewayUrl, prefix);
  const context = await world.browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 412, height: 900 },
    timezoneId: 'UTC',
    locale: 'en-GB',
  });
  context.setDefaultTimeout(browserWaitMs);
  await context.addCookies([
    { name: 'haven_session', value: client.cookieValue('haven_session')!, url: world.haven.gatewayUrl },
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

/** A check-in now through the API, as the app makes them (all 3s unless given): the progress record counts it. */
async function checkInNow(client: ApiClient, input: { notes?: string } = {}): Promise<string> {
  const answer = await client.post<{ quote: { id: string } }>('/api/quotes/generate', input);
  expect(answer.status).toBe(200);
  return answer.body.quote.id;
}

/** A tile (or any test id) once it shows exactly `value`. */
const tile = (page: Page, testId: string, value: number | string) =>
  page.getByTestId(testId).filter({ hasText: new RegExp(`^${String(value).replace('.', '\\.')}$`) });

/** To /progress as a person gets there from another page: Settings, then the menu, without reloading. */
async function progressThroughMenu(page: Page): Promise<void> {
  await bottomNav(page, 'Settings').click();
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Progress' }).click();
}

it('marks exactly the days with a check-in, month by month', async () => {
  const { page, userId } = await subscriberPage('calendar-marks');
  const today = new Date();
  await storeCheckInAt(world.haven, userId, noonOn(-1, 3));
  await storeCheckInAt(world.haven, userId, noonOn(-1, 17));
  await storeCheckInAt(world.haven, userId, noonOn(-1, 17));
  await storeCheckInAt(world.haven, userId, noonOn(0, 1));
  await storeCheckInAt(world.haven, userId, noonOn(-2, 9));

  await page.goto(`${world.haven.gatewayUrl}/`);
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
  await page.goto(`${world.haven.gatewayUrl}/`);
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
  await storeCheckInAt(world.haven, userId, chosen, 'The quote of the chosen day.');
  await storeCheckInAt(world.haven, userId, noonOn(-1, 28), 'The quote of the day after.');
  const key = chosen.toISOString().slice(0, 10);

  await page.goto(`${world.haven.gatewayUrl}/`);
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

it('shows the whole journey, 50 entries at a time, with "Show older entries", also after the oldest shown is deleted', async () => {
  const { page, userId } = await subscriberPage('long-journey');
  // 120 daily entries, oldest first: three pages of the journey (50, 50, 20).
  const first = Date.UTC(2026, 0, 1, 12);
  for (let day = 0; day < 120; day += 1) {
    await storeCheckInAt(world.haven, userId, new Date(first + day * 86_400_000), `Entry number ${day + 1}.`);
  }

  await page.goto(`${world.haven.gatewayUrl}/progress`);
  await page.getByText('Entry number 120.').waitFor();
  expect(await page.locator('.journey-row').count()).toBe(50);
  const older = page.getByRole('button', { name: 'Show older entries' });
  await older.click();
  await page.getByText('Entry number 21.').waitFor();
  expect(await page.locator('.journey-row').count()).toBe(100);
  // The oldest entry shown, where the next page goes on from, is deleted first: the next page still follows it.
  const oldestShown = page.locator('.journey-row', { hasText: 'Entry number 21.' });
  await oldestShown.getByRole('button', { expanded: false }).click();
  await oldestShown.getByRole('button', { name: /^Delete entry from / }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete this entry?' })
    .getByRole('button', { name: 'Delete entry', exact: true })
    .click();
  await page.getByText('Entry number 21.').waitFor({ state: 'detached' });
  await older.click();
  await page.getByText('Entry number 1.', { exact: true }).waitFor();
  expect(await page.locator('.journey-row').count()).toBe(119);
  expect(await page.getByText('Entry number 20.', { exact: true }).count()).toBe(1);
  // The last page was not full: nothing older is offered.
  expect(await older.count()).toBe(0);
});

it("shows last year at a glance: a square for each day's check-ins, named with its mood, opening that day", async () => {
  const { page, userId } = await subscriberPage('year-view');
  const lastYear = new Date().getUTCFullYear() - 1;
  // All-3 check-ins (mood 3, yellow): two on 3 March, one on 14 July.
  const march = new Date(Date.UTC(lastYear, 2, 3, 9));
  await storeCheckInAt(world.haven, userId, march, 'A March morning.');
  await storeCheckInAt(world.haven, userId, new Date(Date.UTC(lastYear, 2, 3, 19)), 'A March evening.');
  await storeCheckInAt(world.haven, userId, new Date(Date.UTC(lastYear, 6, 14, 12)), 'A July noon.');

  await page.goto(`${world.haven.gatewayUrl}/analytics`);
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
  await page.goto(`${world.haven.gatewayUrl}/`);
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
  const kept = await checkInNow(client);
  const notes = 'A note kept only with the entry I delete.';
  await checkInNow(client, { notes });

  // Analytics first, so its counts are in the app's cache when the entry goes.
  await page.goto(`${world.haven.gatewayUrl}/analytics`);
  await tile(page, 'analytics-entries', 2).waitFor();
  await progressThroughMenu(page);
  await tile(page, 'total-entries', 2).waitFor();
  await tile(page, 'day-streak', 1).waitFor();
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
  await tile(page, 'total-entries', 2).waitFor();

  await deleteButton.click();
  await dialog.getByRole('button', { name: 'Delete entry', exact: true }).click();
  await page.getByText('Entry deleted', { exact: true }).first().waitFor();
  await dialog.waitFor({ state: 'hidden' });
  await rows.nth(1).waitFor({ state: 'detached' });
  expect(await rows.count()).toBe(1);
  expect(await page.getByText(notes).count()).toBe(0);
  await tile(page, 'total-entries', 1).waitFor();
  await tile(page, 'day-streak', 1).waitFor();
  // The button went with its row: focus moves to the journey's heading rather than falling to the page.
  await page.getByRole('heading', { name: 'Your Progress Journey' }).and(page.locator(':focus')).waitFor();

  await bottomNav(page, 'Analytics').click();
  await tile(page, 'analytics-entries', 1).waitFor();
  await tile(page, 'analytics-total-quotes', 1).waitFor();
  await tile(page, 'analytics-current-streak', 1).waitFor();

  const recent = await client.get<{ quotes: Array<{ id: string }> }>('/api/quotes/recent');
  expect(recent.body.quotes.map((quote) => quote.id)).toEqual([kept]);
});

it('edits an entry: ratings, time of day and notes change in place, and progress and analytics follow without a reload', async () => {
  const { page, client } = await subscriberPage('edit-entry');
  // Two check-ins of all 3s (time of day morning, the default): mood 3 each, so an average of 3.0.
  await checkInNow(client);
  const notes = 'A slow start to the day.';
  const edited = await checkInNow(client, { notes });

  // Analytics first, so its mood trend is in the app's cache when the entry changes.
  await page.goto(`${world.haven.gatewayUrl}/analytics`);
  await tile(page, 'analytics-average', '3.0').waitFor();
  await progressThroughMenu(page);
  await tile(page, 'avg-mood', '3.0').waitFor();
  const rows = page.locator('.journey-row');
  await rows.nth(1).waitFor();
  const row = rows.first();
  await row.getByRole('button', { expanded: false }).click();
  await row.getByText(notes).waitFor();
  await row
    .getByTestId('journey-meta')
    .filter({ hasText: /^Morning$/ })
    .waitFor();
  await row.getByTestId('state-Stress').filter({ hasText: '3/5' }).waitFor();
  expect(await row.getByTestId('score').innerText()).toBe('3.0/5');

  // The form starts from the entry's answers; Cancel leaves the entry as it was.
  const editButton = row.getByRole('button', { name: 'Edit entry from Today', exact: true });
  const dialog = page.getByRole('dialog', { name: 'Edit this entry' });
  const stress = dialog.getByLabel('Stress', { exact: true });
  const notesBox = dialog.getByLabel('Notes (optional)');
  await editButton.click();
  expect(await stress.inputValue()).toBe('3');
  expect(await dialog.getByLabel('Urgency of need', { exact: true }).inputValue()).toBe('3');
  expect(await dialog.getByRole('radio', { name: 'Morning' }).isChecked()).toBe(true);
  expect(await notesBox.inputValue()).toBe(notes);
  await stress.fill('1');
  await notesBox.fill('Not saved: this goes with Cancel.');
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  // Focus goes back to the button that opened the form.
  await editButton.and(page.locator(':focus')).waitFor();
  expect(await row.getByTestId('journey-notes').innerText()).toBe(notes);
  expect(await row.getByTestId('state-Stress').innerText()).toBe('3/5');
  expect(await row.getByTestId('journey-meta').innerText()).toBe('Morning');
  expect(await page.getByText('Not saved: this goes with Cancel.').count()).toBe(0);
  await tile(page, 'avg-mood', '3.0').waitFor();

  // Opened again, it starts from the kept answers, not the cancelled ones.
  await editButton.click();
  expect(await stress.inputValue()).toBe('3');
  expect(await notesBox.inputValue()).toBe(notes);
  expect(await accessibilityViolations(page)).toEqual([]);
  // Stress 1 raises this entry's mood to 20/6 (score 23/7): the average of the two becomes 19/6, 3.2.
  await stress.fill('1');
  await dialog.getByTestId('edit-value-stressLevel').filter({ hasText: '1/5' }).waitFor();
  await dialog.getByText('Evening', { exact: true }).click();
  const newNotes = 'A slow start, then a calm evening walk.';
  await notesBox.fill(newNotes);
  await dialog.getByRole('button', { name: 'Save changes', exact: true }).click();
  await page.getByText('Entry updated', { exact: true }).first().waitFor();
  await dialog.waitFor({ state: 'hidden' });
  await editButton.and(page.locator(':focus')).waitFor();

  // The entry changes in place, its message kept; progress follows.
  await row.getByTestId('journey-notes').filter({ hasText: newNotes }).waitFor();
  await row
    .getByTestId('journey-meta')
    .filter({ hasText: /^Evening · Edited$/ })
    .waitFor();
  expect(await row.getByTestId('state-Stress').innerText()).toBe('1/5');
  expect(await row.getByTestId('score').innerText()).toBe('3.3/5');
  await tile(page, 'avg-mood', '3.2').waitFor();
  await tile(page, 'total-entries', 2).waitFor();
  expect(await rows.count()).toBe(2);
  expect(await rows.nth(1).getByText(newNotes).count()).toBe(0);

  // Analytics, reached without a reload, shows the new mood: the average, and the newest bar at 20/6 of 5.
  await bottomNav(page, 'Analytics').click();
  await tile(page, 'analytics-average', '3.2').waitFor();
  await tile(page, 'analytics-entries', 2).waitFor();
  const bars = page.locator('.mood-chart__bar');
  expect(await bars.count()).toBe(2);
  const heights = await bars.evaluateAll((spans) =>
    spans.map((span) => parseFloat((span as HTMLElement).style.height)),
  );
  // Moods come to two decimals (3.33).
  expect(heights[0]).toBeCloseTo((20 / 6 / 5) * 100, 0);
  expect(heights[1]).toBeCloseTo(60, 0);

  const recent = await client.graphql<{
    me: { recentQuotes: Array<{ id: string; notes: string | null; editedAt: string | null }> };
  }>('{ me { recentQuotes(limit: 5) { id notes editedAt } } }');
  expect(recent.body.data?.me.recentQuotes[0]).toMatchObject({
    id: edited,
    notes: newNotes,
    editedAt: expect.any(String),
  });
});

it('offers no edit for an entry older than a week, and still offers its deletion', async () => {
  const { page, userId } = await subscriberPage('edit-entry-old');
  await storeCheckInAt(world.haven, userId, new Date(Date.now() - 8 * 86_400_000), 'A week and a day ago.');

  await page.goto(`${world.haven.gatewayUrl}/progress`);
  const row = page.locator('.journey-row', { hasText: 'A week and a day ago.' });
  await row.getByRole('button', { expanded: false }).click();
  await row.getByRole('button', { name: /^Delete entry from / }).waitFor();
  expect(await row.getByRole('button', { name: /^Edit entry/ }).count()).toBe(0);
});

it('leads with people to talk to when an edited entry now shows crisis signals', async () => {
  const { page, client } = await subscriberPage('edit-entry-crisis');
  await checkInNow(client);

  await page.goto(`${world.haven.gatewayUrl}/progress`);
  const row = page.locator('.journey-row').first();
  await row.getByRole('button', { expanded: false }).click();
  const message = row.locator('.quote-card__text');
  const before = (await message.innerText()).trim();
  await row.getByRole('button', { name: 'Edit entry from Today', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit this entry' });
  await dialog.getByLabel('Urgency of need', { exact: true }).fill('5');
  await dialog.getByLabel('Hope for future', { exact: true }).fill('1');
  await dialog.getByRole('button', { name: 'Save changes', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });

  // As on the check-in page: the help first, above the reply that now takes the place of the message.
  const help = row.getByRole('region', { name: 'Someone can talk with you right now' });
  await help.getByRole('link', { name: 'More helplines' }).waitFor();
  await message.filter({ hasNotText: before }).waitFor();
  const helpBox = await help.boundingBox();
  const messageBox = await message.boundingBox();
  expect(helpBox!.y).toBeLessThan(messageBox!.y);
  expect(await accessibilityViolations(page)).toEqual([]);
});

it('keeps every change of a refused edit and says why, then saves when tried again', async () => {
  const { page, client } = await subscriberPage('edit-entry-refused');
  const quoteId = await checkInNow(client, { notes: 'First words.' });
  const quotes = await world.haven.collection('quote', 'quotes');
  const madeAt = (await quotes.findOne({ _id: quoteId as never }))!.createdAt as Date;

  await page.goto(`${world.haven.gatewayUrl}/progress`);
  const row = page.locator('.journey-row').first();
  await row.getByRole('button', { expanded: false }).click();
  await row.getByRole('button', { name: 'Edit entry from Today', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit this entry' });
  const notesBox = dialog.getByLabel('Notes (optional)');
  await dialog.getByLabel('Sleep quality', { exact: true }).fill('5');
  await notesBox.fill('Better words.');
  // While the form is open the entry passes its week, so the server refuses the edit.
  await quotes.updateOne({ _id: quoteId as never }, { $set: { createdAt: new Date(Date.now() - 8 * 86_400_000) } });
  await dialog.getByRole('button', { name: 'Save changes', exact: true }).click();

  await dialog
    .getByRole('alert')
    .filter({ hasText: /can be changed for 7 days/ })
    .waitFor();
  expect(await notesBox.inputValue()).toBe('Better words.');
  expect(await dialog.getByLabel('Sleep quality', { exact: true }).inputValue()).toBe('5');
  expect(await row.getByTestId('journey-notes').innerText()).toBe('First words.');
  expect(await accessibilityViolations(page)).toEqual([]);

  await quotes.updateOne({ _id: quoteId as never }, { $set: { createdAt: madeAt } });
  await dialog.getByRole('button', { name: 'Save changes', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await row.getByTestId('journey-notes').filter({ hasText: 'Better words.' }).waitFor();
});
