/**
 * Which component renders each page of the route table (gating/routeGating.ts), and whether it
 * sits in the signed-in shell. Each area is loaded on first use as its own bundle, through its
 * `index.ts`; a new page is exported there and listed here. Pages not listed yet (about, terms,
 * privacy, faq, sliders, …) come with later issues; until then their paths show the not-found page.
 */
import { lazy, type ComponentType } from 'react';
import type { PageKey } from '../gating/routeGating';
import { loadOrReload } from '../lib/bundles';

export interface PageEntry {
  component: ComponentType;
  /** Rendered inside the signed-in header + bottom navigation. */
  shell: boolean;
  /** Starts loading the page's area early (app/AppRoutes.tsx: while the session probe is on its way). */
  preload?: () => Promise<unknown>;
}

/** A page component exported by an area, loaded with its area's bundle the first time it renders. */
function lazyPage<Name extends string, Area extends Record<Name, ComponentType>>(
  loadArea: () => Promise<Area>,
  name: Name,
): ComponentType {
  return lazy<ComponentType>(async () => ({ default: (await loadArea())[name] }));
}

const account = loadOrReload(() => import('../areas/account'));
const subscription = loadOrReload(() => import('../areas/subscription'));
const checkin = loadOrReload(() => import('../areas/checkin'));
const publicPages = loadOrReload(() => import('../areas/public'));
const email = loadOrReload(() => import('../areas/email'));
const admin = loadOrReload(() => import('../areas/admin'));
// The help page on its own: the fastest page of all, it loads neither the check-in area nor Apollo.
const help = loadOrReload(() => import('../areas/checkin/HelpPage'));

export const PAGES: Partial<Record<PageKey, PageEntry>> = {
  landing: { component: lazyPage(publicPages, 'LandingPage'), shell: false, preload: publicPages },
  about: { component: lazyPage(publicPages, 'AboutPage'), shell: false, preload: publicPages },
  terms: { component: lazyPage(publicPages, 'TermsPage'), shell: false, preload: publicPages },
  privacy: { component: lazyPage(publicPages, 'PrivacyPage'), shell: false, preload: publicPages },
  faq: { component: lazyPage(publicPages, 'FaqPage'), shell: false, preload: publicPages },
  auth: { component: lazyPage(account, 'AuthPage'), shell: false },
  verifyEmail: { component: lazyPage(account, 'VerifyEmailPage'), shell: false },
  forgotPassword: { component: lazyPage(account, 'ForgotPasswordPage'), shell: false },
  resetPassword: { component: lazyPage(account, 'ResetPasswordPage'), shell: false },
  settings: { component: lazyPage(account, 'SettingsPage'), shell: true },
  subscription: { component: lazyPage(subscription, 'SubscriptionPage'), shell: true },
  dashboard: { component: lazyPage(checkin, 'DashboardPage'), shell: true },
  confirmNewsletter: { component: lazyPage(email, 'ConfirmNewsletterPage'), shell: false },
  unsubscribeNewsletter: { component: lazyPage(email, 'UnsubscribeNewsletterPage'), shell: false },
  unsubscribe: { component: lazyPage(email, 'UnsubscribePage'), shell: false },
  stopEmails: { component: lazyPage(email, 'StopEmailsPage'), shell: false },
  emailPreferences: { component: lazyPage(email, 'EmailPreferencesPage'), shell: true },
  adminNewsletter: { component: lazyPage(admin, 'AdminNewsletterPage'), shell: true },
  adminUsers: { component: lazyPage(admin, 'AdminUsersPage'), shell: true },
  sliders: { component: lazyPage(checkin, 'SlidersPage'), shell: true },
  favorites: { component: lazyPage(checkin, 'FavoritesPage'), shell: true },
  progress: { component: lazyPage(checkin, 'ProgressPage'), shell: true },
  analytics: { component: lazyPage(checkin, 'AnalyticsPage'), shell: true },
  help: { component: lazyPage(help, 'HelpPage'), shell: false, preload: help },
  safetyPlan: { component: lazyPage(checkin, 'SafetyPlanPage'), shell: false },
};
