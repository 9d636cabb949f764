/**
 * The sign-up slice in a real browser: Debian's Chromium driven by Playwright,
 * against the whole of Haven (browserHaven.ts) on the real embedded database,
 * Kafka and the mail catcher.
 */
import { type Page } from 'playwright-core';
import { mailbox } from '../../tools/testing/infra-control';
import { uniqueEmail } from '../../tools/testing/http';
import { signedUpPerson, startTrial } from '../../tools/testing/subscription';
import { accessibilityViolations, useBrowserHaven } from './browserHaven';
import { addTrialCard } from './subscriptionBrowser';

const world = useBrowserHaven();

async function newPage(): Promise<Page> {
  const context = await world.browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 900 } });
  return context.newPage();
}

it('creates an account on /auth, lands on /subscription, survives a reload, signs out, and the verification e-mail arrives', async () => {
  const page = await newPage();
  const email = uniqueEmail('browser');
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await expectTitle(page, /^Sign In \| Haven - Mental Health Support$/);

  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByLabel('First name').fill('Robin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a calm long password');
  await page.getByRole('button', { name: 'Create Account' }).click();

  await page.waitForURL('**/subscription');
  await page.getByText('Registration successful', { exact: true }).waitFor();
  await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();
  await page.getByText('Subscription setup required').waitFor();

  const cookies = await page.context().cookies();
  const session = cookies.find((cookie) => cookie.name === 'haven_session');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

  await page.reload();
  await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/subscription');

  // Needs setup: the dashboard is not reachable yet, / leads to /subscription.
  await page.goto(`${world.haven.gatewayUrl}/`);
  await page.waitForURL('**/subscription');

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('heading', { name: 'Track. Reflect. Thrive.' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
  expect((await page.context().cookies()).find((cookie) => cookie.name === 'haven_session')).toBeUndefined();

  await page.goto(`${world.haven.gatewayUrl}/subscription`);
  await page.waitForURL('**/auth');

  const message = await mailbox().waitForEmail({
    to: email,
    what: `the verification e-mail to ${email}`,
  });
  expect(message.subject).toBe('Verify your email for Haven');
  expect(message.text).toContain(`${world.haven.gatewayUrl}/verify-email?token=`);
});

it('signs in with the right password and refuses the wrong one with the spec’s message', async () => {
  const email = uniqueEmail('signin');
  const setup = await newPage();
  await setup.goto(`${world.haven.gatewayUrl}/auth`);
  await setup.getByRole('tab', { name: 'Create Account' }).click();
  await setup.getByLabel('Email').fill(email);
  await setup.getByLabel('Password').fill('another long password');
  await setup.getByRole('button', { name: 'Create Account' }).click();
  await setup.waitForURL('**/subscription');
  await setup.context().close();

  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Login failed', { exact: true }).waitFor();
  await page.getByText('Invalid email or password').first().waitFor();
  expect(new URL(page.url()).pathname).toBe('/auth');

  await page.getByLabel('Password').fill('another long password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Login successful', { exact: true }).waitFor();
  await page.waitForURL('**/subscription');

  // Signed in, /auth sends the user on (to /, which for a user who needs setup is /subscription).
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.waitForURL('**/subscription');
});

it('signs in from the prerendered landing page into the dashboard, the landing page never showing after the sign-in', async () => {
  const email = uniqueEmail('from-landing');
  const { client } = await signedUpPerson(world.haven.gatewayUrl, 'from-landing', email);
  await startTrial(client);
  const page = await newPage();
  // Watched in every document from before its first byte: whether the landing page's heading is there once the
  // sign-in has been sent (said in sessionStorage, which a reload of the tab keeps).
  await page.addInitScript(() => {
    const look = () => {
      if (sessionStorage.getItem('sign-in-sent') !== 'true') return;
      const headings = Array.from(document.querySelectorAll('h1'), (heading) => heading.textContent ?? '');
      if (headings.some((text) => text.includes('Track. Reflect. Thrive.'))) {
        sessionStorage.setItem('landing-after-sign-in', 'true');
      }
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
    look();
  });
  await page.goto(`${world.haven.gatewayUrl}/`);
  await page.getByRole('heading', { name: 'Track. Reflect. Thrive.', level: 1 }).waitFor();
  // The build's HTML, served to a visitor without a session.
  expect(await page.locator('#root[data-prerendered]').count()).toBe(1);
  await page.getByTestId('landing-loader').waitFor({ state: 'detached' });

  await page.getByRole('contentinfo').getByRole('link', { name: 'Sign In' }).click();
  await page.waitForURL('**/auth');
  // The sign-in form itself: the address changes before the landing page (with its newsletter's Email) is gone.
  await page.getByRole('tab', { name: 'Sign In' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long enough password');
  let documentsLoaded = 0;
  page.on('domcontentloaded', () => (documentsLoaded += 1));
  await page.evaluate(() => sessionStorage.setItem('sign-in-sent', 'true'));
  await page.getByRole('button', { name: 'Sign In' }).click();

  await page.getByRole('heading', { name: 'How are you feeling today?', level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
  expect(await page.evaluate(() => sessionStorage.getItem('landing-after-sign-in'))).toBeNull();
  // Into the app without loading the page again.
  expect(documentsLoaded).toBe(0);
  await page.context().close();
});

it('signs in on the prerendered /auth into the dashboard, the form shown from its HTML until the sign-in and no landing page after', async () => {
  const email = uniqueEmail('prerendered-auth');
  const { client } = await signedUpPerson(world.haven.gatewayUrl, 'prerendered-auth', email);
  await startTrial(client);
  const page = await newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  // Watched from before the first byte: once the sign-in form's heading is there, whether it ever goes before the
  // sign-in is sent (a spinner or a page drawn again while the app starts), and whether the landing page shows after.
  await page.addInitScript(() => {
    const look = () => {
      const headings = Array.from(document.querySelectorAll('h1'), (heading) => heading.textContent ?? '');
      const sent = sessionStorage.getItem('sign-in-sent') === 'true';
      if (headings.includes('Welcome to Haven')) sessionStorage.setItem('form-seen', 'true');
      else if (!sent && sessionStorage.getItem('form-seen') === 'true') sessionStorage.setItem('form-gone', 'true');
      if (sent && headings.some((text) => text.includes('Track. Reflect. Thrive.'))) {
        sessionStorage.setItem('landing-after-sign-in', 'true');
      }
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
    look();
  });
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('heading', { name: 'Welcome to Haven', level: 1 }).waitFor();
  // The build's HTML, served to a visitor without a session.
  expect(await page.locator('#root[data-prerendered]').count()).toBe(1);
  // Filled once the page's script has made the fields usable (the HTML's are disabled until then).
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long enough password');
  let documentsLoaded = 0;
  page.on('domcontentloaded', () => (documentsLoaded += 1));
  await page.evaluate(() => sessionStorage.setItem('sign-in-sent', 'true'));
  await page.getByRole('button', { name: 'Sign In' }).click();

  await page.getByText('Login successful', { exact: true }).waitFor();
  await page.getByRole('heading', { name: 'How are you feeling today?', level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
  const seen = await page.evaluate(() => ({
    formSeen: sessionStorage.getItem('form-seen'),
    formGone: sessionStorage.getItem('form-gone'),
    landing: sessionStorage.getItem('landing-after-sign-in'),
  }));
  expect(seen).toEqual({ formSeen: 'true', formGone: null, landing: null });
  // Into the app without loading the page again, and React adopted the HTML without complaint.
  expect(documentsLoaded).toBe(0);
  expect(problems).toEqual([]);
  await page.context().close();
});

/** Console errors and uncaught exceptions of `page` (a hydration mismatch is one), from now on. */
function problemsOf(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** The prerendered /auth, its "Create Account" tab chosen the moment the page's script makes it usable. */
async function createAccountTabAsSoonAsUsable(page: Page): Promise<void> {
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  expect(await page.locator('#root[data-prerendered]').count()).toBe(1);
  const tab = page.getByRole('tab', { name: 'Create Account' });
  await tab.and(page.locator(':enabled')).waitFor();
  await tab.click();
}

it('creates an account on the prerendered /auth the moment it is usable, and lands signed in on /subscription', async () => {
  const page = await newPage();
  const problems = problemsOf(page);
  await createAccountTabAsSoonAsUsable(page);
  await page.getByLabel('Email').fill(uniqueEmail('prerendered-sign-up'));
  await page.getByLabel('Password').fill('a calm long password');
  await page.getByRole('button', { name: 'Create Account' }).click();

  await page.getByText('Registration successful', { exact: true }).waitFor();
  await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();
  await page.getByText('Subscription setup required').waitFor();
  expect(new URL(page.url()).pathname).toBe('/subscription');
  // Signed in, in the app's frame: the assumed signed-out state of the page's start is gone.
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  expect(await page.getByRole('heading', { name: 'Welcome to Haven' }).count()).toBe(0);
  expect(problems).toEqual([]);
  await page.context().close();
});

it('welcomes a person who signed up on the prerendered /auth: the first card lands them on / with the welcome', async () => {
  const page = await newPage();
  const problems = problemsOf(page);
  await createAccountTabAsSoonAsUsable(page);
  await page.getByLabel('First name').fill('Robin');
  await page.getByLabel('Email').fill(uniqueEmail('prerendered-welcome'));
  await page.getByLabel('Password').fill('a calm long password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();

  await addTrialCard(page, '4242 4242 4242 4242');
  const modal = page.getByRole('dialog', { name: 'Welcome to Haven Premium!' });
  await modal.waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
  await modal.getByRole('button', { name: 'Start My Wellness Journey' }).click();
  await modal.waitFor({ state: 'hidden' });
  await page.getByRole('heading', { name: 'How are you feeling today?', level: 1 }).waitFor();
  expect(problems).toEqual([]);
  await page.context().close();
});

it('shows the client-side validation before anything is sent', async () => {
  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await expect(page.getByLabel('Password').getAttribute('placeholder')).resolves.toBe(
    'Create a password (min 8 characters)',
  );
  await page.getByLabel('Email').fill(uniqueEmail('short'));
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByText('Password must be at least 8 characters').waitFor();
  expect(new URL(page.url()).pathname).toBe('/auth');
});

it('brings the Google button back to /auth with a note while Google is not configured', async () => {
  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page
    .getByText('Google sign-in is not available yet. Please use your email and password.', { exact: true })
    .waitFor();
  expect(new URL(page.url()).pathname).toBe('/auth');
  expect(new URL(page.url()).search).toBe('');
});

it('shows "404 Page Not Found" for an unknown path', async () => {
  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/no/such/page`);
  await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
  await expectTitle(page, /Haven - Mental Health Support$/);
});

/** A phone the size of the one the toast papercut was found on: 390 × 844 CSS pixels. */
const PHONE = { width: 390, height: 844 };

interface ToastBox {
  text: string | null;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Runs in the page before its own scripts: on every animation frame, notes each toast whose box
 * (transforms included, so the entrance and exit count too) is not wholly inside the screen.
 */
function watchToastsOutsideScreen({ width, height }: { width: number; height: number }) {
  const outside: ToastBox[] = [];
  (window as unknown as { toastsOutsideScreen: ToastBox[] }).toastsOutsideScreen = outside;
  const sample = () => {
    for (const element of document.querySelectorAll('.toast')) {
      const { left, top, right, bottom } = element.getBoundingClientRect();
      if (left < 0 || top < 0 || right > width || bottom > height) {
        outside.push({ text: element.textContent, left, top, right, bottom });
      }
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}

/** Waits for the toast titled `title` to finish arriving; returns every toast box seen outside the screen so far. */
async function toastsOutsideScreen(page: Page, title: string): Promise<ToastBox[]> {
  const toast = page.locator('.toast').filter({ has: page.getByText(title, { exact: true }) });
  await toast.waitFor();
  await toast.evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)));
  return page.evaluate(() => (window as unknown as { toastsOutsideScreen: ToastBox[] }).toastsOutsideScreen);
}

it('keeps every toast inside the screen of a 390 × 844 phone', async () => {
  const context = await world.browser.newContext({
    serviceWorkers: 'block',
    viewport: PHONE,
    screen: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 3,
  });
  await context.addInitScript(watchToastsOutsideScreen, PHONE);
  const page = await context.newPage();
  const email = uniqueEmail('phone');

  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a phone-sized password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  expect(await toastsOutsideScreen(page, 'Login failed')).toEqual([]);

  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByLabel('First name').fill('Robin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a phone-sized password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/subscription');
  expect(await toastsOutsideScreen(page, 'Registration successful')).toEqual([]);

  await page.goto(`${world.haven.gatewayUrl}/settings`);
  await page.getByLabel('Dark Mode').click();
  expect(await toastsOutsideScreen(page, 'Theme updated')).toEqual([]);
  await context.close();
});

// 180 s, as a journey gets: the worker's install step fetches every bundle of the build, and on a loaded two-core
// machine (the container stage's own browser Haven beside this one) that alone has taken over a minute.
it('starts offline after one visit: the service worker keeps every area’s bundle, not only the first page’s', async () => {
  const context = await world.browser.newContext({ viewport: { width: 412, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${world.haven.gatewayUrl}/`);
  await page.getByRole('heading', { name: 'Track. Reflect. Thrive.' }).waitFor();
  // Resolves once the worker is active, that is after its install step cached the app shell.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  await context.setOffline(true);
  // /auth lives in the account area, a bundle this visit never loaded.
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
  await context.close();
}, 180_000);

async function expectTitle(page: Page, pattern: RegExp) {
  await page.waitForFunction((source) => new RegExp(source).test(document.title), pattern.source);
}

it('has no serious accessibility problems on /auth, /subscription or the not-found page, in light and dark', async () => {
  const page = await newPage();
  for (const theme of ['light', 'dark']) {
    await page.goto(`${world.haven.gatewayUrl}/auth`);
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    await page.reload();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect({ theme, page: '/auth', violations: await accessibilityViolations(page) }).toEqual({
      theme,
      page: '/auth',
      violations: [],
    });

    await page.goto(`${world.haven.gatewayUrl}/missing`);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect({ theme, page: '404', violations: await accessibilityViolations(page) }).toEqual({
      theme,
      page: '404',
      violations: [],
    });
  }

  await page.goto(`${world.haven.gatewayUrl}/auth`);
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByLabel('Email').fill(uniqueEmail('a11y'));
  await page.getByLabel('Password').fill('accessible password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/subscription');
  await page.getByText('Subscription setup required').waitFor();
  expect(await accessibilityViolations(page)).toEqual([]);
});
