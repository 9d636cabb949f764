/**
 * The cookie banner in a real browser (Debian's Chromium, Playwright) against the whole of Haven,
 * with the banner on: its three paths (Accept All, Essential Only and the close icon, Customize),
 * the choice surviving a reload and a sign-in (the banner stays hidden), nothing but the consent cookie set
 * before a choice, the Settings card reopening the detailed view, and a first visit that asks the server nothing
 * (the gateway's page says there is no choice yet) and so logs no error.
 */
import { type Page, type Request } from 'playwright-core';
import { uniqueEmail } from '../../tools/testing/http';
import { accessibilityViolations, useBrowserHaven } from './browserHaven';

const world = useBrowserHaven({ COOKIE_BANNER_ENABLED: 'true' });

async function newPage(): Promise<Page> {
  // Reduced motion: the landing page's sections are at full opacity, so axe measures contrast as people see it.
  const context = await world.browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 412, height: 900 },
    reducedMotion: 'reduce',
  });
  return context.newPage();
}

const banner = (page: Page) => page.getByTestId('cookie-banner');
const isConsentCheck = (request: Request) =>
  request.url().endsWith('/api/gdpr/cookie-consent') && request.method() === 'GET';

/**
 * Opens a page (`open`) and waits until the app has decided whether the banner shows, so "hidden" means decided.
 * The status of the app's check, or null when it asked nothing: a browser with neither a session nor a consent
 * cookie gets a page that says the server has no choice for it.
 */
async function checked(page: Page, open: () => Promise<unknown>): Promise<number | null> {
  const checks: Request[] = [];
  const onRequest = (request: Request) => {
    if (isConsentCheck(request)) checks.push(request);
  };
  page.on('request', onRequest);
  try {
    await open();
    await page.locator('html[data-consent-checked]').waitFor({ state: 'attached' });
  } finally {
    page.off('request', onRequest);
  }
  expect(checks.length).toBeLessThanOrEqual(1);
  const [check] = checks;
  return check ? (await check.response())!.status() : null;
}

const openChecked = (page: Page, path: string) => checked(page, () => page.goto(`${world.haven.gatewayUrl}${path}`));
const reloadChecked = (page: Page) => checked(page, () => page.reload());

/** What the server has for this browser (or its account): the same request the banner makes. */
async function serverChoice(page: Page) {
  const response = await page.request.get(`${world.haven.gatewayUrl}/api/gdpr/cookie-consent`);
  return { status: response.status(), body: response.status() === 200 ? await response.json() : null };
}

async function cookieNames(page: Page): Promise<string[]> {
  return (await page.context().cookies()).map((cookie) => cookie.name).sort();
}

it('logs no error on a first visit to the landing page, and shows the banner without asking the server', async () => {
  const page = await newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  expect(await openChecked(page, '/')).toBeNull();
  await banner(page).getByRole('heading', { name: 'We value your privacy' }).waitFor();
  await page.getByRole('heading', { name: 'Track. Reflect. Thrive.', level: 1 }).waitFor();
  await page.getByTestId('landing-loader').waitFor({ state: 'detached' });
  expect(errors).toEqual([]);
  // The server still answers 404 (no choice recorded) to anyone who asks.
  expect(await serverChoice(page)).toEqual({ status: 404, body: null });
  await page.context().close();
});

it('accepts all, stays hidden after a reload and after signing up, and the account keeps the choice', async () => {
  const page = await newPage();
  // A first visit: the page says there is no choice yet, so the app asks nothing and the banner shows.
  expect(await openChecked(page, '/')).toBeNull();
  await banner(page).getByRole('heading', { name: 'We value your privacy' }).waitFor();
  // Nothing is stored in the browser before a choice: no cookies, nothing in storage but what the app had.
  expect(await cookieNames(page)).toEqual([]);
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
  expect(await accessibilityViolations(page)).toEqual([]);

  await banner(page).getByRole('button', { name: 'Accept All' }).click();
  await banner(page).waitFor({ state: 'detached' });
  expect(await serverChoice(page)).toMatchObject({
    status: 200,
    body: { necessary: true, analytics: true, marketing: true, preferences: true, consentGivenAt: expect.any(String) },
  });
  const [consentCookie] = await page.context().cookies();
  expect(consentCookie).toMatchObject({ name: 'haven_consent', httpOnly: true, sameSite: 'Lax' });

  expect(await reloadChecked(page)).toBe(200);
  expect(await banner(page).count()).toBe(0);

  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByLabel('Email').fill(uniqueEmail('consent'));
  await page.getByLabel('Password').fill('a calm long password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();
  expect(await banner(page).count()).toBe(0);

  // Signed in: the visitor's choice moved to the account, its cookie is gone, the banner stays away.
  expect(await reloadChecked(page)).toBe(200);
  expect(await banner(page).count()).toBe(0);
  expect(await cookieNames(page)).toEqual(['haven_session']);
  expect((await serverChoice(page)).body).toMatchObject({ analytics: true, marketing: true, preferences: true });
});

it('saves essential only, from the button and from the close icon', async () => {
  for (const control of ['Essential Only', 'Close (essential cookies only)']) {
    const page = await newPage();
    expect(await openChecked(page, '/about')).toBeNull();
    await banner(page).getByRole('button', { name: control }).click();
    await banner(page).waitFor({ state: 'detached' });
    expect(await serverChoice(page)).toMatchObject({
      status: 200,
      body: { necessary: true, analytics: false, marketing: false, preferences: false },
    });
    expect(await reloadChecked(page)).toBe(200);
    expect(await banner(page).count()).toBe(0);
    await page.context().close();
  }
});

it('customises: essential locked on, the chosen switches saved, Back returns to the summary', async () => {
  const page = await newPage();
  expect(await openChecked(page, '/faq')).toBeNull();
  // In the dark theme (the light one is checked on the landing page above).
  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  expect(await reloadChecked(page)).toBeNull();
  await banner(page).getByRole('button', { name: 'Customize' }).click();
  const essential = banner(page).getByRole('switch', { name: 'Essential cookies' });
  expect(await essential.getAttribute('aria-checked')).toBe('true');
  expect(await essential.isDisabled()).toBe(true);
  for (const name of ['Analytics cookies', 'Marketing cookies', 'Preference cookies']) {
    expect(await banner(page).getByRole('switch', { name }).getAttribute('aria-checked')).toBe('false');
  }
  expect(await accessibilityViolations(page)).toEqual([]);

  await banner(page).getByRole('button', { name: 'Back' }).click();
  await banner(page).getByRole('button', { name: 'Accept All' }).waitFor();
  await banner(page).getByRole('button', { name: 'Customize' }).click();

  await banner(page).getByRole('switch', { name: 'Analytics cookies' }).click();
  await banner(page).getByRole('switch', { name: 'Preference cookies' }).click();
  await banner(page).getByRole('button', { name: 'Save Preferences' }).click();
  await banner(page).waitFor({ state: 'detached' });
  expect((await serverChoice(page)).body).toMatchObject({
    necessary: true,
    analytics: true,
    marketing: false,
    preferences: true,
  });
  expect(await reloadChecked(page)).toBe(200);
  expect(await banner(page).count()).toBe(0);
});

it('shows the choice in Settings and changes it through the banner’s detailed view', async () => {
  const page = await newPage();
  expect(await openChecked(page, '/auth')).toBeNull();
  await banner(page).getByRole('button', { name: 'Essential Only' }).click();
  await banner(page).waitFor({ state: 'detached' });
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByLabel('Email').fill(uniqueEmail('settings'));
  await page.getByLabel('Password').fill('a calm long password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();

  await page.goto(`${world.haven.gatewayUrl}/settings`);
  const card = page.getByTestId('gdpr-status');
  await card.getByText('Essential cookies only', { exact: true }).waitFor();
  await card.getByText('Data protection tools:').waitFor();
  await card.getByRole('button', { name: 'Change cookie settings' }).click();
  await banner(page).getByRole('switch', { name: 'Marketing cookies' }).click();
  await banner(page).getByRole('button', { name: 'Save Preferences' }).click();
  await banner(page).waitFor({ state: 'detached' });
  await card.getByText('Essential cookies, plus marketing cookies', { exact: true }).waitFor();
  expect((await serverChoice(page)).body).toMatchObject({ analytics: false, marketing: true, preferences: false });
});
