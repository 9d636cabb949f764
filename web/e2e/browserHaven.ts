/**
 * What a browser test file starts: Haven the way `make dev` starts it (six processes on free ports, against
 * the test run's embedded database, Kafka and mail catcher, each app on its default database haven_<service>),
 * and Debian's Chromium driven by Playwright (never a downloaded browser).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { apps, startApps, type AppPorts, type RunningApps } from '../../tools/dev/apps';
import { ensureDevKeys } from '../../tools/dev/keys';
import { freePorts, repoRoot } from '../../tools/infra';
import { startTestHaven, type TestHaven } from '../../tools/testing/haven';
import { skipEarlierFilesEvents } from '../../tools/testing/consumer-groups';
import { testInfra } from '../../tools/testing/test-env';

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

/** Inside the checkout (make clean removes it), not the machine's temporary folder. */
const e2eStateRoot = join(repoRoot, '.haven', 'e2e');
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
  apps: RunningApps;
  browser: Browser;
}

export interface InProcessBrowserHaven {
  haven: TestHaven;
  browser: Browser;
}

/**
 * Haven in the test's own process (the services and the gateway serving web/dist) and Chromium: lighter on a
 * loaded machine than six processes, and the test can read and write the services' databases. The cookie banner
 * is off, as in startBrowserHaven.
 */
export async function startInProcessBrowserHaven(): Promise<InProcessBrowserHaven> {
  if (!existsSync(join(repoRoot, 'web', 'dist', 'index.html'))) {
    throw new Error('web/dist is missing: `make test` builds it (npm run -w web build)');
  }
  const haven = await startTestHaven({ env: { COOKIE_BANNER_ENABLED: 'false' } });
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

export async function stopInProcessBrowserHaven(started: Partial<InProcessBrowserHaven>): Promise<void> {
  await started.browser?.close();
  await started.haven?.stop();
}

/** Each running Haven's keys and logs: removed when it stops, kept (and named in the error) when it cannot start. */
const stateDirs = new WeakMap<RunningApps, string>();

/**
 * Starts the apps (environment: sign-ups not rate-limited in practice, quiet logs, then `env`) and Chromium.
 * The cookie banner is off unless a test turns it on (`COOKIE_BANNER_ENABLED: 'true'`): it sits over the
 * bottom of every page, and only its own tests (cookie-consent.e2e.test.ts) are about it.
 */
export async function startBrowserHaven(env: Record<string, string> = {}): Promise<BrowserHaven> {
  if (!existsSync(join(repoRoot, 'web', 'dist', 'index.html'))) {
    throw new Error('web/dist is missing: `make test` builds it (npm run -w web build)');
  }
  mkdirSync(e2eStateRoot, { recursive: true });
  const stateDir = mkdtempSync(join(e2eStateRoot, 'haven-'));
  const portList = await freePorts(apps.length);
  const ports = Object.fromEntries(apps.map((app, index) => [app.name, portList[index]])) as AppPorts;
  await skipEarlierFilesEvents(testInfra().kafkaBrokers);
  const running = await startApps({
    stateDir,
    infra: testInfra(),
    keys: ensureDevKeys(stateDir),
    ports,
    appUrl: `http://localhost:${ports.gateway}`,
    output: 'files',
    // Six processes starting while other test files run beside them.
    readyTimeoutMs: browserHavenStartMs - 30_000,
    env: {
      RATE_LIMIT_AUTH_MAX: '100',
      RATE_LIMIT_MAIL_MAX: '100',
      RATE_LIMIT_COSTLY_MAX: '100',
      RATE_LIMIT_ORDINARY_MAX: '1000',
      RATE_LIMIT_EXPORT_MAX: '100',
      LOG_LEVEL: 'warn',
      COOKIE_BANNER_ENABLED: 'false',
      // As in the in-process test Havens (tools/testing/haven.ts).
      SUBGRAPH_TIMEOUT_MS: '30000',
      KAFKA_SESSION_TIMEOUT_MS: '10000',
      ...env,
    },
  }).catch((error: unknown) => {
    throw new Error(`${(error as Error).message} (the apps' logs: ${stateDir})`);
  });
  try {
    const browser = withBrowserWaits(await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs }));
    await warmUp(browser, running.gatewayUrl, stateDir).catch(async (error: unknown) => {
      await browser.close();
      throw new Error(`${(error as Error).message}\n(the apps' logs and a screenshot: ${stateDir})`);
    });
    stateDirs.set(running, stateDir);
    return { apps: running, browser };
  } catch (error) {
    await running.stop();
    throw error;
  }
}

/**
 * Loads the sign-in page once, in a context of its own, before any test: a fresh Haven's first page pays for
 * every process's first request (the bundles read from disk, the first session query through the gateway
 * and a subgraph, code compiled on first use), which on a loaded machine has taken over a minute. Paid here,
 * inside the start's budget, each test's own first page is an ordinary one.
 */
async function warmUp(browser: Browser, gatewayUrl: string, stateDir?: string): Promise<void> {
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
    if (stateDir) await page.screenshot({ path: join(stateDir, 'first-page.png') }).catch(() => undefined);
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

export async function stopBrowserHaven(started: Partial<BrowserHaven>): Promise<void> {
  await started.browser?.close();
  if (!started.apps) return;
  await started.apps.stop();
  const stateDir = stateDirs.get(started.apps);
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
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
