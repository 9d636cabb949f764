/**
 * The pages a visitor may open first without Apollo Client (app/AppRoutes.tsx): their part of the page map
 * (app/pages.tsx has the whole map, which the compiler keeps complete). Apart, so the first page's bundle names only
 * these and not every signed-in page's loader (the first page's script budget, prerender/budget.ts). Each is its own
 * bundle: a visitor's first page brings only its own text and code.
 */
import { lazy, type ComponentType } from 'react';
import type { PageKey } from '../gating/routeTable';
import { loadOrReload } from '../lib/bundles';

export interface PageEntry {
  component: ComponentType;
  /** Starts loading the page's area early (app/AppRoutes.tsx: while the session probe is on its way). */
  preload?: () => Promise<unknown>;
}

/** A page component exported by an area, loaded with its area's bundle the first time it renders. */
export function lazyPage<Name extends string, Area extends Record<Name, ComponentType>>(
  loadArea: () => Promise<Area>,
  name: Name,
): ComponentType {
  return lazy<ComponentType>(async () => ({ default: (await loadArea())[name] }));
}

const landing = loadOrReload(() => import('../areas/public/LandingPage'));
const about = loadOrReload(() => import('../areas/public/AboutPage'));
const terms = loadOrReload(() => import('../areas/public/TermsPage'));
const privacy = loadOrReload(() => import('../areas/public/PrivacyPage'));
const faq = loadOrReload(() => import('../areas/public/FaqPage'));
// The help page on its own: the fastest page of all, it loads neither the check-in area nor Apollo.
const help = loadOrReload(() => import('../areas/checkin/HelpPage'));

/** Pages that use no GraphQL: AppRoutes renders them without Apollo while it has not been needed yet. */
export const PUBLIC_PAGES = {
  landing: { component: lazyPage(landing, 'LandingPage'), preload: landing },
  about: { component: lazyPage(about, 'AboutPage'), preload: about },
  terms: { component: lazyPage(terms, 'TermsPage'), preload: terms },
  privacy: { component: lazyPage(privacy, 'PrivacyPage'), preload: privacy },
  faq: { component: lazyPage(faq, 'FaqPage'), preload: faq },
  help: { component: lazyPage(help, 'HelpPage'), preload: help },
} satisfies Partial<Record<PageKey, PageEntry>>;
