/**
 * Route gating, as one pure decision:
 * given the session state and a path, what does the app show?
 *
 * | Situation                                  | What is available                                    |
 * | Always                                     | PUBLIC_PATHS                                         |
 * | Session loading                            | `/` (and signed-in paths) show only a spinner        |
 * | Signed out                                 | `/` = landing; signed-in paths redirect to /auth     |
 * | Signed in, subscription check loading      | `/` and paths beyond SETUP_PATHS show only a spinner |
 * | Signed in, subscription check failed       | SETUP_PATHS work; elsewhere an error state (never the landing page) |
 * | Signed in, setup needed                    | `/` → /subscription; only SETUP_PATHS, others → /subscription |
 * | Signed in, no setup needed                 | `/` = dashboard and every signed-in path             |
 * | Any other path                             | not found                                            |
 */

import { normalisePath } from '@haven/platform/src/prerendered-pages';

/** The subscription call, made only once signed in: loading, answered, or failed (billing unreachable). */
export type SubscriptionCheck = 'loading' | 'ready' | 'error';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signedOut' }
  /** `subscriptionCheck` absent means answered. */
  | { status: 'signedIn'; needsSetup: boolean; subscriptionCheck?: SubscriptionCheck };

export type PageKey =
  // always available
  | 'about'
  | 'auth'
  | 'verifyEmail'
  | 'confirmNewsletter'
  | 'unsubscribeNewsletter'
  | 'unsubscribe'
  | 'stopEmails'
  | 'terms'
  | 'privacy'
  | 'faq'
  | 'help'
  | 'safetyPlan'
  | 'forgotPassword'
  | 'resetPassword'
  // `/`
  | 'landing'
  | 'dashboard'
  // signed in
  | 'sliders'
  | 'favorites'
  | 'progress'
  | 'analytics'
  | 'settings'
  | 'emailPreferences'
  | 'subscription'
  | 'localAuthenticate'
  | 'adminNewsletter'
  | 'adminUsers';

export type RouteDecision =
  | { kind: 'page'; page: PageKey }
  | { kind: 'redirect'; to: string }
  | { kind: 'loading' }
  | { kind: 'notFound' }
  /** Signed in, but whether the subscription lets them in is unknown (the subscription call failed). */
  | { kind: 'subscriptionUnavailable' };

/** Available regardless of login. */
export const PUBLIC_PATHS: Readonly<Record<string, PageKey>> = {
  '/about': 'about',
  '/auth': 'auth',
  '/verify-email': 'verifyEmail',
  '/confirm-newsletter': 'confirmNewsletter',
  '/unsubscribe-newsletter': 'unsubscribeNewsletter',
  '/unsubscribe': 'unsubscribe',
  // An e-mail's stop link: works signed out, as the e-mail promises.
  '/stop-emails': 'stopEmails',
  '/terms': 'terms',
  '/privacy': 'privacy',
  '/faq': 'faq',
  // "Need help now?": helplines, never behind sign-in or the paywall.
  '/help': 'help',
  // The person's safety plan: it says how to write one when signed out, and opens from this device's copy offline.
  '/safety-plan': 'safetyPlan',
  // Account care: reached signed out, from the sign-in screen and the e-mailed link.
  '/forgot-password': 'forgotPassword',
  '/reset-password': 'resetPassword',
};

/** Available only when signed in (besides `/`, which both states use). */
export const SIGNED_IN_PATHS: Readonly<Record<string, PageKey>> = {
  '/sliders': 'sliders',
  '/favorites': 'favorites',
  '/progress': 'progress',
  '/analytics': 'analytics',
  '/settings': 'settings',
  '/email-preferences': 'emailPreferences',
  '/subscription': 'subscription',
  // The local test-mode provider's stand-in for the bank's check of a card (Stripe hosts its own).
  '/local-payments/authenticate': 'localAuthenticate',
  '/admin/newsletter': 'adminNewsletter',
  '/admin/users': 'adminUsers',
};

/** What a signed-in user who still needs subscription setup may open. */
export const SETUP_PATHS: ReadonlySet<string> = new Set([
  '/subscription',
  '/local-payments/authenticate',
  '/settings',
  '/admin/newsletter',
  '/admin/users',
]);

export const AUTH_PATH = '/auth';
export const SETUP_PATH = '/subscription';

function lookup(table: Readonly<Record<string, PageKey>>, path: string): PageKey | undefined {
  return Object.prototype.hasOwnProperty.call(table, path) ? table[path] : undefined;
}

export function decideRoute(state: SessionState, rawPath: string): RouteDecision {
  const path = normalisePath(rawPath);

  const publicPage = lookup(PUBLIC_PATHS, path);
  if (publicPage) return { kind: 'page', page: publicPage };

  if (path === '/') {
    switch (state.status) {
      case 'loading':
        return { kind: 'loading' };
      case 'signedOut':
        return { kind: 'page', page: 'landing' };
      case 'signedIn':
        if (state.subscriptionCheck === 'loading') return { kind: 'loading' };
        if (state.subscriptionCheck === 'error') return { kind: 'subscriptionUnavailable' };
        return state.needsSetup ? { kind: 'redirect', to: SETUP_PATH } : { kind: 'page', page: 'dashboard' };
    }
  }

  const signedInPage = lookup(SIGNED_IN_PATHS, path);
  if (signedInPage) {
    switch (state.status) {
      case 'loading':
        return { kind: 'loading' };
      case 'signedOut':
        return { kind: 'redirect', to: AUTH_PATH };
      case 'signedIn':
        if (!SETUP_PATHS.has(path)) {
          if (state.subscriptionCheck === 'loading') return { kind: 'loading' };
          if (state.subscriptionCheck === 'error') return { kind: 'subscriptionUnavailable' };
        }
        if (state.needsSetup && !SETUP_PATHS.has(path)) return { kind: 'redirect', to: SETUP_PATH };
        return { kind: 'page', page: signedInPage };
    }
  }

  return { kind: 'notFound' };
}
