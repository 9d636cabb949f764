/**
 * The admin's delete operations (compliance: each one the account-deletion saga), called by the /admin/users
 * page; the server refuses anyone but the admin (requireAdmin, 403).
 */
import { AdminBulkDeleteUsersDocument, AdminDeleteUserDocument } from './admin-deletion.generated';
import { restRoute, type RestRoute } from './types';

export const adminDeletionRoutes: RestRoute[] = [
  restRoute({
    method: 'DELETE',
    path: '/api/admin/users/:id',
    document: AdminDeleteUserDocument,
    variables: (_body, { params }) => ({ id: params.id }),
    reply: (data) => data.adminDeleteUser,
  }),
  restRoute({
    method: 'POST',
    path: '/api/admin/users/bulk-delete',
    document: AdminBulkDeleteUsersDocument,
    // GraphQL would take a lone id as a list of one: the body must say "a list of ids" itself.
    validate: (body) => {
      if (!Array.isArray(body.userIds)) return { field: 'userIds', message: 'userIds must be a list of user ids' };
      if (body.userIds.some((id) => typeof id !== 'string')) {
        return { field: 'userIds', message: 'userIds must contain only user ids (text)' };
      }
      return null;
    },
    variables: (body) => ({ userIds: body.userIds }),
    reply: (data) => data.adminBulkDeleteUsers,
  }),
];
