/**
 * Settings in a real browser: the Admin Panel card only for the designated admin (ADMIN_EMAIL, verified,
 * whatever its case), the account's details and counts, and "Sign out everywhere".
 */
import { type Page } from 'playwright-core';
import { uniqueEmail } from '../../tools/testing/http';
import { verifyByEmailLink } from '../../tools/testing/verification';
import { useBrowserHaven } from './browserHaven';

const adminEmail = uniqueEmail('admin');

const world = useBrowserHaven({ ADMIN_EMAIL: adminEmail.toUpperCase() });

async function registered(email: string, firstName?: string): Promise<Page> {
  const context = await world.browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('tab', { name: 'Create Account' }).click();
  if (firstName) await page.getByLabel('First name').fill(firstName);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a settings password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/subscription');
  return page;
}

it('shows the Admin Panel card to the verified admin only, and signs out everywhere', async () => {
  const admin = await registered(adminEmail, 'Ada');
  await admin.goto(`${world.haven.gatewayUrl}/settings`);
  await admin.getByRole('heading', { name: 'Account Information' }).waitFor();
  // Not before the address is verified.
  expect(await admin.getByRole('heading', { name: 'Admin Panel' }).count()).toBe(0);

  await verifyByEmailLink(world.haven.gatewayUrl, adminEmail, admin);
  await admin.reload();
  await admin.getByRole('heading', { name: 'Admin Panel' }).waitFor();
  await admin.getByRole('link', { name: 'User Management' }).waitFor();
  await admin.getByRole('button', { name: 'Export Subscribers CSV' }).waitFor();

  await admin.getByText('Ada', { exact: true }).waitFor();
  await admin.getByText('Total Quotes').waitFor();

  // Another verified user: no card.
  const memberEmail = uniqueEmail('member');
  const member = await registered(memberEmail);
  await verifyByEmailLink(world.haven.gatewayUrl, memberEmail, member);
  await member.goto(`${world.haven.gatewayUrl}/settings`);
  await member.getByRole('heading', { name: 'Account Actions' }).waitFor();
  await member.getByText('User', { exact: true }).waitFor();
  expect(await member.getByRole('heading', { name: 'Admin Panel' }).count()).toBe(0);

  // "Sign out everywhere" ends the admin's sessions and leaves the other account signed in.
  await admin.getByRole('button', { name: 'Sign out everywhere' }).click();
  await admin.waitForURL('**/auth');
  await admin.goto(`${world.haven.gatewayUrl}/settings`);
  await admin.waitForURL('**/auth');
  await member.reload();
  await member.getByRole('heading', { name: 'Account Actions' }).waitFor();
});
