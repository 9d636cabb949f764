/**
 * The app's route objects, rendered by app/RouteTree.tsx in the browser and in the build's prerender step
 * (prerender/entry.tsx) alike. One catch-all route: the gating decision (`decideRoute`) picks the page, so the
 * rules live in one pure, tested function instead of being spread over a route tree.
 */
import { lazy, Suspense } from 'react';
import { Outlet, type RouteObject } from 'react-router-dom';
import { NeedHelpLink } from '../areas/checkin/NeedHelpLink';
import { loadOrReload } from '../lib/bundles';
import { AppRoutes } from './AppRoutes';
import { RouteError } from './RouteError';
import { ScrollRestoration } from './ScrollRestoration';

// Hidden until the server's answer says otherwise: its code loads beside the page, which is usable without it.
const CookieConsentRoot = lazy(
  loadOrReload(() =>
    import('../areas/privacy/CookieConsentRoot').then(({ CookieConsentRoot }) => ({ default: CookieConsentRoot })),
  ),
);

function Root() {
  return (
    <>
      <NeedHelpLink />
      <Outlet />
      <Suspense fallback={null}>
        <CookieConsentRoot />
      </Suspense>
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
