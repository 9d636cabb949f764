/**
 * Settings in a real browser: the Admin Panel card only for the designated admin (ADMIN_EMAIL, verified,
 * whatever its case), the account's details and counts, and "Sign out everywhere".
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { apps, startApps, type AppPorts, type RunningApps } from '../../tools/dev/apps';
import { ensureDevKeys } from '../../tools/dev/keys';
import { freePorts, repoRoot } from '../../tools/infra';
import { testInfra } from '../../tools/testing/test-env';
import { uniqueEmail } from '../../tools/testing/http';
import { verifyByEmailLink } from '../../tools/testing/verification';

const chromiumPath = process.env.HAVEN_CHROMIUM ?? '/usr/bin/chromium';
const adminEmail = uniqueEmail('admin');
let haven: RunningApps;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(repoRoot, 'web', 'dist', 'index.html'))) {
    throw new Error('web/dist is missing: `make test` builds it (npm run -w web build)');
  }
  const stateDir = mkdtempSync(join(tmpdir(), 'haven-e2e-'));
  const portList = await freePorts(apps.length);
  const ports = Object.fromEntries(apps.map((app, index) => [app.name, portList[index]])) as AppPorts;
  haven = await startApps({
    stateDir,
    infra: testInfra(),
    keys: ensureDevKeys(stateDir),
    ports,
    appUrl: `http://localhost:${ports.gateway}`,
    output: 'files',
    env: { RATE_LIMIT_AUTH_MAX: '100', LOG_LEVEL: 'warn', ADMIN_EMAIL: adminEmail.toUpperCase() },
  });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await browser?.close();
  await haven?.stop();
});

async function registered(email: string, firstName?: string): Promise<Page> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${haven.gatewayUrl}/auth`);
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
  await admin.goto(`${haven.gatewayUrl}/settings`);
  await admin.getByRole('heading', { name: 'Account Information' }).waitFor();
  // Not before the address is verified.
  expect(await admin.getByRole('heading', { name: 'Admin Panel' }).count()).toBe(0);

  await verifyByEmailLink(haven.gatewayUrl, adminEmail);
  await admin.reload();
  await admin.getByRole('heading', { name: 'Admin Panel' }).waitFor();
  await admin.getByRole('link', { name: 'User Management' }).waitFor();
  await admin.getByRole('button', { name: 'Export Subscribers CSV' }).waitFor();

  await admin.getByText('Ada', { exact: true }).waitFor();
  await admin.getByText('Total Quotes').waitFor();

  // Another verified user: no card.
  const memberEmail = uniqueEmail('member');
  const member = await registered(memberEmail);
  await verifyByEmailLink(haven.gatewayUrl, memberEmail);
  await member.goto(`${haven.gatewayUrl}/settings`);
  await member.getByRole('heading', { name: 'Account Actions' }).waitFor();
  await member.getByText('User', { exact: true }).waitFor();
  expect(await member.getByRole('heading', { name: 'Admin Panel' }).count()).toBe(0);

  // "Sign out everywhere" ends the admin's sessions and leaves the other account signed in.
  await admin.getByRole('button', { name: 'Sign out everywhere' }).click();
  await admin.waitForURL('**/auth');
  await admin.goto(`${haven.gatewayUrl}/settings`);
  await admin.waitForURL('**/auth');
  await member.reload();
  await member.getByRole('heading', { name: 'Account Actions' }).waitFor();
});
