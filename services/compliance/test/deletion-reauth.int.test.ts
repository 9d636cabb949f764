/**
 * Deleting an account needs a recent sign-in: the owner's own deletion and the admin's (one account or a list)
 * refuse a session older than REAUTH_MAX_AGE_MS with 401 REAUTH_REQUIRED and change nothing; after signing in
 * again the same request goes through. The window is a few seconds here, so a session grows old within the test.
 */
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { verifyByEmailLink } from '../../../tools/testing/verification';

/** Long enough for a sign-in and the request after it on a loaded machine (a token's time is in whole seconds). */
const windowMs = 5_000;
const password = 'a re-auth test password';
const adminEmail = uniqueEmail('admin');
let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven({ env: { REAUTH_MAX_AGE_MS: String(windowMs), ADMIN_EMAIL: adminEmail } });
  await Promise.all(Object.values(haven.services).map((service) => service.eventsReady));
});

afterAll(async () => {
  await haven?.stop();
});

const reauthRequired = {
  code: 'REAUTH_REQUIRED',
  reason: 'reauth_required',
  requiresAuth: false,
  message: 'For your safety, please sign in again before deleting an account. You will come back here to finish.',
};

async function registered(
  email = uniqueEmail('member'),
): Promise<{ client: ApiClient; userId: string; email: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const response = await client.post<{ user: { id: string } }>('/api/auth/register', { email, password });
  expect(response.status).toBe(201);
  return { client, userId: response.body.user.id, email };
}

/** When the client's session was opened, as its token says (`iat`, whole seconds). */
function signedInAt(client: ApiClient): number {
  const token = decodeURIComponent(client.cookieValue('haven_session') ?? '');
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iat: number };
  return payload.iat * 1000;
}

/** Waits on the clock alone until the client's sign-in is older than the window (nothing else is awaited). */
const olderThanTheWindow = (client: ApiClient) =>
  eventually(
    'the session to be older than the re-auth window',
    () => Date.now() - signedInAt(client) > windowMs + 500,
    { timeoutMs: 3 * windowMs, intervalMs: 200 },
  );

const accountExists = async (userId: string) =>
  (await (await haven.collection('user', 'users')).countDocuments({ _id: userId })) === 1;

it('refuses to delete one’s own account with an old session, and deletes it after signing in again', async () => {
  const { client, userId, email } = await registered();
  await olderThanTheWindow(client);

  const refused = await client.request('DELETE', '/api/user/delete-account');
  expect(refused.status).toBe(401);
  expect(refused.body).toEqual(reauthRequired);
  const overGraphql = await client.graphql('mutation { deleteAccount { requestId } }');
  expect(overGraphql.body.errors?.[0]).toMatchObject({
    message: reauthRequired.message,
    extensions: { code: 'REAUTH_REQUIRED', reason: 'reauth_required' },
  });
  // Nothing happened: still signed in, the account and its data are there, no deletion was recorded.
  expect((await client.get('/api/user')).status).toBe(200);
  expect(await accountExists(userId)).toBe(true);
  expect(await (await haven.collection('compliance', 'account_deletions')).countDocuments({})).toBe(0);

  // Signing in again (the same browser) makes the same request, with no body, go through.
  expect((await client.post('/api/auth/login', { email, password })).status).toBe(200);
  const deleted = await client.request('DELETE', '/api/user/delete-account');
  expect(deleted.status).toBe(200);
  expect(deleted.body).toMatchObject({ status: 'pending' });
  expect((await client.get('/api/user')).status).toBe(401);
  expect(await accountExists(userId)).toBe(false);
});

it('refuses an admin’s deletions with an old session, and carries them out after the admin signs in again', async () => {
  const admin = await registered(adminEmail);
  await verifyByEmailLink(haven.gatewayUrl, adminEmail, admin.client);
  const one = await registered();
  const two = await registered();
  await olderThanTheWindow(admin.client);

  const single = await admin.client.request('DELETE', `/api/admin/users/${one.userId}`);
  expect(single.status).toBe(401);
  expect(single.body).toEqual(reauthRequired);
  const bulk = await admin.client.post('/api/admin/users/bulk-delete', { userIds: [two.userId] });
  expect(bulk.status).toBe(401);
  expect(bulk.body).toEqual(reauthRequired);
  expect(await accountExists(one.userId)).toBe(true);
  expect(await accountExists(two.userId)).toBe(true);
  // Still the admin, still signed in: only the deletion needs the fresh sign-in.
  expect((await admin.client.get('/api/admin/users')).status).toBe(200);

  const signInAgain = async () =>
    expect((await admin.client.post('/api/auth/login', { email: adminEmail, password })).status).toBe(200);
  await signInAgain();
  expect((await admin.client.request('DELETE', `/api/admin/users/${one.userId}`)).status).toBe(200);
  // A deletion can outlast the test's few-second window on a loaded machine: the next one comes right after a sign-in.
  await signInAgain();
  const bulkAgain = await admin.client.post('/api/admin/users/bulk-delete', { userIds: [two.userId] });
  expect(bulkAgain.status).toBe(200);
  expect(bulkAgain.body).toMatchObject({ deleted: 1 });
  expect(await accountExists(one.userId)).toBe(false);
  expect(await accountExists(two.userId)).toBe(false);
});
