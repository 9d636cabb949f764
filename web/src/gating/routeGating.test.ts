import { normalisePath } from '@haven/platform/src/prerendered-pages';
import { decideRoute, PUBLIC_PATHS, SETUP_PATHS, SIGNED_IN_PATHS, type SessionState } from './routeGating';

const loading: SessionState = { status: 'loading' };
const signedOut: SessionState = { status: 'signedOut' };
const needsSetup: SessionState = { status: 'signedIn', needsSetup: true };
const ready: SessionState = { status: 'signedIn', needsSetup: false };
const allStates = [loading, signedOut, needsSetup, ready];

describe('decideRoute', () => {
  it('always shows the public pages, whatever the session', () => {
    const publicPaths = [
      '/about',
      '/auth',
      '/verify-email',
      '/confirm-newsletter',
      '/unsubscribe-newsletter',
      '/unsubscribe',
      '/stop-emails',
      '/terms',
      '/privacy',
      '/faq',
      '/help', // "Need help now?": signed in or out, subscribed or not
      '/safety-plan', // the person's own plan: never behind the paywall, and open offline from this device's copy
      '/forgot-password',
      '/reset-password',
    ];
    expect(Object.keys(PUBLIC_PATHS).sort()).toEqual([...publicPaths].sort());
    for (const state of allStates) {
      for (const path of publicPaths) {
        expect(decideRoute(state, path)).toEqual({ kind: 'page', page: PUBLIC_PATHS[path] });
      }
    }
  });

  it('shows only a spinner on / while the session loads', () => {
    expect(decideRoute(loading, '/')).toEqual({ kind: 'loading' });
  });

  it('waits for the session before deciding a signed-in path', () => {
    expect(decideRoute(loading, '/settings')).toEqual({ kind: 'loading' });
    expect(decideRoute(loading, '/subscription')).toEqual({ kind: 'loading' });
  });

  it('shows the landing page on / when signed out', () => {
    expect(decideRoute(signedOut, '/')).toEqual({ kind: 'page', page: 'landing' });
  });

  it('sends signed-out visitors of signed-in pages to /auth', () => {
    for (const path of Object.keys(SIGNED_IN_PATHS)) {
      expect(decideRoute(signedOut, path)).toEqual({ kind: 'redirect', to: '/auth' });
    }
  });

  it('sends a user who needs setup from / to /subscription', () => {
    expect(decideRoute(needsSetup, '/')).toEqual({ kind: 'redirect', to: '/subscription' });
  });

  it('lets a user who needs setup open only subscription, settings and the admin pages', () => {
    expect([...SETUP_PATHS].sort()).toEqual([
      '/admin/newsletter',
      '/admin/users',
      '/local-payments/authenticate',
      '/settings',
      '/subscription',
    ]);
    expect(decideRoute(needsSetup, '/subscription')).toEqual({ kind: 'page', page: 'subscription' });
    expect(decideRoute(needsSetup, '/settings')).toEqual({ kind: 'page', page: 'settings' });
    expect(decideRoute(needsSetup, '/admin/newsletter')).toEqual({ kind: 'page', page: 'adminNewsletter' });
    expect(decideRoute(needsSetup, '/admin/users')).toEqual({ kind: 'page', page: 'adminUsers' });
    for (const path of ['/sliders', '/favorites', '/progress', '/analytics', '/email-preferences']) {
      expect(decideRoute(needsSetup, path)).toEqual({ kind: 'redirect', to: '/subscription' });
    }
  });

  it('gives a set-up user the dashboard and every signed-in page', () => {
    expect(decideRoute(ready, '/')).toEqual({ kind: 'page', page: 'dashboard' });
    const expected: Record<string, string> = {
      '/sliders': 'sliders',
      '/favorites': 'favorites',
      '/progress': 'progress',
      '/analytics': 'analytics',
      '/settings': 'settings',
      '/email-preferences': 'emailPreferences',
      '/subscription': 'subscription',
      '/local-payments/authenticate': 'localAuthenticate',
      '/faq': 'faq',
      '/admin/newsletter': 'adminNewsletter',
      '/admin/users': 'adminUsers',
    };
    for (const [path, page] of Object.entries(expected)) {
      expect(decideRoute(ready, path)).toEqual({ kind: 'page', page });
    }
  });

  it('shows not-found for any other path, in every state', () => {
    for (const state of allStates) {
      for (const path of ['/nope', '/settings/extra', '/admin', '/AUTH', '/api', '/dashboard']) {
        expect(decideRoute(state, path)).toEqual({ kind: 'notFound' });
      }
    }
  });

  it('does not treat inherited object keys as routes', () => {
    expect(decideRoute(ready, '/constructor')).toEqual({ kind: 'notFound' });
    expect(decideRoute(ready, 'toString')).toEqual({ kind: 'notFound' });
  });

  it('ignores trailing slashes', () => {
    expect(decideRoute(ready, '/settings/')).toEqual({ kind: 'page', page: 'settings' });
    expect(decideRoute(signedOut, '/auth//')).toEqual({ kind: 'page', page: 'auth' });
  });
});

describe('normalisePath', () => {
  it('keeps the root and drops trailing slashes', () => {
    expect(normalisePath('/')).toBe('/');
    expect(normalisePath('')).toBe('/');
    expect(normalisePath('/faq/')).toBe('/faq');
  });
});

describe('decideRoute while the subscription call is pending or has failed', () => {
  const checking: SessionState = { status: 'signedIn', needsSetup: false, subscriptionCheck: 'loading' };
  const billingDown: SessionState = { status: 'signedIn', needsSetup: false, subscriptionCheck: 'error' };

  it('shows only a spinner at the root while the subscription is being checked', () => {
    expect(decideRoute(checking, '/')).toEqual({ kind: 'loading' });
    expect(decideRoute(checking, '/sliders')).toEqual({ kind: 'loading' });
  });

  it('keeps Settings and the subscription page open while checking and when the check failed', () => {
    for (const state of [checking, billingDown]) {
      for (const path of SETUP_PATHS) {
        expect(decideRoute(state, path)).toEqual({ kind: 'page', page: SIGNED_IN_PATHS[path] });
      }
    }
  });

  it('shows an error state, never the landing page or /auth, when billing cannot answer', () => {
    expect(decideRoute(billingDown, '/')).toEqual({ kind: 'subscriptionUnavailable' });
    expect(decideRoute(billingDown, '/progress')).toEqual({ kind: 'subscriptionUnavailable' });
  });

  it('follows the answer once it is there', () => {
    expect(decideRoute({ ...checking, subscriptionCheck: 'ready', needsSetup: true }, '/')).toEqual({
      kind: 'redirect',
      to: '/subscription',
    });
  });
});
