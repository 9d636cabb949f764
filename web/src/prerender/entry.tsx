/**
 * The build's prerender step (`npm run build`, after the browser's bundles): renders the public pages the route
 * table lists (`PRERENDER` in gating/routeTable.ts) to HTML with the app's own components and route objects
 * (app/routes.tsx), so their content shows before any script runs and reads with none. It writes dist/pages/ and
 * its table, pages.json, by which the gateway serves them to visitors without a session (gateway/src/web.ts). The
 * browser then adopts the HTML (main.tsx).
 *
 * - the landing page, About, Terms, Privacy and the FAQ, each once;
 * - sign-in (/auth), its form drawn by the app's own sign-in page with every control waiting for the script;
 * - the pages an e-mail's link opens (verify, unsubscribe), each showing its link being checked: the token is in the
 *   address, which the build does not know, so the answer comes from the script;
 * - the help page once for every country in the crisis dataset (that country's help first) and once for no
 *   country, each listing every other country's lines too;
 * - the not-found page, served with status 404.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { countryHelp } from '@haven/domain/src/crisis-resources';
import { APP_ORIGIN_PLACEHOLDER, type PageTable } from '@haven/platform/src/prerendered-pages';
import { AppFrame } from '../app/AppFrame';
import { RouteTree } from '../app/RouteTree';
import { PUBLIC_PATHS, SIGNED_IN_PATHS } from '../gating/routeGating';
import { PRERENDER, ROUTES, type SignedOutPageKey } from '../gating/routeTable';
import {
  PRERENDERED_ATTRIBUTE,
  PRERENDERED_COUNTRY_ATTRIBUTE,
  PrerenderContext,
  type PrerenderedHead,
} from '../lib/prerendered';
import { BRAND } from '../brand';
import { headTagsFor } from '../lib/pageMeta';
import {
  budgetLine,
  checkBudget,
  documentScripts,
  FIRST_PAGE_SCRIPT_BUDGET_BYTES,
  SCRIPT_BUDGET_REPORT,
  type PageScripts,
  type ScriptBudgetReport,
  withStaticImports,
} from './budget';
import {
  inlineStylesheets,
  linkedStylesheets,
  pageAssets,
  pageDocument,
  sitemapXml,
  type ViteManifest,
} from './document';

const distDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const pagesDir = join(distDir, 'pages');

/** Each page the route table prerenders (`PRERENDER` in gating/routeTable.ts), in its order, at its page's path. */
const SIGNED_OUT_PATHS: Record<SignedOutPageKey, string> = { ...ROUTES.signedOut, ...ROUTES.public };
const PRERENDERED = (Object.keys(PRERENDER) as SignedOutPageKey[]).flatMap((page) => {
  const prerender = PRERENDER[page];
  return prerender ? [{ path: SIGNED_OUT_PATHS[page], ...prerender }] : [];
});
const PAGES = PRERENDERED.filter((page) => !page.byCountry);
// The gateway's page table has one page by country: the help page.
const [HELP, ...otherByCountry] = PRERENDERED.filter((page) => page.byCountry);
if (!HELP || otherByCountry.length > 0) throw new Error('the route table must prerender exactly one page by country');
/** The pages kept out of search engines and the sitemap. */
const NOINDEX_PATHS = new Set<string>(PAGES.filter((page) => page.noindex).map(({ path }) => path));
const NEEDS_SCRIPT_PATHS = new Set<string>(PAGES.filter((page) => page.needsScript).map(({ path }) => path));
/** A path no table knows, so the route gating decides "not found" as it would for any unknown address. */
const NOT_FOUND_PATH = '/page-that-does-not-exist';

async function render(path: string, country: string | null): Promise<{ html: string; head: PrerenderedHead }> {
  let head: PrerenderedHead = { title: '' };
  const page: ReactNode = (
    <PrerenderContext.Provider value={{ country, setHead: (next) => (head = next) }}>
      <AppFrame>
        {/* The browser's router (app/App.tsx) renders the same tree, so React adopts this HTML as it is. */}
        <StaticRouter location={path}>
          <RouteTree />
        </StaticRouter>
      </AppFrame>
    </PrerenderContext.Provider>
  );
  const { prelude } = await prerenderToNodeStream(page);
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk));
  const html = Buffer.concat(chunks).toString('utf8');
  // Structured data (JSON-LD) is data, never run; any other script would need its own CSP hash.
  if (/<script(?![^>]*type="application\/ld\+json")/i.test(html))
    throw new Error(`prerendering ${path}: the page's HTML carries a script`);
  if (/<template/i.test(html)) throw new Error(`prerendering ${path}: a part of the page was left to the browser`);
  return { html, head };
}

// No compressed twins: the gateway writes its origin into each page, then compresses it (gateway/src/web.ts).
function write(file: string, document: string): void {
  const path = join(pagesDir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, document);
}

const indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as ViteManifest;

async function writePage(
  file: string,
  path: string,
  module: string | undefined,
  country?: string | null,
): Promise<void> {
  const { html, head } = await render(path, country ?? null);
  const notFound = path === NOT_FOUND_PATH;
  const headTags = headTagsFor({
    title: head.title,
    description: head.description ?? BRAND.description,
    canonical: `${APP_ORIGIN_PLACEHOLDER}${notFound ? '/' : path}`,
    robots: notFound || NOINDEX_PATHS.has(path) ? 'noindex' : 'index, follow',
  });
  const attributes: Record<string, string> = { [PRERENDERED_ATTRIBUTE]: '' };
  if (country !== undefined) attributes[PRERENDERED_COUNTRY_ATTRIBUTE] = country ?? '';
  const assets = pageAssets(manifest, module);
  const document = pageDocument(indexHtml, {
    html,
    title: head.title,
    headTags,
    rootAttributes: attributes,
    assets,
    needsScript: NEEDS_SCRIPT_PATHS.has(path),
  });
  const sheets = linkedStylesheets(document).map((href) => ({ href, css: readFileSync(join(distDir, href), 'utf8') }));
  const written = inlineStylesheets(document, sheets);
  write(file, written);
  const scripts = withStaticImports(documentScripts(written), manifest);
  pagesScripts.push({ page: file, scripts: scripts.map((script) => ({ file: script, gzipBytes: gzipBytes(script) })) });
}

/** What each page written loads before it is usable, for the script budget (prerender/budget.ts). */
const pagesScripts: PageScripts[] = [];
const gzipSizes = new Map<string, number>();
/** A script's size as the gateway sends it gzipped: the level of the build's `.gz` twins (vite.config.ts). */
function gzipBytes(script: string): number {
  let size = gzipSizes.get(script);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(distDir, script)), { level: 9 }).length;
    gzipSizes.set(script, size);
  }
  return size;
}

for (const { path, file, module } of PAGES) await writePage(file, path, module);
const helpFiles: Record<string, string> = {};
for (const { code } of countryHelp) {
  helpFiles[code] = `${HELP.file}/${code}.html`;
  await writePage(helpFiles[code], HELP.path, HELP.module, code);
}
const helpNone = `${HELP.file}/none.html`;
await writePage(helpNone, HELP.path, HELP.module, null);
// The not-found page is in the entry's chunk: it needs no file of its own.
await writePage('404.html', NOT_FOUND_PATH, undefined);

const indexed = [...PAGES.map(({ path }) => path).filter((path) => !NOINDEX_PATHS.has(path)), HELP.path];
writeFileSync(join(pagesDir, 'sitemap.xml'), sitemapXml(indexed));
const table: PageTable = {
  originPlaceholder: APP_ORIGIN_PLACEHOLDER,
  sitemap: 'sitemap.xml',
  pages: Object.fromEntries(PAGES.map(({ path, file }) => [path, file])),
  help: { path: HELP.path, byCountry: helpFiles, noCountry: helpNone },
  notFound: '404.html',
  appPaths: ['/', ...Object.keys(PUBLIC_PATHS), ...Object.keys(SIGNED_IN_PATHS)],
};
writeFileSync(join(pagesDir, 'pages.json'), `${JSON.stringify(table, null, 2)}\n`);
console.log(`prerendered ${PAGES.length + countryHelp.length + 2} pages into dist/pages`);

// Every page is checked; the help pages differ only in their text, so one stands for them all in the report.
const budget = checkBudget(pagesScripts);
const report: ScriptBudgetReport = { budgetBytes: FIRST_PAGE_SCRIPT_BUDGET_BYTES, pages: pagesScripts };
writeFileSync(join(distDir, SCRIPT_BUDGET_REPORT), `${JSON.stringify(report)}\n`);
for (const result of budget) {
  if (result.over || !/^help\/(?!none)/.test(result.page)) {
    const scripts = pagesScripts.find(({ page }) => page === result.page)?.scripts;
    (result.over ? console.error : console.log)(budgetLine(result, scripts));
  }
}
if (budget.some((result) => result.over)) {
  console.error('The first page loads more JavaScript than its budget (src/prerender/budget.ts).');
  process.exitCode = 1;
}
