/** The admin's user management (the user service); admin only, refused with 403 for anyone else. */
import type { Json, RestRoute } from './types';

const adminUserFields =
  'id email firstName lastName authProvider emailVerifiedAt subscriptionStatus createdAt trialEndsAt';

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
  {
    method: 'GET',
    path: '/api/admin/users',
    operation: `query AdminUsers($input: AdminUsersInput) {
      adminUsers(input: $input) { total page pageSize users { ${adminUserFields} } } }`,
    variables: (_body, { query }) => ({ input: adminUsersInputOf(query) }),
    // The reply is the list itself (the /api contract); the total and the page travel in headers.
    reply: (data) => (data.adminUsers as { users: Json[] }).users,
    headers: (data) => {
      const page = data.adminUsers as { total: number; page: number; pageSize: number };
      return { 'X-Total-Count': String(page.total), 'X-Page': String(page.page), 'X-Page-Size': String(page.pageSize) };
    },
  },
  {
    method: 'GET',
    path: '/api/admin/user-stats',
    operation: 'query AdminUserStats { adminUserStats { totalUsers verifiedUsers activeSubscriptions trialUsers } }',
    reply: (data) => data.adminUserStats as Json,
  },
];
