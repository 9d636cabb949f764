/**
 * The admin's delete operations (compliance: each one the account-deletion saga). The /admin/users page
 * of the admin issue calls them; the server refuses anyone but the admin (requireAdmin, 403).
 */
import type { Json, RestRoute } from './types';

export const adminDeletionRoutes: RestRoute[] = [
  {
    method: 'DELETE',
    path: '/api/admin/users/:id',
    operation: `mutation AdminDeleteUser($id: ID!) { adminDeleteUser(id: $id) { stripeCleanup message requestId } }`,
    variables: (_body, { params }) => ({ id: params.id }),
    reply: (data) => data.adminDeleteUser as Json,
  },
  {
    method: 'POST',
    path: '/api/admin/users/bulk-delete',
    operation: `mutation AdminBulkDeleteUsers($userIds: [ID!]!) { adminBulkDeleteUsers(userIds: $userIds) {
      deleted stripeCleanup results { userId outcome message requestId } } }`,
    // GraphQL would take a lone id as a list of one: the body must say "a list of ids" itself.
    validate: (body) => {
      if (!Array.isArray(body.userIds)) return { field: 'userIds', message: 'userIds must be a list of user ids' };
      if (body.userIds.some((id) => typeof id !== 'string')) {
        return { field: 'userIds', message: 'userIds must contain only user ids (text)' };
      }
      return null;
    },
    variables: (body) => ({ userIds: body.userIds }),
    reply: (data) => data.adminBulkDeleteUsers as Json,
  },
];
