/**
 * What a browser test file starts: Haven in the test's own process (the five services and the gateway serving
 * web/dist, against the test run's embedded database, Kafka and mail catcher, on databases of its own), and
 * Debian's Chromium driven by Playwright (never a downloaded browser). One process, not six: on a loaded
 * machine six apps' starts cost more than the rest of a file, and `make dev`'s own start has its test
 * (tools/test/dev-restart.int.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { freePorts, repoRoot } from '../../tools/infra';
import { startTestHaven, type TestHaven } from '../../tools/testing/haven';

/**
 * How long a file's beforeAll may take to start Haven and Chromium beside other test files, and to load a
 * first page (`warmUp`).
 */
export const browserHavenStartMs = 360_000;
/** What a fresh Haven's first page may take before the start gives up (within `browserHavenStartMs`). */
const warmUpMs = 120_000;
/**
 * Playwright's own waits (a page load, a response, an element): its default 30 s is shorter than a first page
 * load can take beside other test files on a loaded machine; as long as the suite's other bounded waits.
 */
export const browserWaitMs = 60_000;

const chromiumPath = process.env.HAVEN_CHROMIUM ?? '/usr/bin/chromium';
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserHaven {
  haven: TestHaven;
  browser: Browser;
}

/**
 * Starts Haven (the test harness's environment, then `env`) and Chromium. Haven's public origin is the gateway's
 * own (http://localhost:<port>), so the links of its e-mails and the sign-in providers' redirects come back to the
 * page's origin. The cookie banner is off unless a test turns it on (`COOKIE_BANNER_ENABLED: 'true'`): it sits
 * over the bottom of every page, and only its own tests (cookie-consent.e2e.test.ts) are about it.
 */
async function startBrowserHaven(env: Record<string, string>): Promise<BrowserHaven> {
  if (!existsSync(join(repoRoot, 'web', 'dist', 'index.html'))) {
    throw new Error('web/dist is missing: `make test` builds it (npm run -w web build)');
  }
  const [gatewayPort] = await freePorts(1);
  const haven = await startTestHaven({ env: { COOKIE_BANNER_ENABLED: 'false', ...env }, gatewayPort });
  try {
    const browser = withBrowserWaits(await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs }));
    await warmUp(browser, haven.gatewayUrl).catch(async (error: unknown) => {
      await browser.close();
      throw error;
    });
    return { haven, browser };
  } catch (error) {
    await haven.stop();
    throw error;
  }
}

async function stopBrowserHaven(started: Partial<BrowserHaven>): Promise<void> {
  await started.browser?.close();
  await started.haven?.stop();
}

/**
 * Haven and Chromium for the tests of one file, started before them (with `env`, or what `env()` answers once the
 * file's tests are about to run) and stopped after them. Read `haven` and `browser` inside the tests and hooks
 * declared after this call.
 */
export function useBrowserHaven(
  env: Record<string, string> | (() => Promise<Record<string, string>>) = {},
): Readonly<BrowserHaven> {
  const started: Partial<BrowserHaven> = {};
  beforeAll(async () => {
    Object.assign(started, await startBrowserHaven(typeof env === 'function' ? await env() : env));
  }, browserHavenStartMs);
  afterAll(() => stopBrowserHaven(started));
  return started as BrowserHaven;
}

/**
 * Loads the sign-in page once, in a context of its own, before any test: a fresh Haven's first page pays for
 * every process's first request (the bundles read from disk, the first session query through the gateway
 * and a subgraph, code compiled on first use), which on a loaded machine has taken over a minute. Paid here,
 * inside the start's budget, each test's own first page is an ordinary one.
 */
async function warmUp(browser: Browser, gatewayUrl: string): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  // What the page was doing, for the error when it shows nothing: its console, and requests never answered.
  const consoleLines: string[] = [];
  const unanswered = new Map<Request, string>();
  page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`.slice(0, 300)));
  page.on('pageerror', (error) => consoleLines.push(`page error: ${error.message}`.slice(0, 300)));
  page.on('request', (request) => unanswered.set(request, `${request.method()} ${request.url()}`));
  page.on('requestfinished', (request) => unanswered.delete(request));
  page.on('requestfailed', (request) => {
    unanswered.delete(request);
    consoleLines.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? 'no reason'})`);
  });
  try {
    await page.goto(`${gatewayUrl}/auth`, { timeout: warmUpMs });
    await page.getByLabel('Email').waitFor({ timeout: warmUpMs });
  } catch (error) {
    const shown = await page
      .evaluate(() => document.body.innerText.slice(0, 200))
      .catch((reason: unknown) => `(unreadable: ${String(reason)})`);
    throw new Error(
      [
        `Haven's first page showed no sign-in form within ${warmUpMs / 1000} s: ${(error as Error).message}`,
        `the page showed: ${JSON.stringify(shown)}`,
        `requests never answered: ${[...unanswered.values()].join(', ') || 'none'}`,
        `console: ${consoleLines.slice(-10).join(' | ') || 'nothing'}`,
      ].join('\n'),
    );
  } finally {
    await context.close();
  }
}

/** Every context the tests open waits up to `browserWaitMs`, set where the browser is made rather than in each file. */
function withBrowserWaits(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(browserWaitMs);
    return context;
  };
  return browser;
}

/** "Need help now?" from the page shown: one tap to /help, which shows the help of the person's country. */
export async function reachHelpInOneTap(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Need help now?' }).first().click();
  await page.waitForURL('**/help');
  await page.getByRole('heading', { name: 'Need help now?', level: 1 }).waitFor();
  await page
    .getByRole('region', { name: /^Help in / })
    .getByText(/If your life is in danger, call /)
    .waitFor();
}

/** axe-core's serious and critical findings on the page as it stands. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
      }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.nodes.length} elements)`);
}
