/**
 * The /api contract, each route one GraphQL operation against the
 * supergraph. Replies keep the contract's field names (including its snake_case ones).
 * Routes live beside the service that answers them (one file per area); this list joins them.
 */
import { accountRoutes, logoutOperation } from './account';
import { adminDeletionRoutes } from './admin-deletion';
import { adminRoutes } from './admin';
import { billingRoutes } from './billing';
import { newsletterRoutes } from './newsletter';
import { privacyRoutes } from './privacy';
import { quoteRoutes } from './quote';
import type { RestRoute } from './types';

export type { HttpMethod, RestRoute } from './types';
export { logoutOperation };

export const restRoutes: RestRoute[] = [
  ...accountRoutes,
  ...quoteRoutes,
  ...billingRoutes,
  ...privacyRoutes,
  ...newsletterRoutes,
  ...adminDeletionRoutes,
  ...adminRoutes,
];
