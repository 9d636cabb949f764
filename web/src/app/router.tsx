import { Outlet, ScrollRestoration, createBrowserRouter } from 'react-router-dom';
import { NeedHelpLink } from '../areas/checkin/NeedHelpLink';
import { CookieConsentRoot } from '../areas/privacy/CookieConsentRoot';
import { AppRoutes } from './AppRoutes';
import { RouteError } from './RouteError';

function Root() {
  return (
    <>
      <NeedHelpLink />
      <Outlet />
      <CookieConsentRoot />
      <ScrollRestoration />
    </>
  );
}

/**
 * One catch-all route: the gating decision (`decideRoute`) picks the page, so the rules
 * live in one pure, tested function instead of being spread over a route tree.
 */
export const router = createBrowserRouter([
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [{ path: '*', element: <AppRoutes /> }],
  },
]);
