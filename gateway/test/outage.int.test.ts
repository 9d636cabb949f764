/**
 * Outages fail fast and heal by themselves: a frozen subgraph costs its own routes a prompt 503 (the
 * others keep answering), a stopped database a prompt 503 and "not ready"; both recover without a restart.
 * A production gateway also hides what a subgraph lets slip (stack traces) and what the schema is.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pino from 'pino';
import { loadGatewayConfig, startGateway } from '../src/main';
import { repoRoot } from '../../tools/infra';
import { eventuallyExpect } from '../../tools/testing/eventually';
import { startTestHaven, testKeys, testSubgraphSecret, type TestHaven } from '../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../tools/testing/http';
import {
  startTestKafka,
  startTestMongo,
  stopTestKafka,
  stopTestMongo,
  testInfra,
} from '../../tools/testing/infra-control';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

type Mode = 'hang' | 'pass' | 'leak';

/**
 * Stands in front of the real billing service: passes requests through, holds them without ever
 * answering (a frozen process), or answers with an error that carries a stack trace.
 */
async function billingInFront(target: string): Promise<{ url: string; mode: Mode; close(): Promise<void> }> {
  const held = new Set<ServerResponse>();
  const front = {
    mode: 'pass' as Mode,
    url: '',
    close: () => {
      held.forEach((res) => res.destroy());
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (front.mode === 'hang') {
        held.add(res);
        return;
      }
      if (front.mode === 'leak') {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            data: null,
            errors: [
              {
                message: 'Cannot read properties of undefined',
                extensions: {
                  code: 'INTERNAL_SERVER_ERROR',
                  stacktrace: ['TypeError: x', '    at /srv/billing/a.ts:1:1'],
                },
              },
            ],
          }),
        );
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name)),
      ) as Record<string, string>;
      void fetch(target, { method: req.method, headers, body: Buffer.concat(chunks) }).then(async (answer) => {
        res.statusCode = answer.status;
        res.setHeader('content-type', answer.headers.get('content-type') ?? 'application/json');
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return front;
}

describe('a frozen subgraph, behind a production gateway', () => {
  it('answers 503 on its route while the others answer, then recovers without a restart', async () => {
    const billing = await billingInFront(haven.services.billing.url);
    const logged: string[] = [];
    const gateway = await startGateway(
      loadGatewayConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        HOST: '127.0.0.1',
        PORT: '0',
        MONGO_URL: testInfra().mongoUrl,
        MONGO_DB: `${haven.dbName('user')}_gw2`,
        JWT_PUBLIC_KEY: testKeys().publicKey,
        SUBGRAPH_SECRET: testSubgraphSecret,
        // Short, so the frozen call ends soon; long enough for an ordinary read on a busy machine.
        SUBGRAPH_TIMEOUT_MS: '3000',
        RATE_LIMIT_AUTH_MAX: '1000',
        USER_SERVICE_URL: haven.services.user.url,
        QUOTE_SERVICE_URL: haven.services.quote.url,
        BILLING_SERVICE_URL: billing.url,
        NOTIFICATION_SERVICE_URL: haven.services.notification.url,
        COMPLIANCE_SERVICE_URL: haven.services.compliance.url,
        WEB_DIST_DIR: join(repoRoot, 'web', 'dist'),
        APP_URL: 'http://localhost:4000',
        COOKIE_SECURE: 'false',
      }),
      // The gateway's error log, kept to check what it says about a masked error.
      pino({ level: 'error' }, { write: (line: string) => void logged.push(line) }),
    );
    try {
      // Registration (a slow password hash) goes through the ordinary gateway; the session is the same on both.
      const registering = new ApiClient(haven.gatewayUrl);
      expect(
        (await registering.post('/api/auth/register', { email: uniqueEmail('frozen'), password: 'long enough' }))
          .status,
      ).toBe(201);
      const client = registering.at(gateway.url);
      expect((await client.get('/api/subscription-status')).status).toBe(200);

      billing.mode = 'hang';
      const frozen = client.get('/api/subscription-status');
      // While that request waits on the frozen service, an unrelated route answers.
      expect((await client.get('/api/user')).status).toBe(200);
      const answer = await frozen;
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ message: 'The billing service did not answer in time. Please try again shortly.' });

      billing.mode = 'pass';
      await eventuallyExpect('the subscription route answering again', async () => {
        expect((await client.get('/api/subscription-status')).status).toBe(200);
      });

      billing.mode = 'leak';
      const leaked = await client.graphql('{ me { subscriptionStatus { status } } }');
      expect(JSON.stringify(leaked.body)).not.toMatch(/stacktrace|\/srv\/|Cannot read/);
      expect(leaked.body.errors?.[0]?.message).toBe('Something went wrong on our side. Please try again in a moment.');
      // The details stay in the log, under the correlation id the reply carries.
      const correlationId = leaked.headers.get('x-correlation-id');
      expect(
        logged.some((line) => line.includes(`"correlationId":"${correlationId}"`) && /Cannot read/.test(line)),
      ).toBe(true);

      const guessed = await client.graphql('{ mee }');
      expect(guessed.body.errors?.[0]?.message).toBeDefined();
      expect(JSON.stringify(guessed.body)).not.toMatch(/Did you mean/);
    } finally {
      await gateway.stop();
      await billing.close();
    }
  });
});

describe('a stopped database', () => {
  it('gives a prompt 503 and "not ready", and recovers without a restart', async () => {
    const client = new ApiClient(haven.gatewayUrl);
    expect(
      (await client.post('/api/auth/register', { email: uniqueEmail('outage'), password: 'long enough' })).status,
    ).toBe(201);
    const gatewayReady = () => fetch(`${haven.gatewayUrl}/readyz`).then((r) => r.status);
    const userReady = () => fetch(haven.services.user.url.replace('/graphql', '/readyz')).then((r) => r.status);
    expect([await gatewayReady(), await userReady()]).toEqual([200, 200]);

    await stopTestMongo();
    try {
      const user = await client.get('/api/user');
      expect(user.status).toBe(503);
      expect(user.body).toEqual({ message: 'Haven cannot reach its database right now. Please try again shortly.' });
      const signIn = await client.post('/api/auth/login', { email: uniqueEmail('nobody'), password: 'long enough' });
      expect(signIn.status).toBe(503);
      expect(JSON.stringify(signIn.body)).not.toMatch(/ECONNREFUSED|27017|Mongo/);
      expect([await gatewayReady(), await userReady()]).toEqual([503, 503]);
    } finally {
      await startTestMongo();
    }
    await eventuallyExpect('the user route and readiness back after the database restarted', async () => {
      expect((await client.get('/api/user')).status).toBe(200);
      expect([await gatewayReady(), await userReady()]).toEqual([200, 200]);
    });
  });
});

describe('Kafka stopped', () => {
  it('makes a service "not ready" naming Kafka, and ready again when it is back', async () => {
    const readiness = async () => {
      const response = await fetch(haven.services.quote.url.replace('/graphql', '/readyz'));
      return { status: response.status, body: (await response.json()) as unknown };
    };
    // (`events` says whether the consumers are in their groups; it does not decide readiness.)
    await haven.services.quote.eventsReady;
    expect(await readiness()).toMatchObject({
      status: 200,
      body: { status: 'ready', mongo: true, kafka: true, events: true },
    });
    await stopTestKafka();
    try {
      expect(await readiness()).toMatchObject({
        status: 503,
        body: { status: 'not ready', mongo: true, kafka: false },
      });
    } finally {
      await startTestKafka();
    }
    // Ready again, and its consumers back in their groups (they rejoin by themselves, after a crash or not).
    await eventuallyExpect(
      'the quote service ready again, its consumers rejoined, after Kafka restarted',
      async () => {
        expect(await readiness()).toMatchObject({ status: 200, body: { events: true } });
      },
      { timeoutMs: 120_000 },
    );
  }, 180_000);
});
