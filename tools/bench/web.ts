/**
 * The web app's figures for `make bench`, against the gateway serving a production build:
 *
 * - landing JavaScript: every script the landing page (`/`, signed out) loads in Chromium until the network
 *   is idle, each file gzipped here at the build's level; those the build counts against its budget (below) summed
 *   against that budget, the rest shown apart;
 * - Lighthouse (the `lighthouse` package driving Debian's Chromium, never a downloaded browser) for every public
 *   page (LIGHTHOUSE_PATHS) with its default phone profile (emulated mid-range phone, simulated slow 4G):
 *   performance, accessibility, best practices and SEO, largest contentful paint, total blocking time, cumulative
 *   layout shift and the bytes transferred, three runs each. Each figure is its own median over the runs
 *   (medianRun), so a page's row need not be any one run.
 *
 * Pure formatting and the medians are in webReport.ts (unit-tested).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { repoRoot } from '../infra';
import { medianRun, type LighthouseRun, type WebBenchResult } from './webReport';

const chromiumPath = process.env.HAVEN_CHROMIUM ?? '/usr/bin/chromium';
const chromeFlags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
/** Every page a signed-out visitor can open; `/help` is the crisis page. */
export const LIGHTHOUSE_PATHS = ['/', '/faq', '/auth', '/about', '/terms', '/privacy', '/help'] as const;
/**
 * One run's ceiling, so a hung Chromium cannot hold the bench: a run takes well under a minute, and Lighthouse's own
 * page-load limit is 45 s.
 */
const LIGHTHOUSE_RUN_TIMEOUT_MS = 120_000;

/**
 * What the build counted against its script budget (web/src/prerender/budget.ts, `ScriptBudgetReport`, written to
 * `SCRIPT_BUDGET_REPORT` under web/dist, which the bench's gateway serves): the budget, and each page's scripts.
 */
interface BuildScriptBudget {
  budgetBytes: number;
  pages: Array<{ page: string; scripts: Array<{ file: string; gzipBytes: number }> }>;
}

function buildScriptBudget(): BuildScriptBudget {
  const file = join(repoRoot, 'web', 'dist', '.vite', 'script-budget.json');
  return JSON.parse(readFileSync(file, 'utf8')) as BuildScriptBudget;
}

/**
 * The scripts the signed-out landing page loads, with their gzipped sizes, against the build's budget
 * (web/src/prerender/budget.ts). The build and this count different things: the build counts the scripts the
 * page's HTML runs or preloads and the chunks those import statically, before any script has run; Chromium here
 * also fetches what the page loads once it runs (the cookie banner's code, for one). So only the scripts the
 * build counted for the landing page are held to its budget, gzipped at its level; the rest are shown apart.
 */
export async function measureLandingJs(gatewayUrl: string): Promise<WebBenchResult['landingJs']> {
  const build = buildScriptBudget();
  const landing = build.pages.find(({ page }) => page === 'landing.html');
  if (!landing) throw new Error('the build counted no scripts for landing.html (web/dist/.vite/script-budget.json)');
  const beforeUsable = new Set(landing.scripts.map(({ file }) => file));
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    // No service worker: it would fetch every bundle of the build for offline use, which is not the page's load.
    const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 900 } });
    const page = await context.newPage();
    // Site paths, as the build names them; the budget's scripts too, should Chromium report a preload otherwise.
    const scripts = new Set<string>(beforeUsable);
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.resourceType() === 'script' && url.origin === new URL(gatewayUrl).origin) scripts.add(url.pathname);
    });
    await page.goto(`${gatewayUrl}/`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Track. Reflect. Thrive.' }).waitFor({ state: 'attached' });
    const files: WebBenchResult['landingJs']['files'] = [];
    for (const path of [...scripts].sort()) {
      const url = `${gatewayUrl}${path}`;
      const response = await fetch(url).catch((error: Error) => {
        throw new Error(`fetching ${url}: ${error.message} (${String(error.cause)})`);
      });
      const body = Buffer.from(await response.arrayBuffer());
      // Level 9, as the build counts a script and makes its `.gz` twin (web/src/prerender/entry.tsx).
      const gzipBytes = gzipSync(body, { level: 9 }).length;
      files.push({ path, bytes: body.length, gzipBytes, beforeUsable: beforeUsable.has(path) });
    }
    const sum = (list: typeof files) => list.reduce((total, file) => total + file.gzipBytes, 0);
    return {
      files,
      beforeUsableGzipBytes: sum(files.filter((file) => file.beforeUsable)),
      totalGzipBytes: sum(files),
      budgetBytes: build.budgetBytes,
    };
  } finally {
    await browser.close();
  }
}

/** Lighthouse's scores and metrics for one page, `runs` runs, with their medians. */
export async function lighthouseScores(
  gatewayUrl: string,
  path: string,
  runs: number,
  log: (line: string) => void,
): Promise<WebBenchResult['lighthouse'][number]> {
  // ESM-only packages, loaded when the bench gets here.
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const each: LighthouseRun[] = [];
  const problems: string[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags });
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`lighthouse ${path} run ${run}: no result within ${LIGHTHOUSE_RUN_TIMEOUT_MS / 1000} s`)),
          LIGHTHOUSE_RUN_TIMEOUT_MS,
        );
      });
      const result = await Promise.race([
        lighthouse(`${gatewayUrl}${path}`, {
          port: chrome.port,
          logLevel: 'error',
          output: 'json',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        }),
        timeout,
      ]);
      const categories = result?.lhr.categories;
      // NaN when Lighthouse gives no score or value (a run that failed to load the page, or a metric it could not
      // take), so the medians leave that run out rather than count a 0.
      const score = (key: string) => {
        const value = categories?.[key]?.score;
        return typeof value === 'number' ? Math.round(value * 100) : Number.NaN;
      };
      const audits = result?.lhr.audits;
      const numeric = (key: string) => audits?.[key]?.numericValue ?? Number.NaN;
      const figures: LighthouseRun = {
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
        lcpMs: numeric('largest-contentful-paint'),
        tbtMs: numeric('total-blocking-time'),
        cls: numeric('cumulative-layout-shift'),
        transferBytes: numeric('total-byte-weight'),
      };
      const problem =
        result?.lhr.runtimeError?.code ??
        ['largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'total-byte-weight']
          .map((key) => audits?.[key]?.errorMessage)
          .find((message) => message !== undefined);
      if (problem !== undefined) problems.push(`run ${run}: ${problem}`);
      // FCP and speed index too, as Lighthouse displays them, so a low performance score says where the time went.
      const shown = (key: string) => audits?.[key]?.displayValue ?? '?';
      log(
        `lighthouse ${path} run ${run}/${runs}: ` +
          [figures.performance, figures.accessibility, figures.bestPractices, figures.seo]
            .map((value) => (Number.isNaN(value) ? '?' : value))
            .join('/') +
          `, FCP ${shown('first-contentful-paint')}, ` +
          `LCP ${shown('largest-contentful-paint')}, TBT ${shown('total-blocking-time')}, ` +
          `CLS ${shown('cumulative-layout-shift')}, SI ${shown('speed-index')}, ${shown('total-byte-weight')}` +
          (problem === undefined ? '' : `, ${problem}`),
      );
      each.push(figures);
    } finally {
      clearTimeout(timer);
      chrome.kill();
    }
  }
  return { path, runs: each, median: medianRun(each), problems };
}

export async function benchWeb(gatewayUrl: string, log: (line: string) => void, runs = 3): Promise<WebBenchResult> {
  log('web: the landing page’s JavaScript');
  const landingJs = await measureLandingJs(gatewayUrl);
  const loadBefore = loadavg()[0] as number;
  const startedAt = performance.now();
  const lighthouse = [];
  for (const path of LIGHTHOUSE_PATHS) {
    log(`web: lighthouse ${path}, ${runs} runs (phone profile)`);
    lighthouse.push(await lighthouseScores(gatewayUrl, path, runs, log));
  }
  const seconds = (performance.now() - startedAt) / 1000;
  const loadAfter = loadavg()[0] as number;
  log(`web: lighthouse, ${LIGHTHOUSE_PATHS.length} pages × ${runs} runs in ${Math.round(seconds)} s`);
  return { landingJs, lighthouse, lighthouseStage: { seconds, loadBefore, loadAfter } };
}
