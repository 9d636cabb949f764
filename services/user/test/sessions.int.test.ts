/**
 * A session ended by logout or "sign out everywhere" is refused everywhere: replaying the old cookie gets the
 * signed-out answer from every REST route and from a GraphQL query touching all five subgraphs, and the
 * old token never again reaches a subgraph (recording fronts stand before the four that extend User).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type RunningGateway } from '../../../gateway/src/app';
import { loadGatewayConfig, startGateway } from '../../../gateway/src/main';
import { restRoutes } from '../../../gateway/src/rest/routes';
import { repoRoot } from '../../../tools/infra';
import { eventuallyExpect } from '../../../tools/testing/eventually';
import { startTestHaven, testKeys, testSubgraphSecret, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { testInfra } from '../../../tools/testing/infra-control';

let haven: TestHaven;
let gateway: RunningGateway;
const fronts: Recorder[] = [];
const password = 'one session at a time';

/** Passes requests through to a subgraph and keeps the bearer tokens it saw. */
interface Recorder {
  url: string;
  tokens: string[];
  close(): Promise<void>;
}

async function recordingFront(target: string): Promise<Recorder> {
  const tokens: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (bearer) tokens.push(bearer);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name)),
      ) as Record<string, string>;
      void fetch(target, { method: req.method, headers, body: Buffer.concat(chunks) }).then(async (answer) => {
        res.statusCode = answer.status;
        for (const name of ['content-type', 'x-haven-session']) {
          const value = answer.headers.get(name);
          if (value !== null) res.setHeader(name, value);
        }
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    tokens,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

beforeAll(async () => {
  haven = await startTestHaven();
  const [quote, billing, notification, compliance] = await Promise.all(
    (['quote', 'billing', 'notification', 'compliance'] as const).map((name) =>
      recordingFront(haven.services[name].url),
    ),
  );
  fronts.push(quote!, billing!, notification!, compliance!);
  gateway = await startGateway(
    loadGatewayConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PORT: '0',
      MONGO_URL: testInfra().mongoUrl,
      MONGO_DB: `${haven.dbName('user')}_gw_sessions`,
      JWT_PUBLIC_KEY: testKeys().publicKey,
      SUBGRAPH_SECRET: testSubgraphSecret,
      RATE_LIMIT_AUTH_MAX: '1000',
      USER_SERVICE_URL: haven.services.user.url,
      QUOTE_SERVICE_URL: quote!.url,
      BILLING_SERVICE_URL: billing!.url,
      NOTIFICATION_SERVICE_URL: notification!.url,
      COMPLIANCE_SERVICE_URL: compliance!.url,
      WEB_DIST_DIR: join(repoRoot, 'web', 'dist'),
      APP_URL: 'http://localhost:4000',
    }),
  );
});

afterAll(async () => {
  await gateway?.stop();
  await Promise.all(fronts.map((front) => front.close()));
  await haven?.stop();
});

/** Reads something from each of the five subgraphs. */
const everySubgraph = `{
  me { id email stats { totalQuotes } subscriptionStatus { status } emailPreferences { newsletter } }
  gdprConfig { cookieBannerEnabled }
}`;

async function signedIn(): Promise<{ client: ApiClient; cookie: string; token: string }> {
  const client = new ApiClient(gateway.url);
  const response = await client.post('/api/auth/register', { email: uniqueEmail('session'), password });
  expect(response.status).toBe(201);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { client, cookie, token: decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)) };
}

/** A route's answer to the replayed cookie, or to a visitor (no cookie). */
async function answer(route: (typeof restRoutes)[number], cookie: string | null) {
  const path = route.path.replace(/:(\w+)/g, 'some-$1');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cookie) headers.cookie = cookie;
  const response = await fetch(`${gateway.url}${path}`, {
    method: route.method,
    headers,
    body: route.method === 'POST' || route.method === 'PATCH' ? '{}' : undefined,
  });
  return { status: response.status, body: await response.text() };
}

async function expectRefusedEverywhere(cookie: string, token: string) {
  const seenBefore = fronts.map((front) => front.tokens.length);
  for (const route of restRoutes) {
    const replayed = await answer(route, cookie);
    const visitor = await answer(route, null);
    // The same answer a signed-out visitor gets: 401 on every signed-in route.
    expect({ route: `${route.method} ${route.path}`, ...replayed }).toEqual({
      route: `${route.method} ${route.path}`,
      ...visitor,
    });
  }
  expect((await fetch(`${gateway.url}/api/user`, { headers: { cookie } })).status).toBe(401);

  const graph = await fetch(`${gateway.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query: everySubgraph }),
  });
  expect(await graph.json()).toEqual({ data: { me: null, gdprConfig: { cookieBannerEnabled: expect.any(Boolean) } } });
  // No subgraph was handed the old token again.
  fronts.forEach((front, index) => expect(front.tokens.slice(seenBefore[index]!)).not.toContain(token));
}

describe('a revoked session', () => {
  it('reaches every subgraph while live', async () => {
    const { client, token } = await signedIn();
    const response = await client.graphql<{ me: Record<string, unknown> }>(everySubgraph);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data?.me).toMatchObject({ stats: { totalQuotes: 0 }, emailPreferences: {} });
    // Each of the three that extend User was asked with the caller's token.
    expect(fronts.slice(0, 3).every((front) => front.tokens.includes(token))).toBe(true);
  });

  it('after logout, gets the signed-out answer from every REST route and every subgraph', async () => {
    const { client, cookie, token } = await signedIn();
    const logout = await client.request('GET', '/api/logout', { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(logout.status).toBe(302);
    await expectRefusedEverywhere(cookie, token);
  });

  it('after "sign out everywhere", refuses every session of the account; signing in elsewhere kept them', async () => {
    const first = await signedIn();
    const email = ((await first.client.get('/api/user')).body as { email: string }).email;
    const second = new ApiClient(gateway.url);
    const login = await second.post('/api/auth/login', { email, password });
    expect(login.status).toBe(200);
    const secondCookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    // A second sign-in leaves the first session alone.
    expect((await first.client.get('/api/user')).status).toBe(200);

    const ended = await second.graphql<{ signOutEverywhere: boolean }>('mutation { signOutEverywhere }');
    expect(ended.body.data).toEqual({ signOutEverywhere: true });
    expect(ended.headers.get('set-cookie')).toMatch(/haven_session=;.*Max-Age=0/);

    await expectRefusedEverywhere(secondCookie, decodeURIComponent(secondCookie.split('=')[1]!));
    // The first browser's session, checked by this gateway before, is refused within the bound.
    await eventuallySignedOut(first.cookie);
  });

  it('"sign out everywhere" needs a session', async () => {
    const response = await new ApiClient(gateway.url).graphql('mutation { signOutEverywhere }');
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

async function eventuallySignedOut(cookie: string) {
  await eventuallyExpect('the other browser signed out', async () => {
    expect((await fetch(`${gateway.url}/api/user`, { headers: { cookie } })).status).toBe(401);
  });
}
