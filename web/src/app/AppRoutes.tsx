/** Renders whatever `decideRoute` says for the current session and path. */
import { Navigate, useLocation } from 'react-router-dom';
import { NotFoundPage } from '../pages/NotFoundPage';
import { toGatingState, useSession } from '../session/useSession';
import { FullPageSpinner } from '../ui/Spinner';
import { AppShell } from './AppShell';
import { PAGES } from './pages';
import { decideRoute } from './routeGating';

export function AppRoutes() {
  const session = useSession();
  const { pathname } = useLocation();
  const decision = decideRoute(toGatingState(session), pathname);

  switch (decision.kind) {
    case 'loading':
      return <FullPageSpinner />;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'notFound':
      return <NotFoundPage />;
    case 'page': {
      const entry = PAGES[decision.page];
      if (!entry) return <NotFoundPage />;
      const Page = entry.component;
      return entry.shell ? (
        <AppShell>
          <Page />
        </AppShell>
      ) : (
        <Page />
      );
    }
  }
}
