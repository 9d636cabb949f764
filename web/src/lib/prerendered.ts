/**
 * Whether this page began as HTML prerendered at build time (prerender/entry.tsx; the gateway serves it to
 * visitors without a session). React then adopts that HTML instead of drawing the page again, which needs its
 * first render to match it: components whose first render would depend on the browser (the time since the
 * navigation, an IntersectionObserver, the signed-in probe) render as the prerender did while this is true.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';

export const PRERENDERED_ATTRIBUTE = 'data-prerendered';
/** Marks the head tags a prerendered page carries for crawlers and link previews; the app drops them when it starts. */
export const PRERENDERED_HEAD_ATTRIBUTE = 'data-prerendered-head';
/** The country a prerendered help page was rendered for, on its root ("" for none), so the first render matches it. */
export const PRERENDERED_COUNTRY_ATTRIBUTE = 'data-country';

/** True while rendering in the build (no document) and for the whole page load that began from prerendered HTML. */
export function rendersAsPrerendered(): boolean {
  if (typeof document === 'undefined') return true;
  return document.getElementById('root')?.hasAttribute(PRERENDERED_ATTRIBUTE) === true;
}

/** What a page says of itself for its HTML's head: its full title, and its own description where it has one. */
export interface PrerenderedHead {
  title: string;
  description?: string;
}

/** What the build's prerender tells the page it renders (the country put first), and where the page's head goes. */
export interface PrerenderInfo {
  country: string | null;
  setHead: (head: PrerenderedHead) => void;
}

export const PrerenderContext = createContext<PrerenderInfo | null>(null);

/**
 * The country the page's HTML was rendered for: the prerender's (in the build), else the one written on the root of
 * a prerendered page; undefined when the page did not begin prerendered for a country.
 */
export function usePrerenderedCountry(): string | null | undefined {
  const info = useContext(PrerenderContext);
  if (info) return info.country;
  if (typeof document === 'undefined') return undefined;
  const root = document.getElementById('root');
  if (!root?.hasAttribute(PRERENDERED_COUNTRY_ATTRIBUTE)) return undefined;
  return root.getAttribute(PRERENDERED_COUNTRY_ATTRIBUTE) || null;
}

/**
 * Takes a prerendered page's head back to index.html's (its tags gone, the default description back), so the pages
 * the app draws set their own head as they do on any page load (lib/usePageMeta.ts, lib/usePageTitle.ts).
 */
export function forgetPrerenderedHead(doc: Document, defaultDescription: string): void {
  for (const tag of doc.head.querySelectorAll(`[${PRERENDERED_HEAD_ATTRIBUTE}]`)) tag.remove();
  doc.head.querySelector('meta[name="description"]')?.setAttribute('content', defaultDescription);
}

/** Lists the stylesheets a prerendered page carries inline, on its root (prerender/document.ts), space-separated. */
export const INLINED_STYLESHEETS_ATTRIBUTE = 'data-stylesheets';

/**
 * Puts a disabled link in the head for each stylesheet a prerendered page carries inline. The bundles' loader (Vite's
 * preload helper) adds a lazily loaded bundle's stylesheets unless a link to them is there already: without one it
 * would download rules the page already has and restyle the whole page while React adopts it. A disabled link is
 * neither fetched nor applied.
 */
export function markInlinedStylesheets(root: HTMLElement): void {
  for (const href of root.getAttribute(INLINED_STYLESHEETS_ATTRIBUTE)?.split(' ') ?? []) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.disabled = true;
    link.href = href;
    document.head.append(link);
  }
}

const neverChanges = () => () => undefined;

/**
 * False in the build's prerender and while React adopts prerendered HTML; true once the page's script runs it (and
 * at once on a page the app draws itself). A control that does nothing without the script is disabled until then,
 * so a click or a keystroke made before is never silently lost.
 */
export function useInteractive(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
