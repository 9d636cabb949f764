/**
 * The admin's delete operations, through REST and GraphQL: refused on the server for anyone but the admin
 * (nothing changes), one and several accounts deleted by the same saga as a user's own deletion, the
 * admin's own account refused, unknown ids said plainly, bad input answered 400 naming the field.
 */
import { eventuallyExpect } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { watchPublishedEvents, type PublishedEvents } from '../../../tools/testing/published-events';
import { startTrial } from '../../../tools/testing/subscription';
import { verifyByEmailLink } from '../../../tools/testing/verification';

const adminEmail = uniqueEmail('admin');
const password = 'an admin test password';
let haven: TestHaven;
let admin: ApiClient;
let adminId: string;
let billingEvents: PublishedEvents;

beforeAll(async () => {
  billingEvents = await watchPublishedEvents(['billing']);
  haven = await startTestHaven({ env: { ADMIN_EMAIL: adminEmail } });
  await Promise.all(Object.values(haven.services).map((service) => service.eventsReady));
  ({ client: admin, userId: adminId } = await member(adminEmail));
  await verifyByEmailLink(haven.gatewayUrl, adminEmail, admin);
});

afterAll(async () => {
  await haven?.stop();
  await billingEvents?.stop();
});

async function member(email = uniqueEmail('member')): Promise<{ client: ApiClient; userId: string; email: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', { email, password });
  expect(registered.status).toBe(201);
  return { client, userId: registered.body.user.id, email };
}

/** Still there: its own session still answers. */
const stillThere = async (client: ApiClient) => (await client.get('/api/user')).status === 200;

async function deletionCompleted(requestId: string) {
  await eventuallyExpect(`deletion ${requestId} completed`, async () => {
    const answer = await new ApiClient(haven.gatewayUrl).graphql<{ accountDeletion: { status: string } }>(
      'query($id: ID!) { accountDeletion(requestId: $id) { status } }',
      { id: requestId },
    );
    expect(answer.body.data?.accountDeletion.status).toBe('completed');
  });
}

describe('who may delete', () => {
  it('refuses a signed-in member through REST and GraphQL, and nothing changes', async () => {
    const intruder = await member();
    const target = await member();
    const single = await intruder.client.request('DELETE', `/api/admin/users/${target.userId}`);
    expect(single.status).toBe(403);
    expect(single.body).toMatchObject({ message: expect.stringMatching(/Admin access required/) });
    const bulk = await intruder.client.post('/api/admin/users/bulk-delete', { userIds: [target.userId] });
    expect(bulk.status).toBe(403);
    const graphql = await intruder.client.graphql(
      'mutation($id: ID!) { adminDeleteUser(id: $id) { stripeCleanup message } }',
      { id: target.userId },
    );
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const graphqlBulk = await intruder.client.graphql(
      'mutation($ids: [ID!]!) { adminBulkDeleteUsers(userIds: $ids) { deleted } }',
      { ids: [target.userId] },
    );
    expect(graphqlBulk.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const pending = await intruder.client.graphql('{ pendingAccountDeletions { requestId } }');
    expect(pending.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await stillThere(target.client)).toBe(true);
    expect(await stillThere(intruder.client)).toBe(true);
    expect(await (await haven.collection('compliance', 'account_deletions')).countDocuments()).toBe(0);
  });

  it('refuses someone signed out (401) and the internal steps are not in the public API', async () => {
    const target = await member();
    const anonymous = new ApiClient(haven.gatewayUrl);
    expect((await anonymous.request('DELETE', `/api/admin/users/${target.userId}`)).status).toBe(401);
    expect((await anonymous.request('DELETE', '/api/user/delete-account')).status).toBe(401);
    const internal = await target.client.graphql(
      'mutation($id: ID!) { closeAccountForErasure(userId: $id) { existed } }',
      {
        id: target.userId,
      },
    );
    expect(internal.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const payments = await target.client.graphql(
      'mutation($id: ID!) { closePaymentsForErasure(userId: $id) { cancelled } }',
      {
        id: target.userId,
      },
    );
    expect(payments.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(await stillThere(target.client)).toBe(true);
  });
});

describe('the admin deletes', () => {
  it('one account: its subscription cancelled, its sessions ended at once, the same saga', async () => {
    const target = await member();
    await startTrial(target.client);
    const answer = await admin.request<{ stripeCleanup: boolean; message: string; requestId: string }>(
      'DELETE',
      `/api/admin/users/${target.userId}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      stripeCleanup: true,
      message: expect.stringMatching(/subscription was cancelled/),
    });
    expect((await target.client.get('/api/user')).status).toBe(401);
    await deletionCompleted(answer.body.requestId);
    const pending = await admin.graphql<{ pendingAccountDeletions: Array<{ requestId: string }> }>(
      '{ pendingAccountDeletions { requestId } }',
    );
    expect(pending.body.data?.pendingAccountDeletions.map((each) => each.requestId)).not.toContain(
      answer.body.requestId,
    );
    expect(await (await haven.collection('quote', 'entitlements')).findOne({ _id: target.userId })).toBeNull();
    expect(await (await haven.collection('billing', 'subscriptions')).findOne({ _id: target.userId })).toBeNull();
    // The cancellation is an entitlement change like any other: its event went out (and e-mails no one).
    await billingEvents.waitFor(target.userId, 'billing.ended');
  });

  it('one account without a subscription: no payment cleanup, said so', async () => {
    const target = await member();
    const answer = await admin.request<{ stripeCleanup: boolean; message: string }>(
      'DELETE',
      `/api/admin/users/${target.userId}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ stripeCleanup: false, message: 'They had no subscription to cancel.' });
  });

  it('two accounts at once, and says what happened to each, an unknown id included', async () => {
    const subscribed = await member();
    await startTrial(subscribed.client);
    const plain = await member();
    const unknown = '00000000-0000-4000-8000-000000000000';
    const answer = await admin.post<{
      deleted: number;
      stripeCleanup: number;
      results: Array<{ userId: string; outcome: string; requestId: string | null }>;
    }>('/api/admin/users/bulk-delete', { userIds: [subscribed.userId, plain.userId, unknown, plain.userId] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ deleted: 2, stripeCleanup: 1 });
    expect(answer.body.results.map(({ userId, outcome }) => ({ userId, outcome }))).toEqual([
      { userId: subscribed.userId, outcome: 'deleted' },
      { userId: plain.userId, outcome: 'deleted' },
      { userId: unknown, outcome: 'not_found' },
    ]);
    expect((await subscribed.client.get('/api/user')).status).toBe(401);
    expect((await plain.client.get('/api/user')).status).toBe(401);
    for (const result of answer.body.results.filter((each) => each.requestId))
      await deletionCompleted(result.requestId!);
  });

  it('answers 404 for an unknown id, and an id already deleted', async () => {
    const target = await member();
    expect((await admin.request('DELETE', `/api/admin/users/${target.userId}`)).status).toBe(200);
    const again = await admin.request('DELETE', `/api/admin/users/${target.userId}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ message: expect.stringMatching(/no user with this id/i) });
  });

  it('refuses the admin’s own account, one or among others, and deletes nothing', async () => {
    const bystander = await member();
    const own = await admin.request('DELETE', `/api/admin/users/${adminId}`);
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({ field: 'id', message: expect.stringMatching(/own account/) });
    const mixed = await admin.post('/api/admin/users/bulk-delete', { userIds: [bystander.userId, adminId] });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({ field: 'userIds', message: expect.stringMatching(/own account/) });
    expect(await stillThere(admin)).toBe(true);
    expect(await stillThere(bystander.client)).toBe(true);
  });
});

describe('bad input', () => {
  it('answers 400 naming userIds for anything but a list of 1–100 user ids, and deletes nothing', async () => {
    const bystander = await member();
    const before = await (await haven.collection('compliance', 'account_deletions')).countDocuments();
    const tooMany = Array.from(
      { length: 101 },
      (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    );
    for (const body of [
      { userIds: bystander.userId },
      {},
      { userIds: [] },
      { userIds: tooMany },
      { userIds: [42] },
      { userIds: [bystander.userId, null] },
      { userIds: ['not-an-id'] },
    ]) {
      const answer = await admin.post('/api/admin/users/bulk-delete', body);
      expect({ body, status: answer.status, field: answer.body.field }).toEqual({
        body,
        status: 400,
        field: 'userIds',
      });
      expect(answer.body.message).toEqual(expect.stringContaining('userIds'));
    }
    const notJson = await admin.request('POST', '/api/admin/users/bulk-delete', { rawBody: '[1,2]' });
    expect(notJson.status).toBe(400);
    const badId = await admin.request('DELETE', '/api/admin/users/not-an-id');
    expect(badId.status).toBe(400);
    expect(badId.body).toMatchObject({ field: 'id' });
    const graphql = await admin.graphql('mutation { adminBulkDeleteUsers(userIds: []) { deleted } }');
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'userIds' });
    expect(await stillThere(bystander.client)).toBe(true);
    expect(await (await haven.collection('compliance', 'account_deletions')).countDocuments()).toBe(before);
  });

  it('answers 400 for a deletion request id that is not one', async () => {
    const answer = await new ApiClient(haven.gatewayUrl).graphql('{ accountDeletion(requestId: "nope") { status } }');
    expect(answer.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'requestId' });
  });
});
