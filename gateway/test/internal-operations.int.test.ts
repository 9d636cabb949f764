/**
 * The internal-operations hole, shut twice: the hook proxy forwards only the routes the catalog declares, matched
 * on the raw request path (so no `%2e%2e` spelling reaches a subgraph's /graphql with the gateway's secret), and
 * the operations only services call (`@internal`) need the service credential, which neither the gateway's
 * secret nor a user's session replaces.
 */
import { serviceCredentialHeader, subgraphSecretHeader } from '@haven/platform';
import crypto from 'node:crypto';
import {
  serviceNames,
  startTestHaven,
  testServiceSecret,
  testSubgraphSecret,
  type TestHaven,
} from '../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../tools/testing/http';
import { rawRequest, type RawReply } from '../../tools/testing/raw-http';
import { startTrial } from '../../tools/testing/subscription';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

const sdlQuery = JSON.stringify({ query: '{ _service { sdl } }' });

/** Every way of writing "one folder up, then graphql" that a URL parser resolves, and its neighbours. */
const traversals = [
  '/%2e%2e/graphql',
  '/.%2e/graphql',
  '/%2e./graphql',
  '/%2E%2E/graphql',
  '/%2e%2E/graphql',
  '/.%2E/graphql',
  '/%2E./graphql',
  '/../graphql',
  '/./../graphql',
  '/%2e/%2e%2e/graphql',
  '/%2e%2e%2fgraphql',
  '/%2E%2E%2Fgraphql',
  '/..%2fgraphql',
  '/..%2Fgraphql',
  '/x/%2e%2e/%2e%2e/graphql',
  '/stripe/webhook/%2e%2e/%2e%2e/%2e%2e/graphql',
  '/newsletter/one-click/%2e%2e/%2e%2e/%2e%2e/graphql',
  '/export/%2e%2e/%2e%2e/graphql',
  '//graphql',
  '/..//graphql',
  '/%2e%2e//graphql',
  '/..\\graphql',
  '/%2e%2e%5cgraphql',
  '/%5c..%5cgraphql',
  '/%2e%2e',
  '/..',
  '/%2e%2e/healthz',
];

describe('the hook proxy forwards the declared routes only', () => {
  it.each(serviceNames)(
    '%s: every traversal spelling is 404 at the gateway, and no schema comes back',
    async (name) => {
      const outcomes: string[] = [];
      for (const traversal of traversals) {
        for (const method of ['POST', 'GET']) {
          const path = `/hooks/${name}${traversal}`;
          const reply = await rawRequest(haven.gatewayUrl, method, path, {
            body: method === 'POST' ? sdlQuery : undefined,
          });
          const leaked = /_service|sdl|type Query/.test(reply.text);
          const gateways = reply.status === 404 && reply.json.message === 'No such route';
          if (!gateways || leaked) outcomes.push(`${method} ${path} → ${reply.status} ${reply.text.slice(0, 80)}`);
        }
      }
      expect(outcomes).toEqual([]);
    },
  );

  it('refuses other spellings of a declared route (encoded, doubled, dotted, other case, trailing slash)', async () => {
    const spellings = [
      '/hooks/notification/newsletter/one%2Dclick',
      '/hooks/notification/newsletter%2fone-click',
      '/hooks/notification//newsletter/one-click',
      '/hooks/notification/newsletter/./one-click',
      '/hooks/notification/x/../newsletter/one-click',
      '/hooks/notification/x/%2e%2e/newsletter/one-click',
      '/hooks/notification/newsletter/one-click/',
      '/hooks/notification/Newsletter/one-click',
      '/hooks/%6eotification/newsletter/one-click',
      '/hooks/billing/../notification/newsletter/one-click',
    ];
    const outcomes: string[] = [];
    for (const path of spellings) {
      const reply = await rawRequest(haven.gatewayUrl, 'POST', `${path}?token=not-a-token`);
      if (reply.status !== 404 || reply.json.message !== 'No such route') outcomes.push(`${path} → ${reply.status}`);
    }
    expect(outcomes).toEqual([]);
  });

  it('still forwards every declared route, with its query string', async () => {
    const unsubscribe = await rawRequest(
      haven.gatewayUrl,
      'POST',
      '/hooks/notification/newsletter/one-click?token=nope',
      {
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    );
    expect(unsubscribe.status).toBe(400);
    expect(unsubscribe.json).toMatchObject({ unsubscribed: false });

    const opened = await rawRequest(haven.gatewayUrl, 'GET', '/hooks/notification/newsletter/one-click?token=abc123');
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe('/unsubscribe-newsletter?token=abc123');

    // Billing's own answer (no Stripe keys in this run), not the gateway's "No such route".
    const webhook = await rawRequest(haven.gatewayUrl, 'POST', '/hooks/billing/stripe/webhook', { body: '{}' });
    expect(webhook.status).toBe(404);
    expect(webhook.json).toEqual({ message: 'Stripe is not configured' });

    for (const path of ['/hooks/quote/export', '/api/user/export']) {
      const download = await rawRequest(haven.gatewayUrl, 'GET', path);
      expect([path, download.status, download.json]).toEqual([path, 401, { message: 'Not signed in' }]);
    }
  });
});

/** A signed-in member with a running trial, and the bearer token the gateway would forward for them. */
async function subscribedMember(): Promise<{ client: ApiClient; userId: string; token: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: uniqueEmail('internal'),
    password: 'a long enough password',
  });
  expect(registered.status).toBe(201);
  await startTrial(client);
  return { client, userId: registered.body.user.id, token: client.cookieValue('haven_session')! };
}

const closePayments = (userId: string) =>
  JSON.stringify({
    query: 'mutation($id: ID!) { closePaymentsForErasure(userId: $id) { cancelled provider } }',
    variables: { id: userId },
  });
const closeAccount = (userId: string) =>
  JSON.stringify({
    query: 'mutation($id: ID!) { closeAccountForErasure(userId: $id) { existed } }',
    variables: { id: userId },
  });

const code = (reply: RawReply) => (reply.json.errors?.[0]?.extensions?.code as string | undefined) ?? 'ok';

describe('internal operations answer Haven’s services only', () => {
  it('refuses the deletion saga’s steps and a person’s data key with the gateway’s secret and the user’s own token (the attack)', async () => {
    const member = await subscribedMember();
    const asGatewayForUser = { [subgraphSecretHeader]: testSubgraphSecret, authorization: `Bearer ${member.token}` };
    const billing = new URL(haven.services.billing.url);
    const user = new URL(haven.services.user.url);

    const payments = await rawRequest(billing.origin, 'POST', billing.pathname, {
      body: closePayments(member.userId),
      headers: asGatewayForUser,
    });
    expect([payments.status, code(payments)]).toEqual([403, 'FORBIDDEN']);
    expect(payments.json.data ?? null).toBeNull();
    const account = await rawRequest(user.origin, 'POST', user.pathname, {
      body: closeAccount(member.userId),
      headers: asGatewayForUser,
    });
    expect([account.status, code(account)]).toEqual([403, 'FORBIDDEN']);
    // The person's data key: it unseals their journal, so only a Haven service may ask for it.
    const dataKey = await rawRequest(user.origin, 'POST', user.pathname, {
      body: JSON.stringify({
        query: 'query($id: ID!) { personDataKey(userId: $id) }',
        variables: { id: member.userId },
      }),
      headers: asGatewayForUser,
    });
    expect([dataKey.status, code(dataKey)]).toEqual([403, 'FORBIDDEN']);
    expect(dataKey.json.data ?? null).toBeNull();

    // Hidden in a fragment under an alias, or with a wrong credential beside the secret: the same.
    const disguised = await rawRequest(billing.origin, 'POST', billing.pathname, {
      body: JSON.stringify({
        query:
          'mutation($id: ID!) { ...Close } fragment Close on Mutation { x: closePaymentsForErasure(userId: $id) { cancelled } }',
        variables: { id: member.userId },
      }),
      headers: { ...asGatewayForUser, [serviceCredentialHeader]: 'not-the-service-credential' },
    });
    expect(code(disguised)).toBe('FORBIDDEN');

    // Nothing changed: the trial runs and the account signs in.
    const status = await member.client.get<{ status: string }>('/api/subscription-status');
    expect(status.body.status).toBe('trialing');
    const subscription = await (await haven.collection('billing', 'subscriptions')).findOne({ _id: member.userId });
    expect(subscription?.status).toBe('trialing');
    expect((await member.client.get('/api/user')).status).toBe(200);
  });

  it('refuses them without any secret at the door (401)', async () => {
    const member = await subscribedMember();
    const billing = new URL(haven.services.billing.url);
    const reply = await rawRequest(billing.origin, 'POST', billing.pathname, {
      body: closePayments(member.userId),
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(reply.status).toBe(401);
  });

  it('keeps the test clock for services too: not through the gateway, not with the gateway’s secret', async () => {
    const member = await subscribedMember();
    const viaGateway = await member.client.graphql('mutation { advanceBillingClock(seconds: 60) }');
    expect(viaGateway.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const billing = new URL(haven.services.billing.url);
    const advance = JSON.stringify({ query: 'mutation { advanceBillingClock(seconds: 60) }' });
    const withSecret = await rawRequest(billing.origin, 'POST', billing.pathname, {
      body: advance,
      headers: { [subgraphSecretHeader]: testSubgraphSecret, authorization: `Bearer ${member.token}` },
    });
    expect(code(withSecret)).toBe('FORBIDDEN');
    const asService = await rawRequest(billing.origin, 'POST', billing.pathname, {
      body: advance,
      headers: { [serviceCredentialHeader]: testServiceSecret },
    });
    expect(code(asService)).toBe('ok');
    expect(typeof asService.json.data?.advanceBillingClock).toBe('number');
  });

  it('gives a person’s data key to a service for a real account only: a malformed id is refused by name, an unknown one gets none', async () => {
    const user = new URL(haven.services.user.url);
    const keyFor = (id: string) =>
      rawRequest(user.origin, 'POST', user.pathname, {
        body: JSON.stringify({ query: 'query($id: ID!) { personDataKey(userId: $id) }', variables: { id } }),
        headers: { [serviceCredentialHeader]: testServiceSecret },
      });
    const keys = await haven.collection('user', 'person_keys');
    for (const malformed of ['not-a-user', `${crypto.randomUUID()}x`, '', 'a'.repeat(300), '{"$ne":null}']) {
      const refused = await keyFor(malformed);
      expect(code(refused)).toBe('BAD_USER_INPUT');
      expect(refused.json.errors?.[0]?.message).toBe('userId must be a user id');
      expect(refused.json.errors?.[0]?.extensions?.field).toBe('userId');
      expect(await keys.countDocuments({ _id: malformed as never })).toBe(0);
    }
    const nobody = crypto.randomUUID();
    const unknown = await keyFor(nobody);
    expect([code(unknown), unknown.json.data?.personDataKey]).toEqual(['ok', null]);
    expect(await keys.countDocuments({ _id: nobody as never })).toBe(0);
    const member = await subscribedMember();
    const issued = await keyFor(member.userId);
    expect(Buffer.from(String(issued.json.data?.personDataKey), 'base64')).toHaveLength(32);
  });

  it.each(serviceNames)(
    '%s: federation’s _service needs the gateway’s secret or the service credential',
    async (name) => {
      const url = new URL(haven.services[name].url);
      const none = await rawRequest(url.origin, 'POST', url.pathname, { body: sdlQuery });
      expect(none.status).toBe(401);
      expect(none.text).not.toMatch(/sdl|type Query/);
      const asService = await rawRequest(url.origin, 'POST', url.pathname, {
        body: sdlQuery,
        headers: { [serviceCredentialHeader]: testServiceSecret },
      });
      expect(asService.status).toBe(200);
      expect(typeof (asService.json.data?._service as { sdl?: unknown } | undefined)?.sdl).toBe('string');
    },
  );

  it('lets the real deletion run end to end: the saga presents the credential', async () => {
    const member = await subscribedMember();
    const deleted = await member.client.request<{ requestId?: string }>('DELETE', '/api/user/delete-account');
    expect(deleted.status).toBe(200);
    expect((await member.client.get('/api/user')).status).toBe(401);
    // Billing closed the payments before the answer (later the saga erases the record altogether).
    const record = await (await haven.collection('billing', 'subscriptions')).findOne({ _id: member.userId });
    expect(record === null || record.status === 'canceled').toBe(true);
  });
});
