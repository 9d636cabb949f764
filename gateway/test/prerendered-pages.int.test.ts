/**
 * The public pages as a visitor's browser first receives them from the gateway serving the real web build: the
 * HTML alone, no script run. Each page's heading and main text are in it; the help page puts the visitor's country
 * first (their pick in the country cookie, else their browser's language) and lists every other; a signed-in
 * visitor gets the app's shell instead; an unknown address is the not-found page with status 404. A browser with
 * neither a session nor a consent cookie gets its page marked so, and the page then asks for no cookie choice.
 */
import { signSessionToken } from '@haven/platform';
import { existsSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { get } from 'node:http';
import { join } from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import type { RunningGateway } from '../src/app';
import { loadGatewayConfig, startGateway } from '../src/main';
import { repoRoot } from '../../tools/infra';
import { testKeys } from '../../tools/testing/haven';
import { testInfra } from '../../tools/testing/infra-control';

const webDist = join(repoRoot, 'web', 'dist');
let gateway: RunningGateway;

beforeAll(async () => {
  if (!existsSync(join(webDist, 'pages', 'pages.json'))) {
    throw new Error('web/dist/pages is missing: `make test` builds it (npm run -w web build)');
  }
  const infra = testInfra();
  const unused = 'http://127.0.0.1:9/graphql';
  gateway = await startGateway(
    loadGatewayConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.HAVEN_TEST_LOG_LEVEL ?? 'silent',
      PORT: '0',
      MONGO_URL: infra.mongoUrl,
      MONGO_DB: `t${randomBytes(4).toString('hex')}_pages`,
      KAFKA_BROKERS: infra.kafkaBrokers.join(','),
      JWT_PUBLIC_KEY: testKeys().publicKey,
      SUBGRAPH_SECRET: randomBytes(24).toString('hex'),
      APP_URL: 'https://haven.example',
      USER_SERVICE_URL: unused,
      QUOTE_SERVICE_URL: unused,
      BILLING_SERVICE_URL: unused,
      NOTIFICATION_SERVICE_URL: unused,
      COMPLIANCE_SERVICE_URL: unused,
      WEB_DIST_DIR: webDist,
    }),
  );
});

afterAll(async () => {
  await gateway?.stop();
});

/** The page as text a person reads: the root's HTML without tags, scripts or the head. */
function readableText(html: string): string {
  const body = html.slice(html.indexOf('<div id="root"'));
  return body
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&')
    .replaceAll('&#x27;', "'")
    .replace(/\s+/g, ' ');
}

async function page(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}${path}`, { headers: { 'accept-encoding': 'identity', ...headers } });
  const html = await response.text();
  return { response, html, text: readableText(html) };
}

function h1Of(html: string): string | undefined {
  return /<h1[^>]*>([\s\S]*?)<\/h1>/
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .trim();
}

it.each([
  ['/', 'Track. Reflect. Thrive.', 'your daily emotional wellness companion'],
  ['/about', 'About Haven', 'Haven'],
  ['/terms', 'Terms of Service', 'Agreement to these terms'],
  ['/privacy', 'Privacy Policy', 'your data'],
  ['/faq', 'Frequently Asked Questions', 'Still have questions?'],
  ['/help', 'Need help now?', 'You do not have to go through this alone.'],
  ['/auth', 'Welcome to Haven', 'Sign in or create an account to start your emotional wellness journey.'],
])('serves %s with its heading and main text in the HTML, before any script', async (path, heading, text) => {
  const { response, html } = await page(path);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  expect(response.headers.get('cache-control')).toBe('no-cache');
  expect(h1Of(html)).toBe(heading);
  expect(readableText(html)).toContain(text);
  // Its own title, and the site's origin where the build left a placeholder.
  expect(html).toMatch(/<title>[^<]*Haven - Mental Health Support<\/title>/);
  expect(html).not.toContain('%HAVEN_APP_ORIGIN%');
  expect(html).toContain(`<link rel="canonical" href="https://haven.example${path}"`);
  // The note that Haven needs JavaScript goes where the page reads without it; sign-in's form needs it.
  expect(html.includes('<noscript>')).toBe(path === '/auth');
  // Styled by its own HTML: no stylesheet to wait for before the first paint.
  expect(html).not.toMatch(/<link rel="stylesheet"/);
  expect(html).toMatch(/<style>:root\{/);
  expect(html).toMatch(/<\/div>\s*<\/body>/);
});

it('puts the help of the visitor’s browser language’s country first, and lists every other country', async () => {
  const { text, response } = await page('/help', { 'accept-language': 'en-US,en;q=0.9' });
  expect(response.headers.get('vary')).toContain('Accept-Language');
  const us = text.indexOf('988 Suicide & Crisis Lifeline');
  const otherCountries = text.indexOf('Every other country');
  expect(us).toBeGreaterThan(0);
  expect(us).toBeLessThan(otherCountries);
  expect(text.slice(us, otherCountries)).toContain('If your life is in danger, call 911.');
  // Every other country is there too, the UK's Samaritans among them.
  expect(text.indexOf('Samaritans')).toBeGreaterThan(otherCountries);
});

it('puts the country the person picked (the country cookie) before their browser’s language', async () => {
  const { text } = await page('/help', { 'accept-language': 'en-US', cookie: 'haven_country=GB' });
  const firstLines = text.slice(0, text.indexOf('Every other country'));
  expect(firstLines).toContain('Samaritans');
  expect(firstLines).toContain('If your life is in danger, call 999.');
  expect(firstLines).not.toContain('988');
});

it('gives the helpline directory first to a person who picked “Somewhere else”, whatever their language', async () => {
  const { text } = await page('/help', { 'accept-language': 'en-US', cookie: 'haven_country=ZZ' });
  const firstLines = text.slice(0, text.indexOf('Every other country'));
  expect(firstLines).toContain('Find A Helpline');
  expect(firstLines).not.toContain('988');
});

it('serves a signed-in visitor the app’s shell, never a signed-out page that would flash before theirs', async () => {
  const token = signSessionToken({ userId: randomUUID(), sessionId: randomUUID() }, testKeys().privateKey, 600);
  const pages: Array<[string, string]> = [
    ['/', 'Track. Reflect. Thrive.'],
    // Sign-in too: the app sends a signed-in person on from there.
    ['/auth', 'Welcome to Haven'],
  ];
  for (const [path, heading] of pages) {
    const { response, html } = await page(path, { cookie: `haven_session=${token}` });
    expect(response.status).toBe(200);
    expect(html).toMatch(/<div id="root">\s*<div class="boot-loader"/);
    expect(html).not.toContain(heading);
  }
  // A forged or expired cookie is no session: the landing page.
  const forged = await page('/', { cookie: `haven_session=${token.slice(0, -4)}AAAA` });
  expect(h1Of(forged.html)).toBe('Track. Reflect. Thrive.');
});

it('serves sign-in with its form labelled in the HTML, every control waiting for the script', async () => {
  const { html, text } = await page('/auth');
  expect(html).toMatch(/<title>Sign In \| Haven - Mental Health Support<\/title>/);
  expect(html).toMatch(/<form [^>]*aria-label="Sign in">/);
  for (const [id, label] of [
    ['signin-email', 'Email'],
    ['signin-password', 'Password'],
  ]) {
    expect(html).toContain(`<label class="label" for="${id}">${label}</label>`);
    // Disabled until the page's script has adopted it: typed before, a password would be sent in the address.
    expect(html).toMatch(new RegExp(`<input [^>]*disabled="" id="${id}"`));
  }
  expect(html).toMatch(/<button type="submit"[^>]*disabled="">Sign In<\/button>/);
  // The tabs too: "Create Account" chosen before the script would be lost, leaving the sign-in form under it.
  for (const tab of ['Sign In', 'Create Account']) {
    expect(html).toMatch(new RegExp(`<button type="button" role="tab"[^>]* disabled=""[^>]*>${tab}</button>`));
  }
  for (const words of ['Sign In', 'Create Account', 'Continue with Google', 'Terms of Service', 'Privacy Policy']) {
    expect(text).toContain(words);
  }
});

it.each([
  ['/verify-email', 'Verifying your email'],
  ['/unsubscribe-newsletter', 'Unsubscribing'],
])(
  'serves %s, the page an e-mail’s link opens, as its link being checked, kept from search engines',
  async (path, heading) => {
    // The token is in the address: the page is the same for every link, and its script checks the link.
    const { response, html } = await page(`${path}?token=${randomBytes(16).toString('hex')}`);
    expect(response.status).toBe(200);
    expect(h1Of(html)).toBe(heading);
    expect(html).toContain('role="status"');
    expect(html).toContain('<meta name="robots" content="noindex"');
    expect(html).toContain('<noscript>');
    const sitemap = await (await fetch(`${gateway.url}/sitemap.xml`)).text();
    expect(sitemap).not.toContain(path);
    // A signed-in person's browser gets the app's shell, as on every prerendered page.
    const token = signSessionToken({ userId: randomUUID(), sessionId: randomUUID() }, testKeys().privateKey, 600);
    const signedIn = await page(`${path}?token=x`, { cookie: `haven_session=${token}` });
    expect(signedIn.html).toMatch(/<div id="root">\s*<div class="boot-loader"/);
  },
);

it('serves pages that are not prerendered (account settings) as the app’s shell', async () => {
  const { response, html } = await page('/settings');
  expect(response.status).toBe(200);
  expect(html).toContain('<div class="boot-loader"');
});

it('answers an unknown address with the not-found page and status 404, signed in or not', async () => {
  const signedOut = await page('/no-such-page');
  expect(signedOut.response.status).toBe(404);
  expect(h1Of(signedOut.html)).toBe('404 Page Not Found');
  expect(signedOut.html).toContain('<meta name="robots" content="noindex"');
  const token = signSessionToken({ userId: randomUUID(), sessionId: randomUUID() }, testKeys().privateKey, 600);
  const signedIn = await page('/no-such-page', { cookie: `haven_session=${token}` });
  expect(signedIn.response.status).toBe(404);
  expect(signedIn.html).toContain('<div class="boot-loader"');
});

it('marks the page of a browser with neither a session nor a consent cookie, and only that browser’s', async () => {
  const marked = /^<!doctype html>\s*<html data-no-cookie-choice lang="en">/;
  const unmarked = /^<!doctype html>\s*<html lang="en">/;
  // A first visit: the prerendered pages and the app's shell alike, and in every encoding.
  for (const path of ['/', '/help', '/no-such-page', '/auth']) {
    const { response, html } = await page(path);
    expect(html).toMatch(marked);
    expect(response.headers.get('x-haven-no-cookie-choice')).toBe('true');
  }
  expect(h1Of((await page('/')).html)).toBe('Track. Reflect. Thrive.');
  expect(brotliDecompressSync((await rawGet('/faq', 'br')).body).toString('utf8')).toMatch(marked);
  // A consent cookie (either name) or a session: the server may hold a choice, and the page asks for it.
  const visitorId = randomUUID();
  const token = signSessionToken({ userId: randomUUID(), sessionId: randomUUID() }, testKeys().privateKey, 600);
  for (const cookie of [`haven_consent=${visitorId}`, `__Host-haven_consent=${visitorId}`, `haven_session=${token}`]) {
    for (const path of ['/', '/help', '/auth']) {
      const { response, html } = await page(path, { cookie });
      expect(html).toMatch(unmarked);
      expect(response.headers.get('x-haven-no-cookie-choice')).toBeNull();
    }
  }
  expect(h1Of((await page('/', { cookie: `haven_consent=${visitorId}` })).html)).toBe('Track. Reflect. Thrive.');
  // A consent cookie that holds no visitor id is no cookie, as for the consent routes.
  expect((await page('/', { cookie: 'haven_consent=../../etc' })).html).toMatch(marked);
});

/** The response's bytes as sent, undecoded (fetch would decode them), and its encoding. */
function rawGet(path: string, acceptEncoding: string): Promise<{ encoding?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${gateway.url}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

it('compresses a page with brotli or gzip, byte for byte the page', async () => {
  const plain = await page('/faq');
  const brotli = await rawGet('/faq', 'gzip, deflate, br');
  expect(brotli.encoding).toBe('br');
  expect(brotliDecompressSync(brotli.body).toString('utf8')).toBe(plain.html);
  const gzip = await rawGet('/faq', 'gzip');
  expect(gzip.encoding).toBe('gzip');
  expect(gunzipSync(gzip.body).toString('utf8')).toBe(plain.html);
  expect(brotli.body.length).toBeLessThan(plain.html.length / 3);
});

it('serves a sitemap of the public pages at the site’s origin', async () => {
  const response = await fetch(`${gateway.url}/sitemap.xml`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/xml/);
  const xml = await response.text();
  for (const path of ['/', '/about', '/terms', '/privacy', '/faq', '/help', '/auth']) {
    expect(xml).toContain(`<loc>https://haven.example${path}</loc>`);
  }
});

it('serves none of the build’s own records (its manifest, its script budget report)', async () => {
  for (const path of ['/.vite/manifest.json', '/.vite/script-budget.json']) {
    const { response, html } = await page(path);
    expect(response.status).toBe(404);
    expect(h1Of(html)).toBe('404 Page Not Found');
  }
});
