/**
 * Two gateway replicas on one database share one rate-limit budget: the second gateway is a separate
 * OS process started the way a deployment starts one (`node --import tsx gateway/src/main.ts`) with the
 * first's environment, so the only thing the two share is the database's sliding log.
 */
import { freePorts } from '../../tools/infra';
import { startAppProcess, type AppProcess } from '../../tools/testing/app-process';
import { startTestHaven, type TestHaven } from '../../tools/testing/haven';
import { postFrom } from '../../tools/testing/raw-http';

const max = 4;
const windowSeconds = 60;

let haven: TestHaven;
let second: AppProcess | undefined;
let secondUrl: string;

beforeAll(async () => {
  haven = await startTestHaven({
    env: { RATE_LIMIT_AUTH_MAX: String(max), RATE_LIMIT_AUTH_WINDOW_MS: String(windowSeconds * 1000) },
  });
  if (!haven.gatewayEnv) throw new Error('startTestHaven gave no gatewayEnv to start a second gateway with');
  const [port] = await freePorts(1);
  second = await startAppProcess('gateway', haven.gatewayEnv, port!);
  secondUrl = second.url;
});

afterAll(async () => {
  await second?.stop();
  await haven?.stop();
});

interface Reply {
  status: number;
  retryAfter: string | undefined;
  body: { message?: string; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

/** A POST from a chosen loopback address, so each test is its own client to both gateways. */
async function post(url: string, body: unknown, from: string): Promise<Reply> {
  const { origin, pathname } = new URL(url);
  const reply = await postFrom(origin, from, pathname, body);
  return { status: reply.status, retryAfter: reply.retryAfter, body: reply.json as Reply['body'] };
}

const wrongPassword = { email: 'nobody@example.com', password: 'not-the-password' };
const restLogin = (gatewayUrl: string, from: string) => post(`${gatewayUrl}/api/auth/login`, wrongPassword, from);
const graphqlLogin = (gatewayUrl: string, from: string) =>
  post(
    `${gatewayUrl}/graphql`,
    {
      query: 'mutation ($input: LoginInput!) { login(input: $input) { user { id } } }',
      variables: { input: wrongPassword },
    },
    from,
  );

/** A refusal for being over the limit: 429 and a Retry-After within one window. */
function expectOverTheLimit(reply: Reply) {
  expect(reply.status).toBe(429);
  const seconds = Number(reply.retryAfter);
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(windowSeconds);
  const message = reply.body.message ?? reply.body.errors?.[0]?.message;
  expect(message).toBe(`Too many attempts. Please try again in ${seconds} seconds.`);
}

it('starts a second gateway that is a different process on the same database', async () => {
  expect(secondUrl).not.toBe(haven.gatewayUrl);
  expect((await fetch(`${secondUrl}/healthz`)).status).toBe(200);
});

it('counts sign-in attempts through either gateway against one budget', async () => {
  const from = '127.0.3.1';
  const gateways = [haven.gatewayUrl, secondUrl];
  // Alternating gateways: each sees only half the attempts, yet the budget runs out after `max` in all.
  for (let attempt = 0; attempt < max; attempt += 1) {
    const reply = await restLogin(gateways[attempt % 2]!, from);
    expect({ attempt, status: reply.status }).toEqual({ attempt, status: 401 });
  }
  for (let attempt = max; attempt < max + 4; attempt += 1)
    expectOverTheLimit(await restLogin(gateways[attempt % 2]!, from));
  // GraphQL and REST run the same operation: the same bucket, refused through both gateways.
  for (const gateway of gateways) {
    const reply = await graphqlLogin(gateway, from);
    expect(reply.body.errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');
    expectOverTheLimit(reply);
  }
});

it('lets no more than the budget through a concurrent burst split over both gateways', async () => {
  const from = '127.0.3.2';
  const burst = 12;
  const replies = await Promise.all(
    Array.from({ length: burst }, (_, i) => restLogin(i % 2 ? secondUrl : haven.gatewayUrl, from)),
  );
  const statuses = replies.map((reply) => reply.status).sort();
  expect(statuses).toEqual([...Array<number>(max).fill(401), ...Array<number>(burst - max).fill(429)]);
  replies.filter((reply) => reply.status === 429).forEach(expectOverTheLimit);
});
