/**
 * /admin/users in a real browser (Debian's Chromium, Playwright) against the whole of Haven: the admin sees
 * the counts, searches (any case) and filters by status; a member sees the same alert as on the newsletter page
 * and no user data; the admin deletes one user (whose trial is cancelled) and bulk-deletes two, each through the
 * account deletion, and they are gone from the list and cannot sign in.
 */
import { type Page } from 'playwright-core';
import { eventuallyExpect } from '../../tools/testing/eventually';
import { ApiClient, uniqueEmail } from '../../tools/testing/http';
import { startTrial } from '../../tools/testing/subscription';
import { verifyByEmailLink } from '../../tools/testing/verification';
import { accessibilityViolations, useBrowserHaven } from './browserHaven';

const adminEmail = uniqueEmail('admin');
const password = 'a calm long password';
/** A word in the test's own names, so the search finds only this file's people in the shared database. */
const tag = `Q${Date.now().toString(36)}`;

const people = {
  trialing: { email: uniqueEmail('trialing'), firstName: 'Wren', lastName: `Ashby${tag}` },
  unverified: { email: uniqueEmail('unverified'), firstName: 'Tobias', lastName: `Ashby${tag}` },
};
/** People the admin deletes (their own surname, so the other tests' rows stay as they are). */
const leaving = {
  one: { email: uniqueEmail('leaving-one'), firstName: 'Ivo', lastName: `Bramble${tag}` },
  two: { email: uniqueEmail('leaving-two'), firstName: 'Nell', lastName: `Bramble${tag}` },
  three: { email: uniqueEmail('leaving-three'), firstName: 'Otto', lastName: `Bramble${tag}` },
};

const world = useBrowserHaven({ ADMIN_EMAIL: adminEmail });

beforeAll(async () => {
  const admin = await register(adminEmail, 'Ada', 'Admin');
  await verifyByEmailLink(world.haven.gatewayUrl, adminEmail, admin);
  const trialing = await register(people.trialing.email, people.trialing.firstName, people.trialing.lastName);
  await verifyByEmailLink(world.haven.gatewayUrl, people.trialing.email, trialing);
  await startTrial(trialing);
  await register(people.unverified.email, people.unverified.firstName, people.unverified.lastName);
  const one = await register(leaving.one.email, leaving.one.firstName, leaving.one.lastName);
  await startTrial(one);
  await register(leaving.two.email, leaving.two.firstName, leaving.two.lastName);
  await register(leaving.three.email, leaving.three.firstName, leaving.three.lastName);
});

async function register(email: string, firstName: string, lastName: string): Promise<ApiClient> {
  const client = new ApiClient(world.haven.gatewayUrl);
  const response = await client.post('/api/auth/register', { email, password, firstName, lastName });
  expect(response.status).toBe(201);
  return client;
}

/** A browser page signed in through the real /auth form. */
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

const rowEmails = async (page: Page) =>
  (await page.getByTestId('admin-user-row').locator('td:nth-child(2) div:last-child').allTextContents()).sort();

it('lets the admin see the counts, search in any case and filter by status', async () => {
  const page = await signedInPage(adminEmail);
  // The way in: Settings' Admin Panel card.
  await page.goto(`${world.haven.gatewayUrl}/settings`);
  await page.getByRole('link', { name: 'User Management' }).click();
  await page.getByRole('heading', { name: 'User Management', level: 1 }).waitFor();
  await page.getByTestId('stat-total-users').waitFor();
  expect(await page.locator('.admin-users__stats dt').allTextContents()).toEqual([
    'Total Users',
    'Verified',
    'Active Subscriptions',
    'Trial Users',
  ]);
  for (const column of ['User', 'Auth Provider', 'Status', 'Email Verified', 'Joined', 'Trial Ends', 'Actions']) {
    await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
  }
  // The verified share to one decimal, from the counts shown beside it.
  await eventuallyExpect('the verified count with its percentage', async () => {
    const total = Number(await page.getByTestId('stat-total-users').textContent());
    const verified = await page.getByTestId('stat-verified').textContent();
    expect(total).toBeGreaterThanOrEqual(3);
    expect(verified).toMatch(/^\d+ \(\d+\.\d%\)$/);
    const count = Number(verified!.split(' ')[0]);
    expect(verified).toContain(`(${((count / total) * 100).toFixed(1)}%)`);
  });

  const search = page.getByPlaceholder('Search users by email or name...');
  await search.fill(`ashby${tag}`.toUpperCase());
  await eventuallyExpect('both Ashbys and only them', async () =>
    expect(await rowEmails(page)).toEqual([people.trialing.email, people.unverified.email].sort()),
  );
  await page.getByTestId('user-total').getByText('2 users').waitFor();
  expect(await accessibilityViolations(page)).toEqual([]);
  const trialingRow = page.getByTestId('admin-user-row').filter({ hasText: people.trialing.email });
  await trialingRow.getByText('Trial', { exact: true }).waitFor();
  await trialingRow.getByText(`Wren Ashby${tag}`).waitFor();
  const unverifiedRow = page.getByTestId('admin-user-row').filter({ hasText: people.unverified.email });
  await unverifiedRow.getByText('Unverified', { exact: true }).waitFor();

  const status = page.getByLabel('Status');
  await status.selectOption({ label: 'Trial' });
  await eventuallyExpect('the trialing Ashby alone', async () =>
    expect(await rowEmails(page)).toEqual([people.trialing.email]),
  );
  await status.selectOption({ label: 'Unverified' });
  await eventuallyExpect('the unverified Ashby alone', async () =>
    expect(await rowEmails(page)).toEqual([people.unverified.email]),
  );
  await status.selectOption({ label: 'Active Subscription' });
  await page.getByText('No users match your search criteria.').waitFor();
  expect(await page.getByTestId('admin-user-row').count()).toBe(0);

  // Select-all takes the loaded page, and the bulk button counts it.
  await status.selectOption({ label: 'All Users' });
  await eventuallyExpect('both Ashbys again', async () => expect(await rowEmails(page)).toHaveLength(2));
  await page.getByRole('checkbox', { name: 'Select all users on this page' }).check();
  await page.getByRole('button', { name: 'Delete selected (2)' }).waitFor();
  // The confirmation asks first, and Cancel changes nothing.
  await page.getByRole('button', { name: 'Delete selected (2)' }).click();
  await page.getByRole('alertdialog').getByText('Delete 2 users?').waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('alertdialog').waitFor({ state: 'detached' });
  expect(await rowEmails(page)).toHaveLength(2);
});

it('lets the admin delete one user and bulk-delete two, each behind a confirmation', async () => {
  const page = await signedInPage(adminEmail);
  await page.goto(`${world.haven.gatewayUrl}/admin/users`);
  const search = page.getByPlaceholder('Search users by email or name...');
  await search.fill(`bramble${tag}`);
  const all = [leaving.one.email, leaving.two.email, leaving.three.email].sort();
  await eventuallyExpect('the three Brambles', async () => expect(await rowEmails(page)).toEqual(all));

  // One: the row's Delete, confirmed; their trial is cancelled with the account.
  await page.getByRole('button', { name: `Delete ${leaving.one.email}` }).click();
  await page.getByRole('alertdialog').getByText('Delete this user?').waitFor();
  await page.getByRole('button', { name: 'Delete user', exact: true }).click();
  await page.getByText('User deleted', { exact: true }).waitFor();
  await page
    .getByText(
      'User has been permanently deleted. Their subscription was cancelled and their payment details removed from the card provider.',
      { exact: true },
    )
    .waitFor();
  await eventuallyExpect('the other two Brambles', async () =>
    expect(await rowEmails(page)).toEqual([leaving.two.email, leaving.three.email].sort()),
  );

  // Two at once: select-all on the loaded page, confirmed.
  await page.getByRole('checkbox', { name: 'Select all users on this page' }).check();
  await page.getByRole('button', { name: 'Delete selected (2)' }).click();
  await page.getByRole('alertdialog').getByText('Delete 2 users?').waitFor();
  await page.getByRole('button', { name: 'Delete users', exact: true }).click();
  await page.getByText('Bulk delete completed', { exact: true }).waitFor();
  await page.getByText('2 users deleted successfully', { exact: true }).waitFor();
  await page.getByText('No users match your search criteria.').waitFor();

  // Gone for good: none of them can sign in, whatever the password.
  for (const person of Object.values(leaving)) {
    const response = await new ApiClient(world.haven.gatewayUrl).post('/api/auth/login', {
      email: person.email,
      password,
    });
    expect([person.email, response.status]).toEqual([person.email, 401]);
  }
});

it('shows a member the access-required alert and no user data', async () => {
  const page = await signedInPage(people.trialing.email);
  await page.goto(`${world.haven.gatewayUrl}/admin/users`);
  await page.getByText('Admin access required. Please contact support if you believe this is an error.').waitFor();
  expect(await page.getByTestId('admin-user-row').count()).toBe(0);
  expect(await page.getByText(people.unverified.email).count()).toBe(0);
});
