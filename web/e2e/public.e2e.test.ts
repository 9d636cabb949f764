/**
 * The public face in a real browser (Debian's Chromium through Playwright, against the whole of
 * Haven): the loader then every landing section, the mobile menu, the newsletter form, a bundle
 * that fails to arrive, the legal pages, the FAQ's deep links and structured data, the help page offline, and an
 * axe scan of every public page and /auth in both themes.
 */
import { type BrowserContextOptions, type Page } from 'playwright-core';
import { accessibilityViolations, reachHelpInOneTap, useBrowserHaven } from './browserHaven';

const TITLE_SUFFIX = / \| Haven - Mental Health Support$|^Haven - Mental Health Support$/;
const PHONE = { width: 412, height: 900 };
const DESKTOP = { width: 1280, height: 900 };

const world = useBrowserHaven();

async function newPage(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await world.browser.newContext({ serviceWorkers: 'block', viewport: PHONE, ...options });
  return context.newPage();
}

async function expectTitle(page: Page, pattern: RegExp) {
  await page.waitForFunction((source) => new RegExp(source).test(document.title), pattern.source);
}

it('shows the five-dot loader, then the landing page with every section in order, without loading Apollo', async () => {
  const page = await newPage({ viewport: DESKTOP, locale: 'en-GB', timezoneId: 'Europe/London' });
  const scripts: string[] = [];
  const otherOrigins = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'script') scripts.push(url.pathname);
    if (url.origin !== new URL(world.haven.gatewayUrl).origin && url.protocol.startsWith('http'))
      otherOrigins.add(url.origin);
  });
  // The five dots from the first paint (index.html's, then the landing page's own until 1.5 s have passed).
  // Watched from before the first byte, so a slow machine that shows them only briefly is still seen.
  await page.addInitScript(() => {
    const seen = window as unknown as { sawFiveDots?: boolean };
    const look = () => {
      const loader = document.querySelector('.boot-loader, [data-testid="landing-loader"]');
      if (loader !== null && loader.querySelectorAll('span, svg').length === 5) seen.sawFiveDots = true;
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true });
    look();
  });
  await page.goto(`${world.haven.gatewayUrl}/`, { waitUntil: 'commit' });
  await page.waitForFunction(() => (window as unknown as { sawFiveDots?: boolean }).sawFiveDots === true);
  // The page renders beneath the loader.
  await page.getByRole('heading', { name: 'Track. Reflect. Thrive.', level: 1 }).waitFor({ state: 'attached' });
  await page.getByTestId('landing-loader').waitFor({ state: 'detached' });
  expect(await page.locator('.boot-loader').count()).toBe(0);
  await expectTitle(page, TITLE_SUFFIX);

  const headings = await page.locator('main h2').allInnerTexts();
  expect(headings).toEqual([
    'What is Haven?',
    'How It Works',
    'Why Choose Haven?',
    'Important Notice',
    'Ready to Start?',
    'Stay in Touch',
  ]);
  expect(await page.locator('#features .point').count()).toBe(5);
  expect(await page.locator('#how-it-works .step h3').allInnerTexts()).toEqual([
    'Daily Check-ins',
    'Instant Feedback',
    'Gentle Guidance',
    'Track Patterns',
  ]);
  expect(await page.locator('#why-choose .point').count()).toBe(5);
  await page.getByRole('heading', { name: 'Perfect For' }).waitFor();
  const notice = page.locator('section', { has: page.getByRole('heading', { name: 'Important Notice' }) });
  // A visitor in the UK sees the UK's lines, and no other country's.
  const noticeText = await notice.innerText();
  expect(noticeText).toMatch(/not therapy[\s\S]*United Kingdom:[\s\S]*116 123[\s\S]*85258[\s\S]*call 999\./);
  expect(noticeText).not.toContain('988');

  // Scrolling reveals the sections (they fade in).
  const sections = page.locator('.reveal');
  for (let index = 0; index < (await sections.count()); index += 1) {
    await sections.nth(index).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (nth) => document.querySelectorAll('.reveal')[nth]?.classList.contains('reveal--shown'),
      index,
    );
  }
  await page.waitForFunction(() => document.querySelectorAll('.reveal:not(.reveal--shown)').length === 0);

  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [name, href] of [
    ['Features', '#features'],
    ['About', '/about'],
    ['Why Choose', '#why-choose'],
    ['FAQ', '/faq'],
    ['Contact', '#contact'],
    ['Start Free Trial', '/auth'],
  ]) {
    expect(await nav.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href);
  }
  const footer = page.getByRole('contentinfo');
  for (const href of ['/about', '/privacy', '/terms', '/auth', '/help']) {
    expect(await footer.locator(`a[href="${href}"]`).count()).toBe(1);
  }
  expect(await footer.locator('a[href^="mailto:"]').count()).toBe(1);
  expect(await page.locator('header.public-nav').evaluate((element) => getComputedStyle(element).position)).toBe(
    'sticky',
  );

  expect(scripts.filter((path) => /apollo/i.test(path))).toEqual([]);
  // Nothing from anyone else (no payment provider's script, no fonts, no trackers) on a visitor's page.
  expect([...otherOrigins]).toEqual([]);

  // The call to action leads to /auth, which brings Apollo with it and works.
  await page.getByRole('link', { name: 'Start Your Free Trial' }).click();
  await page.waitForURL('**/auth');
  await page.getByRole('tab', { name: 'Sign In' }).waitFor();
  expect(scripts.some((path) => /apollo/i.test(path))).toBe(true);
});

it('skips the loader and the fade-ins for visitors who prefer reduced motion', async () => {
  const page = await newPage({ reducedMotion: 'reduce', locale: 'en-US', timezoneId: 'America/Chicago' });
  await page.goto(`${world.haven.gatewayUrl}/`);
  await page.getByRole('heading', { name: 'Track. Reflect. Thrive.', level: 1 }).waitFor();
  // Never shown, from the first paint (the stylesheet hides it before the app has started and removed it).
  expect(await page.getByTestId('landing-loader').isVisible()).toBe(false);
  expect(await page.locator('.reveal:not(.reveal--shown)').count()).toBe(0);
  // A visitor in the US (by time zone, nothing chosen) sees 988 and 911 once the app knows the time zone.
  const lines = page.locator('.crisis-lines li').first();
  await lines.getByText(/^United States:/).waitFor();
  expect(await lines.innerText()).toMatch(
    /^United States: 988 Suicide & Crisis Lifeline — Call or text 988 [\s\S]*call 911\.$/,
  );
  await page.getByTestId('landing-loader').waitFor({ state: 'detached' });
});

it.each([
  ['a phone', { width: 390, height: 844 }],
  ['a desktop', DESKTOP],
])(
  "frames the help page like Haven's other pages on %s: header, margins, footer, no link to itself",
  async (_name, viewport) => {
    const page = await newPage({ viewport, reducedMotion: 'reduce' });
    await page.goto(`${world.haven.gatewayUrl}/help`);
    const title = page.getByRole('heading', { name: 'Need help now?', level: 1 });
    await title.waitFor();
    await page.locator('.help-line').first().waitFor();
    await page.locator('header.public-nav').waitFor();
    await page.getByRole('contentinfo').waitFor();
    // The text keeps a margin from the screen's edges and, on a wide screen, a readable width.
    const box = (await title.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(16);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width - 16);
    const line = (await page.locator('.help-line').first().boundingBox())!;
    expect(line.x).toBeGreaterThanOrEqual(16);
    if (viewport.width >= 1000) expect(line.width).toBeLessThan(900);
    expect(await page.locator('a[href="/help"]').count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.context().close();
  },
);

it.each(['/', '/about', '/terms', '/privacy', '/faq', '/help', '/auth', '/no-such-page'])(
  'shows %s from its HTML before any script, then the app adopts that HTML without drawing it again',
  async (path) => {
    const page = await newPage({ reducedMotion: 'reduce', locale: 'en-GB', timezoneId: 'Europe/London' });
    const problems: string[] = [];
    // Every error in the console, a request's failure too: only the not-found page's own status is expected.
    page.on('console', (message) => {
      const ownStatus = path === '/no-such-page' && message.text().includes('status of 404');
      if (message.type() === 'error' && !ownStatus) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    // The app's entry script waits until the page's HTML has been looked at.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${world.haven.gatewayUrl}${path}`, { waitUntil: 'commit' });
    const heading = page.locator('h1').first();
    await heading.waitFor();
    await heading.evaluate((element) => element.setAttribute('data-seen-before-script', 'true'));
    release();
    // React has adopted the heading from the HTML (its element now carries React's fiber): it was not drawn again,
    // which would have dropped the mark.
    await page.waitForFunction(() => {
      const adopted = document.querySelector('h1[data-seen-before-script="true"]');
      return adopted !== null && Object.keys(adopted).some((key) => key.startsWith('__reactFiber'));
    });
    await page.waitForFunction(() => document.documentElement.dataset.consentChecked === 'true');
    expect(problems).toEqual([]);
    await page.context().close();
  },
);

it('lists the help for the browser’s country first on the help page with JavaScript off, inside the page’s margins', async () => {
  const page = await newPage({ javaScriptEnabled: false, locale: 'en-US', viewport: { width: 390, height: 844 } });
  await page.goto(`${world.haven.gatewayUrl}/help`);
  const mine = page.getByRole('region', { name: 'Help in United States' });
  await mine.getByText('988 Suicide & Crisis Lifeline').waitFor();
  await mine.getByText('If your life is in danger, call 911.').waitFor();
  const box = (await page.getByRole('heading', { name: 'Need help now?', level: 1 }).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(16);
  expect(box.x + box.width).toBeLessThanOrEqual(390 - 16);
  // Every other country is a tap away, without a script.
  const uk = page.locator('details', { has: page.locator('summary', { hasText: 'United Kingdom' }) });
  await uk.locator('summary').click();
  await uk.getByText('Samaritans').first().waitFor({ state: 'visible' });
  await uk.getByText('If your life is in danger, call 999.').waitFor({ state: 'visible' });
  await page.context().close();
});

// 180 s, as the other offline start (auth.e2e.test.ts): the worker's install step fetches every bundle of the build.
it('shows the crisis lines of the person’s country on the help page offline, once the service worker is installed', async () => {
  const context = await world.browser.newContext({ viewport: PHONE, locale: 'en-GB', timezoneId: 'Europe/London' });
  const page = await context.newPage();
  await page.goto(`${world.haven.gatewayUrl}/`);
  await page.getByRole('heading', { name: 'Track. Reflect. Thrive.', level: 1 }).waitFor();
  // Resolves once the worker is active, that is after its install step cached the app.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  await context.setOffline(true);
  await page.goto(`${world.haven.gatewayUrl}/help`);
  await page.getByRole('heading', { name: 'Need help now?', level: 1 }).waitFor();
  const mine = page.getByRole('region', { name: 'Help in United Kingdom' });
  await mine.getByText('Samaritans').first().waitFor();
  await mine.getByText('If your life is in danger, call 999.').waitFor();
  await context.close();
}, 180_000);

it('opens and closes the mobile menu at a phone viewport', async () => {
  const page = await newPage({ reducedMotion: 'reduce' });
  await page.goto(`${world.haven.gatewayUrl}/`);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const about = nav.getByRole('link', { name: 'About', exact: true });
  const menu = nav.getByRole('button', { name: 'Menu' });
  await menu.waitFor();
  expect(await about.isVisible()).toBe(false);
  expect(await menu.getAttribute('aria-expanded')).toBe('false');

  await menu.click();
  await about.waitFor({ state: 'visible' });
  expect(await nav.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
  await page.keyboard.press('Escape');
  await about.waitFor({ state: 'hidden' });

  await nav.getByRole('button', { name: 'Menu' }).click();
  await about.click();
  await page.waitForURL('**/about');
  await page.getByRole('heading', { name: 'About Haven', level: 1 }).waitFor();
  expect(await nav.getByRole('link', { name: 'FAQ', exact: true }).isVisible()).toBe(false);
});

it('signs up to the newsletter as the spec says: empty field, failure and success', async () => {
  const page = await newPage({ reducedMotion: 'reduce' });
  await page.goto(`${world.haven.gatewayUrl}/?email=reader%40example.com`);
  const field = page.getByLabel('Email address');
  await page.waitForFunction(
    () => (document.getElementById('newsletter-email') as HTMLInputElement | null)?.value === 'reader@example.com',
  );

  await field.fill('');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.getByText('Email Required', { exact: true }).waitFor();
  await page.getByText('Please enter your email address.', { exact: true }).waitFor();

  // While the newsletter service has no route (404), the form says it failed and stays.
  await page.route('**/api/newsletter/subscribe', (route) => route.fulfill({ status: 404, body: 'Not Found' }));
  await field.fill('reader@example.com');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.getByText('Subscription Failed', { exact: true }).waitFor();
  expect(await field.isVisible()).toBe(true);

  await page.unroute('**/api/newsletter/subscribe');
  const bodies: unknown[] = [];
  await page.route('**/api/newsletter/subscribe', async (route) => {
    bodies.push(route.request().postDataJSON());
    await route.fulfill({ status: 200, contentType: 'application/json', body: '{"message":"ok"}' });
  });
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.getByText('Successfully Subscribed!', { exact: true }).waitFor();
  await page.getByText('Welcome aboard!').waitFor();
  expect(await field.count()).toBe(0);
  expect(bodies).toEqual([{ email: 'reader@example.com', userId: null, subscriptionSource: 'website' }]);
});

it('reloads by itself when a page’s bundle fails to arrive once, and says so when it never arrives', async () => {
  const page = await newPage({ reducedMotion: 'reduce' });
  let loads = 0;
  page.on('request', (request) => {
    if (request.isNavigationRequest()) loads += 1;
  });
  // The bundle fails on the first load of the page however often it is asked for (a preload, then the import).
  await page.route('**/assets/account-*.js', (route) =>
    loads < 2 ? route.abort('internetdisconnected') : route.continue(),
  );
  await page.goto(`${world.haven.gatewayUrl}/auth`);
  // The prerendered form shows at once; it is usable only once the page's bundle has arrived, after one reload.
  await page.getByLabel('Email').and(page.locator(':enabled')).waitFor();
  expect(loads).toBe(2);

  // A bundle that never arrives: two reloads, then the error page and its own Reload button, not a loop.
  const broken = await newPage({ reducedMotion: 'reduce' });
  let pageLoads = 0;
  broken.on('request', (request) => {
    if (request.isNavigationRequest()) pageLoads += 1;
  });
  await broken.route('**/assets/account-*.js', (route) => route.abort('failed'));
  await broken.goto(`${world.haven.gatewayUrl}/auth`);
  await broken.getByRole('heading', { name: 'Something went wrong' }).waitFor();
  await broken.getByRole('button', { name: 'Reload' }).waitFor();
  expect(pageLoads).toBe(3);
  // Even a broken page keeps crisis help one tap away.
  await reachHelpInOneTap(broken);
});

it('shows About, Terms (13 numbered sections) and Privacy with their titles and ways back', async () => {
  const page = await newPage({ reducedMotion: 'reduce' });
  await page.goto(`${world.haven.gatewayUrl}/terms`);
  await page.getByRole('heading', { name: 'Terms of Service', level: 1 }).waitFor();
  await expectTitle(page, /^Terms of Service \| Haven - Mental Health Support$/);
  await page.getByText('Last updated 28 January 2025').waitFor();
  const sections = await page.locator('main h2').allInnerTexts();
  expect(sections).toHaveLength(13);
  sections.forEach((title, index) => expect(title).toMatch(new RegExp(`^${index + 1}\\. `)));

  await page.goto(`${world.haven.gatewayUrl}/privacy`);
  await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
  await expectTitle(page, /^Privacy Policy \| Haven - Mental Health Support$/);
  const privacy = await page.locator('main').innerText();
  for (const point of [
    'AI provider',
    'Stripe',
    'Google',
    'not sell',
    'under 13',
    'withdraw',
    'weekly',
    'life is in danger',
  ]) {
    expect(privacy).toContain(point);
  }
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await page.waitForURL((url) => url.pathname === '/');

  await page.goto(`${world.haven.gatewayUrl}/about`);
  await expectTitle(page, /^About Haven \| Haven - Mental Health Support$/);
  expect(await page.locator('main').innerText()).toMatch(/to notice, never to push/);
  await page.getByRole('link', { name: '← Back to Home' }).click();
  await page.waitForURL((url) => url.pathname === '/');
});

it('opens /faq#refund-policy and scrolls to it; opening another entry changes the hash', async () => {
  const page = await newPage({ viewport: DESKTOP });
  await page.goto(`${world.haven.gatewayUrl}/faq#refund-policy`);
  const refund = page.locator('#refund-policy');
  await refund.getByRole('button', { expanded: true }).waitFor();
  await refund.getByText(/not refunded for part of a month/).waitFor();
  // Scrolled so the entry is in view (it sits far below the first screen).
  await page.waitForFunction(() => {
    const box = document.getElementById('refund-policy')?.getBoundingClientRect();
    return !!box && box.top >= 0 && box.top < window.innerHeight / 2;
  });
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  expect(await page.locator('button[aria-expanded="true"]').count()).toBe(1);

  await page.locator('#streak-tracking button').click();
  await page.waitForFunction(() => window.location.hash === '#streak-tracking');
  expect(await refund.locator('button').getAttribute('aria-expanded')).toBe('false');
  await page.locator('#streak-tracking button').click();
  await page.waitForFunction(() => window.location.hash === '');

  // Several open: Expand All and Collapse All.
  await page.getByLabel('Allow several answers open').click();
  await page.getByRole('button', { name: 'Expand All' }).click();
  expect(await page.locator('.faq__trigger[aria-expanded="true"]').count()).toBe(30);
  await page.getByRole('button', { name: 'Collapse All' }).click();
  expect(await page.locator('.faq__trigger[aria-expanded="true"]').count()).toBe(0);
});

it('gives /faq its head tags and FAQPage data with 30 questions, and restores the defaults on leaving', async () => {
  const page = await newPage();
  await page.goto(`${world.haven.gatewayUrl}/faq`);
  await page.getByRole('heading', { name: 'Frequently Asked Questions', level: 1 }).waitFor();
  await expectTitle(page, /^Frequently Asked Questions \| Haven - Mental Health Support$/);
  // The page's own tags, set by the app once started (the prerendered HTML's are marked, and dropped at its start).
  await page.waitForFunction(
    () => document.querySelector('link[rel="canonical"]:not([data-prerendered-head])') !== null,
  );
  const jsonLd = await page.locator('script[type="application/ld+json"]').textContent();
  const data = JSON.parse(jsonLd ?? '{}') as { '@type': string; mainEntity: Array<{ name: string }> };
  expect(data['@type']).toBe('FAQPage');
  expect(data.mainEntity).toHaveLength(30);
  expect(data.mainEntity[0]?.name).toBe('What is Haven?');

  const head = () =>
    page.evaluate(() => ({
      description: document.querySelector('meta[name="description"]')?.getAttribute('content'),
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
      robots: document.querySelector('meta[name="robots"]')?.getAttribute('content') ?? null,
      ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? null,
    }));
  expect(await head()).toMatchObject({
    canonical: `${world.haven.gatewayUrl}/faq`,
    robots: 'index, follow',
    ogTitle: 'Frequently Asked Questions | Haven - Mental Health Support',
  });
  expect((await head()).description).toMatch(/^Answers about Haven/);

  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
  const after = await head();
  expect(after).toMatchObject({ canonical: null, robots: null, ogTitle: null });
  expect(after.description).toMatch(/^Haven is your daily emotional wellness companion/);
  expect(await page.locator('script[type="application/ld+json"]').count()).toBe(0);
});

it('has no serious accessibility problems on the public pages and /auth, in light and dark', async () => {
  // Reduced motion: every section is at full opacity, so colour contrast is measured as people see it.
  const page = await newPage({ reducedMotion: 'reduce' });
  const pages: Array<[string, string]> = [
    ['/', 'Track. Reflect. Thrive.'],
    ['/about', 'About Haven'],
    ['/terms', 'Terms of Service'],
    ['/privacy', 'Privacy Policy'],
    ['/faq', 'Frequently Asked Questions'],
  ];
  for (const theme of ['light', 'dark']) {
    await page.goto(`${world.haven.gatewayUrl}/`);
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    for (const [path, heading] of pages) {
      await page.goto(`${world.haven.gatewayUrl}${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      expect({ theme, path, violations: await accessibilityViolations(page) }).toEqual({ theme, path, violations: [] });
    }
    // An open FAQ entry and the open mobile menu, too.
    await page.locator('#refund-policy button').click();
    await page.getByRole('button', { name: 'Menu' }).click();
    expect({ theme, path: '/faq (open)', violations: await accessibilityViolations(page) }).toEqual({
      theme,
      path: '/faq (open)',
      violations: [],
    });
    await page.goto(`${world.haven.gatewayUrl}/auth`);
    await page.getByRole('tab', { name: 'Sign In' }).waitFor();
    expect({ theme, path: '/auth', violations: await accessibilityViolations(page) }).toEqual({
      theme,
      path: '/auth',
      violations: [],
    });
  }
});
