/**
 * Data rights in a real browser: from Settings' Data & Privacy card a user exports their data (the download
 * holds their check-in; the e-mail preferences page's Export too), keeps notes off the server (the check-in page then says so), and deletes their
 * account (the browser's confirmation accepted), sees "Account Deleted" and lands on `/` signed out.
 */
import { readFileSync } from 'node:fs';
import { type Page } from 'playwright-core';
import { ApiClient, uniqueEmail } from '../../tools/testing/http';
import { startTrial } from '../../tools/testing/subscription';
import { accessibilityViolations, useBrowserHaven } from './browserHaven';

const world = useBrowserHaven();

/** axe's findings once no toast is on screen (one fading in or out is half-transparent text for a moment). */
async function settledAccessibilityViolations(page: Page): Promise<string[]> {
  await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, undefined, { timeout: 20_000 });
  return accessibilityViolations(page);
}

it('exports the data, keeps notes off the server, then deletes the account from Settings', async () => {
  const email = uniqueEmail('rights');
  const password = 'a private long password';
  const note = `Walked to the harbour at dusk ${Date.now().toString(36)}`;
  const api = new ApiClient(world.haven.gatewayUrl);
  expect((await api.post('/api/auth/register', { email, password, firstName: 'Ines' })).status).toBe(201);
  await startTrial(api);
  expect((await api.post('/api/quotes/generate', { notes: note })).status).toBe(200);

  const context = await world.browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 412, height: 900 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Login successful', { exact: true }).waitFor();

  await page.goto(`${world.haven.gatewayUrl}/settings`);
  await page.getByRole('heading', { name: 'Data & Privacy' }).waitFor();
  await page.getByRole('switch', { name: 'Keep check-in notes' }).and(page.locator(':enabled')).waitFor();
  expect(await settledAccessibilityViolations(page)).toEqual([]);
  // Export Your Data: the CSV of the check-ins and their messages, named by the day.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export Your Data' }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^haven-data-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = readFileSync((await csv.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(rows).toHaveLength(2);
  expect(rows[1]).toContain(note);
  await page.getByText('Export Complete', { exact: true }).first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, undefined, { timeout: 20_000 });

  // Everything kept, as JSON, from the same card.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export everything (JSON)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('haven-data-export.json');
  const exported = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
    account: { email: string };
    checkIns: Array<{ notes: string | null }>;
  };
  expect(exported.account.email).toBe(email);
  expect(exported.checkIns.map((checkIn) => checkIn.notes)).toEqual([note]);
  await page.getByText('Export Complete', { exact: true }).first().waitFor();

  // The preferences page's Export: the same file, with that page's notice.
  await page.goto(`${world.haven.gatewayUrl}/email-preferences`);
  await page.getByRole('heading', { name: 'Your data' }).waitFor();
  await page.getByRole('switch', { name: 'Newsletter' }).waitFor();
  expect(await settledAccessibilityViolations(page)).toEqual([]);
  const [fromPreferences] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export' }).click(),
  ]);
  expect(fromPreferences.suggestedFilename()).toBe('haven-data-export.json');
  await page.getByText('Data Export Complete', { exact: true }).first().waitFor();

  await page.goto(`${world.haven.gatewayUrl}/settings`);
  await page.getByRole('switch', { name: 'Keep check-in notes' }).and(page.locator(':enabled')).click();
  await page.getByText('Notes off', { exact: true }).first().waitFor();
  await page.goto(`${world.haven.gatewayUrl}/sliders`);
  await page.getByText(/Notes are not kept/).waitFor();
  expect(await page.locator('textarea#checkin-notes').count()).toBe(0);

  await page.goto(`${world.haven.gatewayUrl}/settings`);
  await page.getByRole('heading', { name: 'Data & Privacy' }).waitFor();
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Delete account' }).click();
  await page.getByText('Account Deleted', { exact: true }).first().waitFor();
  expect(asked).toEqual([
    'Are you sure you want to delete your account? This action cannot be undone and will remove all your data permanently.',
  ]);
  await page.waitForURL(`${world.haven.gatewayUrl}/`);
  await page.getByText('Track. Reflect. Thrive.').first().waitFor();
  expect((await page.request.get(`${world.haven.gatewayUrl}/api/user`)).status()).toBe(401);
  const again = await new ApiClient(world.haven.gatewayUrl).post('/api/auth/login', { email, password });
  expect(again.status).toBe(401);
  await context.close();
});

it('leaves the account alone when the confirmation is dismissed', async () => {
  const email = uniqueEmail('keeps');
  const context = await world.browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/subscription');
  // A user who never finished setup reaches it from Settings.
  await page.goto(`${world.haven.gatewayUrl}/settings`);
  page.once('dialog', (dialog) => void dialog.dismiss());
  await page.getByRole('button', { name: 'Delete account' }).click();
  await page.getByRole('heading', { name: 'Data & Privacy' }).waitFor();
  expect((await page.request.get(`${world.haven.gatewayUrl}/api/user`)).status()).toBe(200);
  await context.close();
});
