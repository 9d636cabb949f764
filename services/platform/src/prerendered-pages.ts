/**
 * What the web build's prerender step hands the gateway: the table of prerendered pages it writes into
 * web/dist/pages/pages.json (web/src/prerender/entry.tsx) and the gateway serves them by (gateway/src/pages.ts).
 */

/**
 * Where the site's own origin goes in prerendered HTML (canonical links, social previews, the sitemap): the build
 * does not know where Haven is served, and the gateway writes its APP_URL's origin in its place.
 */
export const APP_ORIGIN_PLACEHOLDER = '%HAVEN_APP_ORIGIN%';

/**
 * The mark the gateway writes on a page's `<html>` for a browser with neither a session nor a consent cookie: the
 * server holds no cookie choice for it, so the web app does not ask for one (the answer would be the 404 that means
 * no choice yet, which the browser logs as an error in its console).
 */
export const NO_COOKIE_CHOICE_ATTRIBUTE = 'data-no-cookie-choice';

export interface PageTable {
  /** Written where the site's origin goes, for the gateway to replace. */
  originPlaceholder: string;
  /** Path → file under web/dist/pages. */
  pages: Record<string, string>;
  /** The help page: one file per country code, and one for no country. */
  help: { path: string; byCountry: Record<string, string>; noCountry: string };
  notFound: string;
  /** Every path the app answers; any other is not found. */
  appPaths: string[];
  /** The public pages' sitemap, served at /sitemap.xml. */
  sitemap: string;
}

/**
 * An address's path as the app reads it: trailing slashes dropped ("/settings/" → "/settings"), "" as "/". The web
 * app's route gating and the gateway's page table read paths alike.
 */
export function normalisePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}
