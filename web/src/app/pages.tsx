/**
 * Which component renders each page of the route table (gating/routeGating.ts), and whether it
 * sits in the signed-in shell. Each area is loaded on first use as its own bundle, through its
 * `index.ts`; a new page is exported there and listed here. The public pages, which need no Apollo, are
 * listed in app/publicPages.tsx (each its own bundle) and included here. A path of the route table not
 * listed renders the not-found page.
 */
import type { PageKey } from '../gating/routeGating';
import { loadOrReload } from '../lib/bundles';
import { lazyPage, PUBLIC_PAGES, type PageEntry } from './publicPages';

export type { PageEntry } from './publicPages';

const account = loadOrReload(() => import('../areas/account'));
const subscription = loadOrReload(() => import('../areas/subscription'));
const checkin = loadOrReload(() => import('../areas/checkin'));
const email = loadOrReload(() => import('../areas/email'));
const admin = loadOrReload(() => import('../areas/admin'));

export const PAGES: Partial<Record<PageKey, PageEntry>> = {
  ...PUBLIC_PAGES,
  auth: { component: lazyPage(account, 'AuthPage'), shell: false },
  verifyEmail: { component: lazyPage(account, 'VerifyEmailPage'), shell: false },
  forgotPassword: { component: lazyPage(account, 'ForgotPasswordPage'), shell: false },
  resetPassword: { component: lazyPage(account, 'ResetPasswordPage'), shell: false },
  settings: { component: lazyPage(account, 'SettingsPage'), shell: true },
  subscription: { component: lazyPage(subscription, 'SubscriptionPage'), shell: true },
  localAuthenticate: { component: lazyPage(subscription, 'LocalAuthenticatePage'), shell: true },
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
  safetyPlan: { component: lazyPage(checkin, 'SafetyPlanPage'), shell: false },
};
