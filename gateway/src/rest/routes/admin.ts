/** The admin's user management (the user service); admin only, refused with 403 for anyone else. */
import { AdminUsersDocument, AdminUserStatsDocument } from './admin.generated';
import { restRoute, type Json, type RestRoute } from './types';

/**
 * `?q=&status=&page=&pageSize=`: absent parameters are left out (the service's defaults apply); numbers are
 * passed as numbers, anything else as typed, so a wrong one is a 400 naming it ("Page must be a whole number").
 */
export function adminUsersInputOf(query: Json): Json {
  const input: Json = {};
  for (const name of ['q', 'status'] as const) {
    if (query[name] !== undefined) input[name] = query[name];
  }
  for (const name of ['page', 'pageSize'] as const) {
    const value = query[name];
    if (value === undefined) continue;
    input[name] = typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value;
  }
  return input;
}

export const adminRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    path: '/api/admin/users',
    document: AdminUsersDocument,
    variables: (_body, { query }) => ({ input: adminUsersInputOf(query) }),
    // The reply is the list itself (the /api contract); the total and the page travel in headers.
    reply: (data) => data.adminUsers.users,
    headers: ({ adminUsers: page }) => ({
      'X-Total-Count': String(page.total),
      'X-Page': String(page.page),
      'X-Page-Size': String(page.pageSize),
    }),
  }),
  restRoute({
    method: 'GET',
    path: '/api/admin/user-stats',
    document: AdminUserStatsDocument,
    reply: (data) => data.adminUserStats,
  }),
];
