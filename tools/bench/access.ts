/**
 * The access figures: what the access decision costs a paid request, and how soon a trial expiry or a
 * payment failure takes effect in a service that serves paid operations (its entitlement copy, kept from
 * billing's events). Needs billing's test clock (BILLING_TEST_CLOCK=1) to end a trial at once.
 */
import { entitlementProjection, serviceCredentialHeader } from '@haven/platform';
import mongoose from 'mongoose';
import { performance } from 'node:perf_hooks';
import { ApiClient, type ApiResponse } from '../testing/http';
import { eventually } from '../testing/eventually';
import { startTrial } from '../testing/subscription';

export interface AccessBenchResult {
  /** Median and p95 of GET /api/subscription-status through the facade, sequential requests (ms). */
  subscriptionStatusMs: { median: number; p95: number };
  /** The decision a paid operation makes: a grant read from the local copy (one primary-key read). */
  grantedDecisionMs: { median: number; p95: number };
  /** A denial, confirmed with billing before it is answered (the copy plus one call to billing). */
  deniedDecisionMs: { median: number; p95: number };
  /** From the request that ends access (clock past a cancelled trial / failed charge) to the copy saying so. */
  trialExpiryTakesEffectMs: number;
  paymentFailureTakesEffectMs: number;
}

const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 100) / 100;
  return { median: at(0.5), p95: at(0.95) };
};

async function timeEach(times: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return samples;
}

async function signedUpClient(gatewayUrl: string, name: string) {
  const client = new ApiClient(gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: `bench-${name}-${process.pid}-${Date.now()}@example.com`,
    password: 'bench-password-1',
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  return { client, userId: registered.body.user.id };
}

/** A step the figures rely on: a refusal stops the bench with the answer, rather than a timeout later. */
function expectOk(what: string, response: ApiResponse<unknown>): void {
  const errors = (response.body as { errors?: unknown } | null)?.errors;
  if (response.status !== 200 || errors) {
    throw new Error(`${what} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 500)}`);
  }
}

/** Moves billing's test clock as a Haven service does: straight to billing with the services' credential. */
async function advanceBillingClock(billingUrl: string, serviceSecret: string, seconds: number): Promise<void> {
  const response = await fetch(billingUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [serviceCredentialHeader]: serviceSecret },
    body: JSON.stringify({
      query: 'mutation($s: Int!) { advanceBillingClock(seconds: $s) }',
      variables: { s: seconds },
    }),
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown };
  if (response.status !== 200 || !body.data || body.errors) {
    throw new Error(`advanceBillingClock answered ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
  }
}

/** The figures are of the right answer: a grant for the trial, a denial for the user without one. */
function expectDecision(who: string, decision: { granted: boolean }, granted: boolean): void {
  if (decision.granted !== granted)
    throw new Error(`${who}: expected granted ${granted}, got ${JSON.stringify(decision)}`);
}

const tokenOf = (client: ApiClient) => decodeURIComponent(client.cookieValue('haven_session') ?? '');

async function untilDenied(copies: mongoose.mongo.Collection, userId: string, since: number): Promise<number> {
  for (;;) {
    const copy = await copies.findOne({ _id: userId as never });
    if (copy && copy.granted === false) return Math.round(performance.now() - since);
    if (performance.now() - since > 60_000) throw new Error('access did not close within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function benchAccess(options: {
  gatewayUrl: string;
  mongoUrl: string;
  quoteDb: string;
  billingUrl: string;
  subgraphSecret: string;
  /** The services' own credential: the test clock is an internal operation, asked of billing directly. */
  serviceSecret: string;
}): Promise<AccessBenchResult> {
  const connection = await mongoose.createConnection(options.mongoUrl, { dbName: options.quoteDb }).asPromise();
  try {
    const copies = connection.db!.collection('entitlements');
    const projection = entitlementProjection(connection, 'bench');
    // The secrets a service with paid operations holds (quote's), so a denial is confirmed as quote confirms it.
    const config = {
      BILLING_SERVICE_URL: options.billingUrl,
      SUBGRAPH_SECRET: options.subgraphSecret,
      SERVICE_SECRET: options.serviceSecret,
    };
    const advanceClock = () => advanceBillingClock(options.billingUrl, options.serviceSecret, 259260);

    const trial = await signedUpClient(options.gatewayUrl, 'trial');
    await startTrial(trial.client);
    const statusSamples = await timeEach(200, () => trial.client.get('/api/subscription-status'));
    // The grant is timed from the local copy, so the trial's event must have reached it first.
    await eventually('the trial in the local entitlement copy', async () => {
      const copy = await copies.findOne({ _id: trial.userId as never });
      return copy?.granted === true;
    });
    const granted = projection.source(config, tokenOf(trial.client));
    const session = { userId: trial.userId, sessionId: 'bench' };
    expectDecision('the trial', await granted(session), true);
    const grantedSamples = await timeEach(500, () => granted(session));

    const lapsed = await signedUpClient(options.gatewayUrl, 'none');
    const denied = projection.source(config, tokenOf(lapsed.client));
    const lapsedSession = { userId: lapsed.userId, sessionId: 'bench' };
    expectDecision('a user without a subscription', await denied(lapsedSession), false);
    const deniedSamples = await timeEach(200, () => denied(lapsedSession));

    // Trial expiry: cancel, then move billing's clock past the trial's end.
    expectOk('POST /api/subscription/cancel', await trial.client.post('/api/subscription/cancel'));
    let start = performance.now();
    await advanceClock();
    const trialExpiryTakesEffectMs = await untilDenied(copies, trial.userId, start);

    // Payment failure: a card whose charges fail, then the trial's end.
    const failing = await signedUpClient(options.gatewayUrl, 'failing');
    const setup = await failing.client.post<{ clientSecret: string }>('/api/create-setup-intent');
    expectOk('POST /api/create-setup-intent', setup);
    const confirmed = await failing.client.post<{ status: string }>('/api/local-payments/confirm-setup', {
      clientSecret: setup.body.clientSecret,
      cardNumber: '4000000000000341',
    });
    expectOk('POST /api/local-payments/confirm-setup', confirmed);
    if (confirmed.body.status !== 'succeeded') {
      throw new Error(`the failing-charge card's setup was not confirmed: ${JSON.stringify(confirmed.body)}`);
    }
    expectOk(
      'POST /api/create-subscription-after-setup',
      await failing.client.post('/api/create-subscription-after-setup'),
    );
    start = performance.now();
    await advanceClock();
    const paymentFailureTakesEffectMs = await untilDenied(copies, failing.userId, start);

    return {
      subscriptionStatusMs: stats(statusSamples),
      grantedDecisionMs: stats(grantedSamples),
      deniedDecisionMs: stats(deniedSamples),
      trialExpiryTakesEffectMs,
      paymentFailureTakesEffectMs,
    };
  } finally {
    await connection.close();
  }
}

export function formatAccessResult(access: AccessBenchResult): string {
  return (
    `Access: GET /api/subscription-status median ${access.subscriptionStatusMs.median} ms ` +
    `(p95 ${access.subscriptionStatusMs.p95}); a paid operation's decision: granted from the local copy ` +
    `${access.grantedDecisionMs.median} ms (p95 ${access.grantedDecisionMs.p95}), denied and confirmed with billing ` +
    `${access.deniedDecisionMs.median} ms (p95 ${access.deniedDecisionMs.p95}); trial expiry takes effect in ` +
    `${access.trialExpiryTakesEffectMs} ms, a payment failure in ${access.paymentFailureTakesEffectMs} ms (target 2000)`
  );
}
