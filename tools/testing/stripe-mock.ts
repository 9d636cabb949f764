/**
 * stripe-mock (Stripe's own API mock, a Go program: `make stripe-mock` builds it into the cache) for the
 * billing tests that use the `stripe` SDK, behind a small recording proxy: stripe-mock keeps no state, so
 * tests assert on the requests billing sent (or did not send) to the provider.
 */
import type { TestHaven } from './haven';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '../infra';
import { eventually } from './eventually';

export const stripeMockBinary =
  process.env.HAVEN_STRIPE_MOCK ?? join(homedir(), '.cache', 'haven', 'bin', 'stripe-mock');

export interface RecordedStripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** The form-encoded body as sent (complete once the request has been answered). */
  body: string;
}

export interface StripeMock {
  /** The recording proxy's origin: give it to billing as STRIPE_API_URL. */
  url: string;
  requests: RecordedStripeRequest[];
  /**
   * What Stripe.js does in the browser: confirms the setup intent with a card. From then on the proxy answers
   * its retrieval as succeeded with that payment method (stripe-mock's intents never leave
   * requires_payment_method).
   */
  confirmSetupIntent(setupIntentId: string, paymentMethodId: string): void;
  /** The first request matching that is answered from now on. */
  whenAnswered(matches: (request: RecordedStripeRequest) => boolean): Promise<void>;
  /** Requests matching reach stripe-mock only once `until` settles (to line up two racing callers). */
  hold(matches: (request: RecordedStripeRequest) => boolean, until: Promise<unknown>): void;
  stop(): Promise<void>;
}

/** Billing's environment for Stripe through this stripe-mock, with webhooks signed by `webhookSecret`. */
export function stripeEnv(stripeMock: StripeMock, webhookSecret: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: 'sk_test_haven',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_haven',
    STRIPE_PRICE_ID: 'price_premium_monthly',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: stripeMock.url,
  };
}

/** How many times stripe-mock is started before its start counts as failed. */
const stripeMockStarts = 5;

/**
 * Starts stripe-mock on a free port. A port found free can be taken before stripe-mock binds it (another program
 * binds it first); stripe-mock then exits at once, and it is started again on another port, up to
 * `stripeMockStarts` times; the failure quotes what it said.
 */
async function spawnStripeMock(): Promise<{ child: ChildProcess; mockPort: number }> {
  for (let attempt = 1; ; attempt += 1) {
    const mockPort = (await freePorts(1))[0]!;
    // Its HTTPS listener, which it opens too, on a port the system chooses: by default it is 12112 for every
    // stripe-mock, and a second one running at the same time (another test file) would exit at start.
    const child: ChildProcess = spawn(
      stripeMockBinary,
      ['-http-addr', `127.0.0.1:${mockPort}`, '-https-addr', '127.0.0.1:'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    // What it said before exiting (the reason it could not start), kept short; read always, so its pipe never fills.
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      said = (said + chunk.toString()).slice(-400);
    });
    const exited = new Promise<'exited'>((resolve) => child.once('exit', () => resolve('exited')));
    const answering = eventually(`stripe-mock answering on port ${mockPort}`, async () => {
      const response = await fetch(`http://127.0.0.1:${mockPort}/v1/customers`, {
        headers: { authorization: 'Bearer sk_test_123' },
      });
      return response.status === 200;
    });
    answering.catch(() => undefined);
    if ((await Promise.race([answering, exited])) !== 'exited') return { child, mockPort };
    if (attempt >= stripeMockStarts) {
      throw new Error(`stripe-mock exited at start ${stripeMockStarts} times, last on ${mockPort}: ${said.trim()}`);
    }
  }
}

export async function startStripeMock(): Promise<StripeMock> {
  if (!existsSync(stripeMockBinary)) {
    throw new Error(`stripe-mock is missing at ${stripeMockBinary}: run \`make stripe-mock\` (go install)`);
  }
  const { child, mockPort } = await spawnStripeMock();
  const [proxyPort] = await freePorts(1);
  const requests: RecordedStripeRequest[] = [];
  const confirmedSetupIntents = new Map<string, string>();
  const confirmedIn = (method: string, path: string) =>
    method === 'GET' ? confirmedSetupIntents.get(/^\/v1\/setup_intents\/([^/]+)$/.exec(path)?.[1] ?? '') : undefined;
  const answerWaiters: { matches: (request: RecordedStripeRequest) => boolean; answered: () => void }[] = [];
  const holds: { matches: (request: RecordedStripeRequest) => boolean; until: Promise<unknown> }[] = [];
  const proxy: Server = createServer((req, res) => {
    const header = req.headers['idempotency-key'];
    const recorded: RecordedStripeRequest = {
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0]!,
      idempotencyKey: typeof header === 'string' ? header : null,
      body: '',
    };
    requests.push(recorded);
    res.on('finish', () => {
      for (const waiter of answerWaiters.filter((each) => each.matches(recorded))) {
        answerWaiters.splice(answerWaiters.indexOf(waiter), 1);
        waiter.answered();
      }
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      recorded.body = body.toString('utf8');
      const held = holds.find((hold) => hold.matches(recorded));
      void (held?.until ?? Promise.resolve()).finally(() => upstream.end(body));
    });
    const upstream = httpRequest(
      { host: '127.0.0.1', port: mockPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const paymentMethod = confirmedIn(recorded.method, recorded.path);
        if (!paymentMethod || answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          const intent = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
          const body = JSON.stringify({ ...intent, status: 'succeeded', payment_method: paymentMethod });
          const { 'content-length': _length, 'transfer-encoding': _encoding, ...headers } = answer.headers;
          res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${proxyPort}`,
    requests,
    confirmSetupIntent: (setupIntentId, paymentMethodId) => confirmedSetupIntents.set(setupIntentId, paymentMethodId),
    whenAnswered: (matches) => new Promise<void>((answered) => answerWaiters.push({ matches, answered })),
    hold: (matches, until) => {
      const hold = { matches, until };
      holds.push(hold);
      void until.finally(() => holds.splice(holds.indexOf(hold), 1));
    },
    stop: async () => {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      child.kill('SIGTERM');
    },
  };
}

/**
 * Writes the state a completed Stripe setup leaves in billing's database — a trialing Stripe subscription —
 * since stripe-mock's setup intents never reach `succeeded`.
 */
export async function storeStripeTrial(
  haven: TestHaven,
  trial: { userId: string; subscriptionId: string; customerId?: string; email?: string },
): Promise<void> {
  const now = Date.now();
  await (
    await haven.collection('billing', 'subscriptions')
  ).insertOne({
    _id: trial.userId,
    status: 'trialing',
    trialEnd: new Date(now + 3 * 86_400_000),
    currentPeriodEnd: new Date(now + 3 * 86_400_000),
    cancelAtPeriodEnd: false,
    trialReminderSent: false,
    provider: 'stripe',
    customerId: trial.customerId ?? 'cus_test',
    subscriptionId: trial.subscriptionId,
    paymentMethodId: 'pm_test',
    email: trial.email ?? 'someone@example.com',
    firstName: '',
    revision: 1,
    trialUsed: true,
    providerEventAt: null,
    outbox: [],
    outboxVersion: 0,
    createdAt: new Date(now),
    updatedAt: new Date(now),
  });
}
