/**
 * The app's route objects, read by the browser's router (app/router.tsx) and by the build's prerender step
 * (prerender/entry.tsx) alike. One catch-all route: the gating decision (`decideRoute`) picks the page, so the
 * rules live in one pure, tested function instead of being spread over a route tree.
 */
import { Outlet, ScrollRestoration, type RouteObject } from 'react-router-dom';
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

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [{ path: '*', element: <AppRoutes /> }],
  },
];
