/**
 * The web app's figures for `make bench`, against the gateway serving a production build:
 *
 * - landing JavaScript: every script the landing page (`/`, signed out) loads in Chromium until the network
 *   is idle, each file gzipped here (zlib's default level, as Vite reports it), against the 170 kB budget;
 * - Lighthouse (the `lighthouse` package driving Debian's Chromium, never a downloaded browser) for `/`,
 *   `/faq` and `/auth` with its default phone profile (emulated mid-range phone, simulated slow 4G),
 *   performance, accessibility, best practices and SEO, the median of three runs each.
 *
 * Pure formatting and the median are in webReport.ts (unit-tested).
 */
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { LANDING_JS_BUDGET_BYTES, median, type LighthouseScores, type WebBenchResult } from './webReport';

const chromiumPath = process.env.HAVEN_CHROMIUM ?? '/usr/bin/chromium';
const chromeFlags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
export const LIGHTHOUSE_PATHS = ['/', '/faq', '/auth'] as const;

/** The scripts the signed-out landing page loads, with their gzipped sizes. */
export async function measureLandingJs(gatewayUrl: string): Promise<WebBenchResult['landingJs']> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    // No service worker: it would fetch every bundle of the build for offline use, which is not the page's load.
    const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 900 } });
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.add(request.url());
    });
    await page.goto(`${gatewayUrl}/`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Track. Reflect. Thrive.' }).waitFor({ state: 'attached' });
    const files = [];
    for (const url of [...scripts].sort()) {
      const response = await fetch(url).catch((error: Error) => {
        throw new Error(`fetching ${url}: ${error.message} (${String(error.cause)})`);
      });
      const body = Buffer.from(await response.arrayBuffer());
      files.push({ path: new URL(url).pathname, bytes: body.length, gzipBytes: gzipSync(body).length });
    }
    const totalGzipBytes = files.reduce((sum, file) => sum + file.gzipBytes, 0);
    return { files, totalGzipBytes, budgetBytes: LANDING_JS_BUDGET_BYTES };
  } finally {
    await browser.close();
  }
}

/** Lighthouse's four category scores (0–100) for one page, the median of `runs` runs. */
export async function lighthouseScores(
  gatewayUrl: string,
  path: string,
  runs: number,
  log: (line: string) => void,
): Promise<WebBenchResult['lighthouse'][number]> {
  // ESM-only packages, loaded when the bench gets here.
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const each: LighthouseScores[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags });
    try {
      const result = await lighthouse(`${gatewayUrl}${path}`, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      const categories = result?.lhr.categories;
      const score = (key: string) => Math.round((categories?.[key]?.score ?? 0) * 100);
      const scores: LighthouseScores = {
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
      };
      // The metrics behind the performance score, so a low one says where the time went.
      const audits = result?.lhr.audits;
      const metric = (key: string) => audits?.[key]?.displayValue ?? '?';
      log(
        `lighthouse ${path} run ${run}/${runs}: ${JSON.stringify(scores)} FCP ${metric('first-contentful-paint')}, ` +
          `LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, ` +
          `CLS ${metric('cumulative-layout-shift')}, SI ${metric('speed-index')}` +
          (result?.lhr.runtimeError ? `, error ${result.lhr.runtimeError.code}` : ''),
      );
      each.push(scores);
    } finally {
      chrome.kill();
    }
  }
  const pick = (key: keyof LighthouseScores) => median(each.map((scores) => scores[key]));
  return {
    path,
    runs: each,
    median: {
      performance: pick('performance'),
      accessibility: pick('accessibility'),
      bestPractices: pick('bestPractices'),
      seo: pick('seo'),
    },
  };
}

export async function benchWeb(gatewayUrl: string, log: (line: string) => void, runs = 3): Promise<WebBenchResult> {
  log('web: the landing page’s JavaScript');
  const landingJs = await measureLandingJs(gatewayUrl);
  const lighthouse = [];
  for (const path of LIGHTHOUSE_PATHS) {
    log(`web: lighthouse ${path}, ${runs} runs (phone profile)`);
    lighthouse.push(await lighthouseScores(gatewayUrl, path, runs, log));
  }
  return { landingJs, lighthouse };
}
