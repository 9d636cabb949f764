/**
 * Which component renders each page of the route table (gating/routeTable.ts): the compiler asks for every page
 * here, or in app/publicPages.tsx for a page that needs no Apollo (each its own bundle, rendered before Apollo has
 * loaded). Each area is loaded on first use as its own bundle, through its `index.ts`; a new page is exported there
 * and listed here.
 */
import type { PageKey } from '../gating/routeTable';
import { loadOrReload } from '../lib/bundles';
import { lazyPage, PUBLIC_PAGES, type PageEntry } from './publicPages';

export type { PageEntry } from './publicPages';

const account = loadOrReload(() => import('../areas/account'));
const subscription = loadOrReload(() => import('../areas/subscription'));
const checkin = loadOrReload(() => import('../areas/checkin'));
const email = loadOrReload(() => import('../areas/email'));
const admin = loadOrReload(() => import('../areas/admin'));

const APOLLO_PAGES: Record<Exclude<PageKey, keyof typeof PUBLIC_PAGES>, PageEntry> = {
  auth: { component: lazyPage(account, 'AuthPage') },
  verifyEmail: { component: lazyPage(account, 'VerifyEmailPage') },
  forgotPassword: { component: lazyPage(account, 'ForgotPasswordPage') },
  resetPassword: { component: lazyPage(account, 'ResetPasswordPage') },
  settings: { component: lazyPage(account, 'SettingsPage') },
  subscription: { component: lazyPage(subscription, 'SubscriptionPage') },
  localAuthenticate: { component: lazyPage(subscription, 'LocalAuthenticatePage') },
  dashboard: { component: lazyPage(checkin, 'DashboardPage') },
  confirmNewsletter: { component: lazyPage(email, 'ConfirmNewsletterPage') },
  unsubscribeNewsletter: { component: lazyPage(email, 'UnsubscribeNewsletterPage') },
  unsubscribe: { component: lazyPage(email, 'UnsubscribePage') },
  stopEmails: { component: lazyPage(email, 'StopEmailsPage') },
  emailPreferences: { component: lazyPage(email, 'EmailPreferencesPage') },
  adminNewsletter: { component: lazyPage(admin, 'AdminNewsletterPage') },
  adminUsers: { component: lazyPage(admin, 'AdminUsersPage') },
  sliders: { component: lazyPage(checkin, 'SlidersPage') },
  favorites: { component: lazyPage(checkin, 'FavoritesPage') },
  progress: { component: lazyPage(checkin, 'ProgressPage') },
  analytics: { component: lazyPage(checkin, 'AnalyticsPage') },
  safetyPlan: { component: lazyPage(checkin, 'SafetyPlanPage') },
};

export const PAGES: Record<PageKey, PageEntry> = { ...PUBLIC_PAGES, ...APOLLO_PAGES };
