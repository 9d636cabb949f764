/**
 * Renders whatever `decideRoute` says for the current session (`useSession`, Apollo) and path. Loaded
 * with Apollo (app/ApolloRoutes.tsx) the first time a page needs more than the public pages.
 */
import { Suspense, useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { decideRoute } from '../gating/routeGating';
import { ROUTES, type PageKey } from '../gating/routeTable';
import { toGatingState, useSession, type Session } from '../gating/useSession';
import { reauthReturn } from '../lib/reauth';
import { FullPageSpinner, Spinner } from '../ui/Spinner';
import { AppShell } from './AppShell';
import { NotFoundPage } from './NotFoundPage';
import { PAGES } from './pages';
import { SubscriptionUnavailable } from './SubscriptionUnavailable';
import { WaitingCheckInsSender } from '../areas/checkin/WaitingCheckInsSender';

/**
 * Drawn inside the signed-in header and bottom navigation: every page of the route table's signed-in groups. Here,
 * not in the table's module, as only this bundle needs it (the table's is the first page's, prerender/budget.ts).
 */
function inSignedInShell(page: PageKey): boolean {
  return page in ROUTES.signedIn || page in ROUTES.setup;
}

export function SessionRoutes() {
  const session = useSession();
  return (
    <>
      {session.status === 'signedIn' && (
        <WaitingCheckInsSender userId={session.user.id} canSend={session.hasActiveSubscription} />
      )}
      <SessionRoute session={session} />
    </>
  );
}

function SessionRoute({ session }: { session: Session }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const decision = decideRoute(toGatingState(session), pathname);

  // Signed in again for a deletion (a provider's sign-in lands on /): back to the page that asked, to finish.
  useEffect(() => {
    if (session.status !== 'signedIn') return;
    const back = reauthReturn(pathname);
    if (back) navigate(back, { replace: true });
  }, [session.status, pathname, navigate]);

  switch (decision.kind) {
    case 'loading':
      return <FullPageSpinner />;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'notFound':
      return <NotFoundPage />;
    case 'subscriptionUnavailable':
      return (
        <AppShell>
          <SubscriptionUnavailable onRetry={session.status === 'signedIn' ? session.refetchSubscription : undefined} />
        </AppShell>
      );
    case 'page': {
      const Page = PAGES[decision.page].component;
      // A spinner shows while the page's area bundle loads; in the shell, between its header and navigation.
      if (!inSignedInShell(decision.page)) {
        return (
          <Suspense fallback={<FullPageSpinner />}>
            <Page />
          </Suspense>
        );
      }
      return (
        <AppShell>
          <Suspense
            fallback={
              <div className="page page--loading">
                <Spinner size="lg" />
              </div>
            }
          >
            <Page />
          </Suspense>
        </AppShell>
      );
    }
  }
}
