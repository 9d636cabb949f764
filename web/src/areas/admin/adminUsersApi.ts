/**
 * The delete calls of the user-management page, on the /api REST routes with plain fetch (their GraphQL
 * operations belong to the account-deletion work, so this page does not depend on their names).
 */
import { REAUTH_REQUIRED, ReauthRequiredError } from '../../lib/reauth';

export interface DeleteReply {
  stripeCleanup: boolean;
  message: string;
}

export interface BulkDeleteReply {
  deleted: number;
  stripeCleanup: number;
}

/** The server's `message` when it sent one, else "status: text"; a call for a fresh sign-in says so. */
async function failure(response: Response): Promise<Error> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown; code?: unknown };
    if (body.code === REAUTH_REQUIRED) return new ReauthRequiredError(String(body.message ?? ''));
    if (typeof body.message === 'string' && body.message) return new Error(body.message);
  } catch {
    // not JSON
  }
  return new Error(`${response.status}: ${text || response.statusText}`);
}

async function send<T>(method: 'DELETE' | 'POST', url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

export function deleteUser(id: string): Promise<DeleteReply> {
  return send('DELETE', `/api/admin/users/${encodeURIComponent(id)}`);
}

export function bulkDeleteUsers(userIds: string[]): Promise<BulkDeleteReply> {
  return send('POST', '/api/admin/users/bulk-delete', { userIds });
}
