/**
 * Route gating, as one pure decision:
 * given the session state and a path, what does the app show? The paths and who may open each are the route
 * table's (routeTable.ts).
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
import { ROUTES, type PageKey } from './routeTable';

/** The subscription call, made only once signed in: loading, answered, or failed (billing unreachable). */
export type SubscriptionCheck = 'loading' | 'ready' | 'error';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signedOut' }
  /** `subscriptionCheck` absent means answered. */
  | { status: 'signedIn'; needsSetup: boolean; subscriptionCheck?: SubscriptionCheck };

export type { PageKey } from './routeTable';

export type RouteDecision =
  | { kind: 'page'; page: PageKey }
  | { kind: 'redirect'; to: string }
  | { kind: 'loading' }
  | { kind: 'notFound' }
  /** Signed in, but whether the subscription lets them in is unknown (the subscription call failed). */
  | { kind: 'subscriptionUnavailable' };

/** Path → page, for the table's pages that some access allows: `/` apart, which the session decides (below). */
function pathsFor(...groups: ReadonlyArray<Readonly<Record<string, string>>>): Readonly<Record<string, PageKey>> {
  const table: Record<string, PageKey> = {};
  for (const group of groups)
    for (const [page, path] of Object.entries(group)) if (path !== '/') table[path] = page as PageKey;
  return table;
}

/** Available regardless of login. */
export const PUBLIC_PATHS = pathsFor(ROUTES.public);

/** Available only when signed in (besides `/`, which both states use). */
export const SIGNED_IN_PATHS = pathsFor(ROUTES.signedIn, ROUTES.setup);

/** What a signed-in user who still needs subscription setup may open. */
export const SETUP_PATHS: ReadonlySet<string> = new Set(Object.values(ROUTES.setup));

export const AUTH_PATH = ROUTES.public.auth;
export const SETUP_PATH = ROUTES.setup.subscription;

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
