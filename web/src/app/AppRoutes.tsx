/**
 * The app's one route element. Until a page needs Apollo, the public pages (landing, About, Terms,
 * Privacy, FAQ, help) and the not-found page are decided and rendered from the session probe alone, so their
 * visitors never download Apollo Client, and the build can prerender them (prerender/entry.tsx); any other
 * page loads Apollo (app/ApolloRoutes.tsx) and from then on every page goes
 * through it, so a sign-in on /auth is seen by `/` at once.
 */
import { lazy, Suspense, useContext } from 'react';
import { useLocation } from 'react-router-dom';
import { decideRoute, type PageKey } from '../gating/routeGating';
import { probeGatingState } from '../gating/sessionProbe';
import { sessionCopy } from '../gating/sessionCopy';
import { useSessionProbe } from '../gating/sessionProbeClient';
import { loadOrReload } from '../lib/bundles';
import { PrerenderContext } from '../lib/prerendered';
import { FullPageSpinner } from '../ui/Spinner';
import { NotFoundPage } from './NotFoundPage';
import { PUBLIC_PAGES, type PageEntry } from './publicPages';

const ApolloRoutes = lazy(loadOrReload(() => import('./ApolloRoutes')));

/** Pages that use no GraphQL (app/publicPages.tsx): rendered without Apollo while it has not been needed yet. */
const PAGES_WITHOUT_APOLLO: Partial<Record<PageKey, PageEntry>> = PUBLIC_PAGES;

let apolloInUse = false;

export function AppRoutes() {
  const probe = useSessionProbe();
  const { pathname } = useLocation();

  // No answer at all, and someone was signed in here last (the installed app opened offline): the session routes
  // decide, from the device's copy, rather than the public pages showing a signed-out view.
  if (probe.status === 'done' && probe.unanswered && sessionCopy()) apolloInUse = true;
  // The build's prerender draws every page in one process: there each page decides afresh, as a page load does.
  const prerendering = useContext(PrerenderContext) !== null;
  if (!apolloInUse || prerendering) {
    // While the probe is on its way, a visitor's likely page starts loading alongside it.
    if (probe.status === 'loading') {
      const likely = decideRoute({ status: 'signedOut' }, pathname);
      if (likely.kind === 'page') void PAGES_WITHOUT_APOLLO[likely.page]?.preload?.();
    }
    const decision = decideRoute(probeGatingState(probe), pathname);
    // A signed-in visitor's subscription is asked by the session routes: only the probe itself is waited for.
    if (decision.kind === 'loading' && probe.status === 'loading') return <FullPageSpinner />;
    if (decision.kind === 'notFound' && probe.status === 'done') return <NotFoundPage />;
    const entry = decision.kind === 'page' ? PAGES_WITHOUT_APOLLO[decision.page] : undefined;
    if (entry) {
      const Page = entry.component;
      return (
        <Suspense fallback={<FullPageSpinner />}>
          <Page />
        </Suspense>
      );
    }
    if (!prerendering) apolloInUse = true;
  }

  return (
    <Suspense fallback={<FullPageSpinner />}>
      <ApolloRoutes />
    </Suspense>
  );
}
