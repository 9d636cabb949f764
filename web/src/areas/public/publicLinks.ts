/**
 * Where the public pages point: the navigation's anchors and links, the footer's links and the contact
 * address. Pure data, shared by the landing page, the FAQ and the legal pages.
 */
import { BRAND } from '../../brand';
import { ROUTES } from '../../gating/routeTable';

export const CONTACT_EMAIL = BRAND.supportEmail;
export const CONTACT_MAILTO = `mailto:${CONTACT_EMAIL}`;

/** The crisis page: a plain link, reachable without signing in. */
export const SUPPORT_PATH = ROUTES.public.help;
/** The person's own safety plan, linked from the crisis page and the crisis reply. */
export const SAFETY_PLAN_PATH = ROUTES.public.safetyPlan;

export interface NavItem {
  label: string;
  /** An in-page anchor of the landing page (`#features`) or a route (`/about`). */
  href: string;
}

/** The sticky navigation, in its order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Features', href: '#features' },
  { label: 'About', href: ROUTES.public.about },
  { label: 'Why Choose', href: '#why-choose' },
  { label: 'FAQ', href: ROUTES.public.faq },
  { label: 'Contact', href: '#contact' },
];

/**
 * An anchor resolved for the page it sits on: on the landing page `#features` scrolls in place; on any
 * other public page it leads to the landing page's section (`/#features`). `#contact` is the footer,
 * which every public page has, so it stays in place everywhere.
 */
export function resolveNavHref(href: string, onLanding: boolean): string {
  if (!href.startsWith('#')) return href;
  if (onLanding || href === '#contact') return href;
  return `/${href}`;
}
