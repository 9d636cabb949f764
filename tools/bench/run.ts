/**
 * `make bench`: the first benchmark. Starts the real stack on free loopback ports (the embedded database,
 * Kafka, maildev, the five services and the gateway, as `make dev` does), signs one user up, and
 * loads four targets in turn with autocannon, all answering that user's JSON:
 *
 *   baseline         a bare Node `http` server (child process) answering a fixed copy of the JSON
 *   subgraph         the user subgraph's POST /graphql, `me` query, bearer token
 *   gatewayGraphql   the gateway's POST /graphql, same query, session cookie
 *   gatewayRest      the gateway's GET /api/user (REST facade), session cookie
 *
 * Prints requests/s, p50/p99 latency and the ratios to the baseline measured in the same run,
 * and writes the figures to .haven/bench/results-<timestamp>.json. Everything it started is
 * stopped at the end, on failure and on Ctrl-C. See tools/bench/README.md.
 *
 * Then what sealing each person's notes and messages costs (tools/bench/sealing.ts): the check-in and the progress
 * page's reads with PERSON_DATA_SEALING on and off, through quote services and gateways of its own, as ratios.
 *
 * Then the outbox relay (tools/bench/relay.ts): the idle poll's cost at 1,000, 10,000 and 50,000 users, the
 * sweep's cost up to 200,000 and publishing latency while sweeps run, and events/s from write to broker with 3 and
 * 6 partitions, on servers of its own; then the access figures (tools/bench/access.ts), the
 * newsletter fan-out (tools/bench/fanout.ts, on servers of its own) and the outages, through a second gateway with
 * a 2 s subgraph deadline.
 *
 * Then the web app (tools/bench/web.ts): the landing page's gzipped JavaScript against its budget, and
 * Lighthouse's scores, LCP, TBT, CLS and bytes transferred for every public page at a phone profile, the medians of
 * three runs.
 *
 * Then the admin's user list (tools/bench/adminUsers.ts): 100,000 accounts seeded into the user database, a
 * search, a page, a filter and the counts through the REST facade, p50 and p99.
 *
 * Environment: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_WARMUP (s, default 2),
 * BENCH_RELAY (0 skips the relay part), BENCH_WEB (0 skips the web part), BENCH_ONLY=web (only the web part),
 * BENCH_ADMIN (0 skips the admin list), BENCH_ONLY=admin (only the admin list), BENCH_ONLY=access (only the
 * access figures), BENCH_ONLY=limits (only the GraphQL limits' figures, tools/bench/limits.ts), BENCH_SEALING (0
 * skips the sealing figures), BENCH_ONLY=sealing (only the sealing figures), BENCH_ONLY=journal (only the check-in
 * and the history reads at 1,000 and 10,000 check-ins, against GET /api/user: the journal's figures).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { personKeysFromUserService, type PersonKeySource } from '@haven/platform';
import { apps, startApps, type AppPorts, type AppsOptions, type RunningApps } from '../dev/apps';
import { benchAccess, formatAccessResult } from './access';
import { benchAdminEmail, benchAdminList, formatAdminListResult, type AdminListBenchResult } from './adminUsers';
import { benchLimits, formatLimitsResult } from './limits';
import { checkTarget, load, stopLoadInProgress, type LoadRun, type Target } from './load';
import { startExtraApp, stopChild } from './extraApps';
import { ensureDevKeys } from '../dev/keys';
import { localGraphqlUrl, serviceCatalog } from '../../services/platform/src/catalog';
import { freePorts, provision, repoRoot, startInfra, stopInfra, type InfraPorts } from '../infra';
import { startMongoServer, stopMongoServer } from '../infra/mongo-server';
import { isProcessAlive } from '../infra/process';
import { ApiClient } from '../testing/http';
import { startTrial } from '../testing/subscription';
import { benchFanOut, formatFanOutResult, type FanOutBenchResult } from './fanout';
import { checkSeededHistory, seedHistory } from './quote';
import { benchRelay, formatRelayResult, type RelayBenchResult } from './relay';
import { benchSealing, formatSealingResult, sealingProblems, type SealingBenchResult } from './sealing';
import { onServersOfItsOwn } from './standalone';
import { benchWeb } from './web';
import { formatWebResult, type WebBenchResult } from './webReport';
import {
  formatJournalFigures,
  formatTable,
  journalFigures,
  problemsOf,
  summarizeLatencies,
  summaryLine,
  withRatios,
  type Measurement,
  type TargetKey,
} from './report';

const benchRoot = join(repoRoot, '.haven');
// The run's own state, and that of the servers of their own it gives the relay and the fan-out.
const statePattern = /^bench-(\d+)(?:-relay|-fanout)?$/;
const resultsDir = join(benchRoot, 'bench');

const meQuery = 'query CurrentUser { me { id email firstName lastName profileImageUrl emailVerified createdAt } }';

interface Settings {
  durationS: number;
  connections: number;
  warmupS: number;
}

class Aborted extends Error {
  constructor(signal: string) {
    super(`stopped by ${signal}`);
  }
}

function log(line: string): void {
  console.log(`[bench] ${line}`);
}

function positiveIntFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name}=${raw}: expected a positive whole number`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Ctrl-C: the first signal stops the load in progress and lets the run unwind through its
// clean-up; the run checks `abortedBy` between steps.

let abortedBy: string | null = null;

function onSignal(signal: NodeJS.Signals): void {
  if (abortedBy) {
    log(`${signal} again: still stopping the servers, please wait`);
    return;
  }
  abortedBy = signal;
  log(`${signal}: stopping (servers are being shut down, this takes a few seconds)`);
  stopLoadInProgress();
}

function checkAborted(): void {
  if (abortedBy) throw new Aborted(abortedBy);
}

// ---------------------------------------------------------------------------------------------
// Set-up

/** Runs killed without their clean-up (kill -9) leave the database and Kafka behind: stop them. */
async function cleanUpAbandonedRuns(): Promise<void> {
  if (!existsSync(benchRoot)) return;
  for (const name of readdirSync(benchRoot)) {
    const ownerPid = Number(statePattern.exec(name)?.[1]);
    if (!ownerPid || ownerPid === process.pid || isProcessAlive(ownerPid)) continue;
    const stateDir = join(benchRoot, name);
    log(`removing ${stateDir} (left by an earlier run)`);
    await stopInfra(stateDir).catch(() => undefined);
    rmSync(stateDir, { recursive: true, force: true });
  }
}

function portsFrom(list: number[]): { infra: InfraPorts; apps: AppPorts } {
  const take = () => {
    const port = list.shift();
    if (port === undefined) throw new Error('not enough free ports');
    return port;
  };
  const infra: InfraPorts = { mongo: take(), kafka: take(), kafkaController: take(), smtp: take(), mailWeb: take() };
  const appPorts = Object.fromEntries(apps.map((app) => [app.name, take()])) as AppPorts;
  return { infra, apps: appPorts };
}

async function signUp(gatewayUrl: string): Promise<{ client: ApiClient; cookie: string; token: string }> {
  const client = new ApiClient(gatewayUrl);
  const response = await client.post('/api/auth/register', {
    email: `bench-${process.pid}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`,
    password: 'bench-password-1',
    firstName: 'Bench',
    lastName: 'Marker',
  });
  if (response.status !== 201) {
    throw new Error(`POST /api/auth/register answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  const value = client.cookieValue('haven_session');
  if (!value) throw new Error('POST /api/auth/register set no haven_session cookie');
  return { client, cookie: `haven_session=${value}`, token: decodeURIComponent(value) };
}

async function readUserJson(gatewayUrl: string, cookie: string): Promise<{ json: string; id: string }> {
  const response = await fetch(`${gatewayUrl}/api/user`, { headers: { cookie }, signal: AbortSignal.timeout(15_000) });
  const json = await response.text();
  if (response.status !== 200) throw new Error(`GET /api/user answered ${response.status}: ${json}`);
  const user = JSON.parse(json) as { id?: unknown };
  if (typeof user.id !== 'string') throw new Error(`GET /api/user answered no user id: ${json}`);
  return { json, id: user.id };
}

/**
 * The warm-up of the journal's targets and their reference, at least: their p99s compare paths of different
 * services, and each must be measured once compiled and warm (with 2 s the ratios moved by half, with 10 s the
 * check-in's still by a third between runs).
 */
const journalWarmupS = 30;

/**
 * The history reads' figures are ratios of p99s, which a moment of the machine's own work (a collection pause, a log
 * flush, a broker's housekeeping) moves far more than it moves a mean: each of their groups is measured in this many
 * rounds of its order, each round as long as the set duration, and each figure is the median of the rounds' ratios
 * (report.ts, p99Ratio), so such a moment moves one round's ratio, not the figure. (Single rounds of 10 s gave the
 * same code's ratios from 0.7 to 1.8; two rounds pooled, from 0.64 to 1.36.)
 */
const historyReadRounds = 3;

function isJournalTarget(key: TargetKey): boolean {
  return key.startsWith('gatewayRestBeside') || key.startsWith('quote');
}

/**
 * A new user on a trial, with `count` check-ins over `years` written into the quote service's database as it stores
 * them (sealed under the person's data key, asked of the user service through `keys` once), and read back through
 * the gateway: the pages measured show the whole history.
 */
async function historianWith(
  gatewayUrl: string,
  mongoUrl: string,
  keys: PersonKeySource,
  count: number,
  years = 3,
): Promise<{ cookie: string }> {
  const historian = await signUp(gatewayUrl);
  const { id } = await readUserJson(gatewayUrl, historian.cookie);
  await startTrial(historian.client);
  await seedHistory({ mongoUrl, keys, userId: id, count, years });
  await checkSeededHistory(gatewayUrl, historian.cookie, count);
  return historian;
}

/** The bare server, in its own process (never in the runner, which generates the load). */
async function startBaseline(body: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'baseline-server.ts')], {
    cwd: repoRoot,
    env: { ...process.env, BENCH_BASELINE_BODY: body },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolvePort, rejectPort) => {
    const timer = setTimeout(() => rejectPort(new Error('baseline server did not start within 30 s')), 30_000);
    child.once('message', (message: { port?: unknown }) => {
      clearTimeout(timer);
      if (typeof message.port === 'number') resolvePort(message.port);
      else rejectPort(new Error('baseline server sent no port'));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      rejectPort(new Error(`baseline server exited with code ${code} while starting`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      rejectPort(error);
    });
  });
  return { child, url: `http://127.0.0.1:${port}/api/user` };
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** Apps that do not answer /readyz: when a target fails, says whether the stack itself went down. */
async function appsNotReady(appPorts: AppPorts): Promise<string[]> {
  const answers = await Promise.all(
    apps.map(async (app) => {
      try {
        const response = await fetch(`http://127.0.0.1:${appPorts[app.name]}/readyz`, {
          signal: AbortSignal.timeout(3_000),
        });
        return response.ok ? null : `${app.name} (readyz ${response.status})`;
      } catch {
        return `${app.name} (not answering)`;
      }
    }),
  );
  return answers.filter((answer): answer is string => answer !== null);
}

/** A target and what a right answer of it looks like. */
interface CheckedTarget {
  target: Target;
  check: (body: string) => boolean;
}

/**
 * Targets measured to be compared with each other: each is warmed up, then they are measured in turn in `order` (their
 * indexes; each target's stretches add up to the measured time), so a change in the machine's speed during the run
 * weighs on all of them alike rather than on whichever came later. A, B, B, A cancels a steady drift.
 */
async function measureInTurn(
  group: CheckedTarget[],
  order: number[],
  settings: Settings,
  rounds = 1,
): Promise<Measurement[]> {
  const stretchS = Math.max(1, Math.round((settings.durationS * group.length) / (order.length * rounds)));
  for (const { target, check } of group) {
    log(`${target.label}: warming up ${settings.warmupS} s`);
    await load(target, settings.connections, settings.warmupS, check);
    checkAborted();
  }
  const letters = order.map((index) => String.fromCharCode(65 + index)).join(' ');
  const times = rounds > 1 ? `, ${rounds} rounds` : '';
  log(
    `${group.map(({ target }) => target.label).join(', ')}: measuring ${stretchS} s each in turn, ${letters}${times}`,
  );
  // Each target's stretches, round by round.
  const runs: LoadRun[][][] = group.map(() => Array.from({ length: rounds }, () => []));
  for (let round = 0; round < rounds; round += 1) {
    for (const index of order) {
      const { target, check } = group[index]!;
      runs[index]![round]!.push(await load(target, settings.connections, stretchS, check));
      checkAborted();
    }
  }
  return group.map(({ target }, index) => {
    const measurement = measurementOf(target, settings, runs[index]!.flat());
    if (rounds === 1) return measurement;
    const p99ByRoundMs = runs[index]!.map((round) => summarizeLatencies(round.flatMap((run) => run.latenciesMs)).p99);
    return { ...measurement, p99ByRoundMs };
  });
}

/** One target's figures from its measured stretches of load, taken together. */
function measurementOf(target: Target, settings: Settings, runs: LoadRun[]): Measurement {
  const results = runs.map((run) => run.result);
  const sum = (of: (result: (typeof results)[number]) => number) => results.reduce((total, r) => total + of(r), 0);
  const durationS = sum((result) => result.duration);
  const totalRequests = sum((result) => result.requests.total ?? result['2xx'] + result.non2xx);
  const statusCodes: Record<string, number> = {};
  for (const result of results) {
    for (const [code, { count }] of Object.entries(result.statusCodeStats)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
    }
  }
  const measurement: Measurement = {
    key: target.key,
    label: target.label,
    method: target.method,
    url: target.url,
    durationS,
    connections: settings.connections,
    requestsPerSec: {
      mean: results.length === 1 ? results[0]!.requests.mean : totalRequests / durationS,
      // Of the one-second samples within each stretch (the spread between stretches is the drift it cancels).
      stddev: Math.sqrt(sum((result) => result.requests.stddev ** 2 * result.duration) / durationS),
      min: Math.min(...results.map((result) => result.requests.min)),
      max: Math.max(...results.map((result) => result.requests.max)),
    },
    totalRequests,
    latencyMs: summarizeLatencies(runs.flatMap((run) => run.latenciesMs)),
    statusCodes,
    non2xx: sum((result) => result.non2xx),
    errors: sum((result) => result.errors),
    timeouts: sum((result) => result.timeouts),
    wrongBodies: runs.reduce((total, run) => total + run.wrongBodies, 0),
  };
  if (problemsOf(measurement) > 0) {
    log(
      `${target.label}: ${measurement.non2xx} non-2xx (status codes ${JSON.stringify(measurement.statusCodes)}), ` +
        `${measurement.errors} connection errors (${measurement.timeouts} timeouts), ${measurement.wrongBodies} 2xx with a wrong body`,
    );
    const errorSample = runs.find((run) => run.errorSample)?.errorSample;
    const wrongBodySample = runs.find((run) => run.wrongBodySample)?.wrongBodySample;
    if (errorSample) log(`  first error: ${errorSample}`);
    if (wrongBodySample) log(`  first wrong body: ${wrongBodySample}`);
  }
  return measurement;
}

// ---------------------------------------------------------------------------------------------

/**
 * The subgraph deadline of the gateway the outage figures are taken through, so the frozen-service figure is quick
 * to take. The measured targets go through the stack's own gateway, with the default deadline.
 */
const outageTimeoutMs = 2_000;

async function timed(url: string, cookie: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie }, signal: AbortSignal.timeout(60_000) });
  await response.arrayBuffer();
  return { status: response.status, ms: Math.round(performance.now() - started) };
}

/**
 * The failing-fast figures: how long a route takes to answer 503 with the billing service frozen (SIGSTOP) and
 * with the database stopped, and how long until the database route answers again. Timings go here, never
 * into test assertions.
 */
async function measureOutages(
  gatewayUrl: string,
  cookie: string,
  running: RunningApps,
  stateDir: string,
  mongoPort: number,
): Promise<{
  frozenSubgraphMs: number;
  unrelatedDuringFreezeMs: number;
  databaseDownMs: number;
  databaseRecoveryMs: number;
}> {
  log('measuring outages: billing frozen, then the database stopped');
  const billing = running.pidOf('billing');
  if (!billing) throw new Error('no billing process to freeze');
  process.kill(billing, 'SIGSTOP');
  let frozen: { status: number; ms: number };
  let unrelated: { status: number; ms: number };
  try {
    const pending = timed(`${gatewayUrl}/api/subscription-status`, cookie);
    unrelated = await timed(`${gatewayUrl}/api/user`, cookie);
    frozen = await pending;
  } finally {
    process.kill(billing, 'SIGCONT');
  }
  if (frozen.status !== 503 || unrelated.status !== 200) {
    throw new Error(`frozen billing: expected 503 and 200, got ${frozen.status} and ${unrelated.status}`);
  }
  await stopMongoServer(stateDir);
  let down: { status: number; ms: number };
  try {
    down = await timed(`${gatewayUrl}/api/user`, cookie);
  } finally {
    await startMongoServer(stateDir, mongoPort, { jit: 'full' });
  }
  const restarted = performance.now();
  while ((await timed(`${gatewayUrl}/api/user`, cookie)).status !== 200) {
    if (performance.now() - restarted > 60_000) throw new Error('the database route did not recover within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const recoveryMs = Math.round(performance.now() - restarted);
  if (down.status !== 503) throw new Error(`database stopped: expected 503, got ${down.status}`);
  return {
    frozenSubgraphMs: frozen.ms,
    unrelatedDuringFreezeMs: unrelated.ms,
    databaseDownMs: down.ms,
    databaseRecoveryMs: recoveryMs,
  };
}

function timestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');
}

/** Writes a run's figures, with the run's start, to `.haven/bench/<kind>-<start>.json` and says where. */
function saveResults(kind: string, startedAt: Date, figures: Record<string, unknown>): void {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${kind}-${timestamp(startedAt)}.json`);
  writeFileSync(file, `${JSON.stringify({ startedAt: startedAt.toISOString(), ...figures }, null, 2)}\n`);
  console.log(`Results: ${file}`);
}

async function main(): Promise<number> {
  const settings: Settings = {
    durationS: positiveIntFromEnv('BENCH_DURATION', 10),
    connections: positiveIntFromEnv('BENCH_CONNECTIONS', 10),
    warmupS: positiveIntFromEnv('BENCH_WARMUP', 2),
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

  const startedAt = new Date();
  const stateDir = join(benchRoot, `bench-${process.pid}`);
  let infraStarted = false;
  let running: RunningApps | null = null;
  let baseline: ChildProcess | null = null;
  let succeeded = false;

  try {
    await cleanUpAbandonedRuns();
    rmSync(stateDir, { recursive: true, force: true });
    mkdirSync(stateDir, { recursive: true });

    log('provisioning (the first run fetches the database and Kafka jars; later runs reuse the cache)');
    await provision((line) => log(`  ${line}`));
    checkAborted();

    const ports = portsFrom(await freePorts(5 + apps.length));
    log(`starting the database, Kafka and maildev (state ${stateDir})`);
    infraStarted = true;
    const infra = await startInfra(stateDir, ports.infra, { jit: 'full' });
    checkAborted();

    log(`starting the ${serviceCatalog.length} services and the gateway`);
    const gatewayUrl = `http://127.0.0.1:${ports.apps.gateway}`;
    const keys = ensureDevKeys(stateDir);
    const appsOptions: AppsOptions = {
      stateDir,
      infra,
      keys,
      ports: ports.apps,
      appUrl: gatewayUrl,
      output: 'files',
      env: {
        LOG_LEVEL: 'warn',
        // The other classes are raised out of the way of the parts that repeat one person's operations.
        RATE_LIMIT_AUTH_MAX: '1000000',
        RATE_LIMIT_MAIL_MAX: '1000000',
        // A check-in's rate-limit log as long as a real one (the default 30), in a window short enough for the load:
        // with a million allowed, the log the database rewrites on every check-in grows to thousands of entries.
        RATE_LIMIT_COSTLY_MAX: '30',
        RATE_LIMIT_COSTLY_WINDOW_MS: '20',
        RATE_LIMIT_ORDINARY_MAX: '1000000',
        RATE_LIMIT_EXPORT_MAX: '1000000',
        // The access figures end trials by moving billing's clock (tools/bench/access.ts).
        BILLING_TEST_CLOCK: '1',
        // The admin list's figures ask as the admin (tools/bench/adminUsers.ts).
        ADMIN_EMAIL: benchAdminEmail,
      },
    };
    running = await startApps(appsOptions);
    checkAborted();

    if (process.env.BENCH_ONLY === 'web') {
      const web = await benchWeb(gatewayUrl, log);
      console.log('');
      console.log(formatWebResult(web));
      saveResults('web', startedAt, { web });
      succeeded = true;
      return 0;
    }

    const accessOptions = {
      gatewayUrl,
      mongoUrl: infra.mongoUrl,
      quoteDb: 'haven_quote',
      billingUrl: localGraphqlUrl(ports.apps.billing),
      subgraphSecret: readFileSync(keys.subgraphSecretFile, 'utf8').trim(),
      serviceSecret: readFileSync(keys.serviceSecretFile, 'utf8').trim(),
    };
    if (process.env.BENCH_ONLY === 'access') {
      const access = await benchAccess(accessOptions);
      console.log('');
      console.log(formatAccessResult(access));
      saveResults('access', startedAt, { access });
      succeeded = true;
      return 0;
    }

    const limitsOptions = {
      gatewayUrl,
      subgraphUrl: localGraphqlUrl(ports.apps.user),
      subgraphSecret: accessOptions.subgraphSecret,
    };
    if (process.env.BENCH_ONLY === 'limits') {
      const limits = await benchLimits(limitsOptions, log);
      console.log('');
      console.log(formatLimitsResult(limits));
      saveResults('limits', startedAt, { limits });
      succeeded = true;
      return 0;
    }

    if (process.env.BENCH_ONLY === 'sealing') {
      const sealing = await benchSealing({ appsOptions, connections: settings.connections, checkAborted }, log);
      console.log('');
      console.log(formatSealingResult(sealing));
      saveResults('sealing', startedAt, { sealing });
      const problems = sealingProblems(sealing);
      if (problems.length > 0) {
        console.error(`\nFAILED: ${problems.join('; ')}`);
        return 1;
      }
      succeeded = true;
      return 0;
    }

    if (process.env.BENCH_ONLY === 'admin') {
      const adminList = await benchAdminList(gatewayUrl, infra, log);
      console.log('');
      console.log(formatAdminListResult(adminList));
      saveResults('admin', startedAt, { adminList });
      succeeded = true;
      return 0;
    }

    const session = await signUp(gatewayUrl);
    const user = await readUserJson(gatewayUrl, session.cookie);
    const idField = `"id":"${user.id}"`;
    const isUser = (body: string) => body.includes(idField);
    log(`signed up user ${user.id}; the user JSON is ${Buffer.byteLength(user.json)} bytes`);

    const started = await startBaseline(user.json);
    baseline = started.child;
    checkAborted();

    const graphqlBody = JSON.stringify({ query: meQuery });
    const targets: Target[] = [
      { key: 'baseline', label: 'baseline (bare node http)', method: 'GET', url: started.url, headers: {} },
      {
        key: 'subgraph',
        label: 'user subgraph /graphql',
        method: 'POST',
        url: localGraphqlUrl(ports.apps.user),
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${session.token}`,
          // Subgraphs answer the gateway only; the bench shows what the subgraph itself costs.
          'x-haven-subgraph-secret': readFileSync(keys.subgraphSecretFile, 'utf8').trim(),
        },
        body: graphqlBody,
      },
      {
        key: 'gatewayGraphql',
        label: 'gateway /graphql',
        method: 'POST',
        url: `${gatewayUrl}/graphql`,
        headers: { 'content-type': 'application/json', cookie: session.cookie },
        body: graphqlBody,
      },
      {
        key: 'gatewayRest',
        label: 'gateway GET /api/user',
        method: 'GET',
        url: `${gatewayUrl}/api/user`,
        headers: { cookie: session.cookie },
      },
    ];
    for (const target of targets) await checkTarget(target, isUser);

    // Generation with the offline composer (no OPENAI_API_KEY), and the reads of users with 1,000 and 10,000
    // check-ins at the same pace (about one a day: three years and thirty), so the two differ in the length of their
    // history, not in how often they check in now. Each check is its own, since these answer other JSON than the user.
    // Paid operations need a subscription: each user starts its trial as a person does (a setup confirmed with
    // the local provider's good card), so billing's scheduler can move it on when the access figures move its clock.
    await startTrial(session.client);
    // The people's data keys as the quote service reaches them: from the user service, over the service credential.
    const personKeys = personKeysFromUserService({
      USER_SERVICE_URL: localGraphqlUrl(ports.apps.user),
      SERVICE_SECRET: accessOptions.serviceSecret,
      SUBGRAPH_SECRET: accessOptions.subgraphSecret,
    });
    const historian = await historianWith(gatewayUrl, infra.mongoUrl, personKeys, 1_000);
    const longHistorian = await historianWith(gatewayUrl, infra.mongoUrl, personKeys, 10_000, 30);
    log('seeded 1,000 check-ins over three years and 10,000 over thirty for the analytics and recent-quotes targets');
    const historyTargets = (who: { cookie: string }, count: number) => [
      {
        target: {
          key: count === 1_000 ? 'quoteAnalytics' : 'quoteAnalytics10k',
          label: `GET /api/user/analytics (${count.toLocaleString('en-GB')})`,
          method: 'GET',
          url: `${gatewayUrl}/api/user/analytics`,
          headers: { cookie: who.cookie },
        } satisfies Target,
        check: (body: string) => body.includes(`"totalEntries":${count}`),
      },
      {
        target: {
          key: count === 1_000 ? 'quoteRecent' : 'quoteRecent10k',
          label: `GET /api/quotes/recent (${count.toLocaleString('en-GB')})`,
          method: 'GET',
          url: `${gatewayUrl}/api/quotes/recent`,
          headers: { cookie: who.cookie },
        } satisfies Target,
        check: (body: string) => body.startsWith('{"quotes":[{"id"'),
      },
    ];
    // The check-ins last: each leaves work behind it (the relay publishing its event, the other services consuming
    // it) that would still be running during the next target's load.
    const quoteTargets: CheckedTarget[] = [
      ...historyTargets(historian, 1_000),
      ...historyTargets(longHistorian, 10_000),
      {
        target: {
          key: 'quoteGenerate',
          label: 'POST /api/quotes/generate (composer)',
          method: 'POST',
          url: `${gatewayUrl}/api/quotes/generate`,
          headers: { 'content-type': 'application/json', cookie: session.cookie },
          body: JSON.stringify({ stressLevel: 4, sleepQuality: 2, timeOfDayPreference: 'evening' }),
        },
        check: (body) => body.includes('"quote":{"id"'),
      },
    ];
    // The first generation is cold (models, the outbox relay's first nudge); on a loaded machine it can pass
    // the subgraph deadline once, so each target gets a few tries before the load.
    for (const { target, check } of quoteTargets) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          await checkTarget(target, check);
          break;
        } catch (error) {
          if (attempt === 5) throw error;
          log(`${target.label}: not ready yet (${(error as Error).message.slice(0, 120)}), trying again`);
        }
      }
    }

    const measurements: Measurement[] = [];
    // The journal's figures alone need only the baseline beside them (for the table): each brings its own reference.
    const journalOnly = process.env.BENCH_ONLY === 'journal';
    const userTargets = journalOnly ? targets.filter((target) => target.key === 'baseline') : targets;
    const byKey = (key: TargetKey) => quoteTargets.find(({ target }) => target.key === key)!;
    const plainRead = targets.find((target) => target.key === 'gatewayRest')!;
    const referenceBeside = (key: TargetKey, what: string): CheckedTarget => ({
      target: { ...plainRead, key, label: `${plainRead.label} (beside ${what})` },
      check: isUser,
    });
    // Each journal figure's targets are measured in turn with the reference they are divided by (and each history's
    // two lengths with each other): R A B B A R. The check-in last, and only after its reference: each check-in leaves
    // work behind it (the relay publishing its event, the other services consuming it) that would slow a read after it,
    // so it has no turns to repeat and is measured once, for the set duration.
    const steps: Array<{ group: CheckedTarget[]; order: number[]; rounds?: number }> = [
      ...userTargets.map((target) => ({ group: [{ target, check: isUser }], order: [0] })),
      {
        group: [
          referenceBeside('gatewayRestBesideAnalytics', 'analytics'),
          byKey('quoteAnalytics'),
          byKey('quoteAnalytics10k'),
        ],
        order: [0, 1, 2, 2, 1, 0],
        rounds: historyReadRounds,
      },
      {
        group: [
          referenceBeside('gatewayRestBesideRecent', 'recent quotes'),
          byKey('quoteRecent'),
          byKey('quoteRecent10k'),
        ],
        order: [0, 1, 2, 2, 1, 0],
        rounds: historyReadRounds,
      },
      { group: [referenceBeside('gatewayRestBesideCheckIn', 'the check-in'), byKey('quoteGenerate')], order: [0, 1] },
    ];
    for (const { group, order, rounds = 1 } of steps) {
      const first = group[0]!;
      // The journal's figures compare p99s across services: each of their targets, the reference included, is
      // measured warm (two seconds left the quote service's paths half-compiled while the gateway's were not).
      const warm = isJournalTarget(first.target.key)
        ? { ...settings, warmupS: Math.max(settings.warmupS, journalWarmupS) }
        : settings;
      const measured = await measureInTurn(group, order, { ...warm, durationS: warm.durationS * rounds }, rounds);
      measurements.push(...measured);
      if (measured.every((measurement) => problemsOf(measurement) === 0)) continue;
      const down = await appsNotReady(ports.apps);
      if (down.length > 0) {
        throw new Error(
          `${down.join(', ')} stopped answering during "${first.target.label}" (see ${join(stateDir, 'logs')}; ` +
            `"<app>: SIGTERM, shutting down" there means a process outside the bench stopped it)`,
        );
      }
    }

    const journal = journalFigures(measurements);
    if (journalOnly) {
      const rows = withRatios(measurements);
      console.log('');
      console.log(formatTable(rows));
      console.log('');
      console.log(formatJournalFigures(journal));
      saveResults('journal', startedAt, { settings, targets: rows, journal });
      const problems = rows.filter((row) => problemsOf(row) > 0).map((row) => row.label);
      if (problems.length > 0) {
        console.error(`\nFAILED: non-2xx/errors/wrong bodies in ${problems.join(', ')}`);
        return 1;
      }
      succeeded = true;
      return 0;
    }

    // What sealing each person's content costs: more HTTP load, on quote services and gateways of its own.
    let sealing: SealingBenchResult | null = null;
    if (process.env.BENCH_SEALING !== '0') {
      sealing = await benchSealing({ appsOptions, connections: settings.connections, checkAborted }, log);
      checkAborted();
    }

    // The outbox relay after the HTTP load (they would compete for the cores), on servers of its own: its 2,000
    // events name no real user, and the stack's consumers would handle them (2,000 verification e-mails).
    let relay: RelayBenchResult | null = null;
    if (process.env.BENCH_RELAY !== '0') {
      relay = await onServersOfItsOwn(`${stateDir}-relay`, (own) => benchRelay(own, log));
      checkAborted();
    }
    const access = await benchAccess(accessOptions);
    checkAborted();
    const limits = await benchLimits(limitsOptions, log);
    checkAborted();
    // The newsletter fan-out, after the relay (alone on the cores, like it), on servers of its own: its Haven's
    // consumers share the stack's groups, and the stack's would take half its pages into a database without them.
    let fanOut: FanOutBenchResult | null = null;
    if (process.env.BENCH_FANOUT !== '0') {
      fanOut = await onServersOfItsOwn(`${stateDir}-fanout`, (own) => benchFanOut(own, log));
      checkAborted();
    }
    // The admin list at 100,000 accounts, after the other load (its seeding would compete for the cores).
    let adminList: AdminListBenchResult | null = null;
    if (process.env.BENCH_ADMIN !== '0') {
      adminList = await benchAdminList(gatewayUrl, infra, log);
      checkAborted();
    }
    // A second gateway in front of the same services, with the short deadline.
    const outageGateway = await startExtraApp('gateway', appsOptions, {
      ports: { gateway: (await freePorts(1))[0]! },
      env: { SUBGRAPH_TIMEOUT_MS: String(outageTimeoutMs) },
      logName: 'gateway-outages',
    });
    let outages: Awaited<ReturnType<typeof measureOutages>>;
    try {
      outages = await measureOutages(outageGateway.url, session.cookie, running, stateDir, ports.infra.mongo);
    } finally {
      await stopChild(outageGateway.child);
    }
    // The web figures last: Chromium and Lighthouse would compete with the load for the cores.
    let web: WebBenchResult | null = null;
    if (process.env.BENCH_WEB !== '0') {
      web = await benchWeb(gatewayUrl, log);
      checkAborted();
    }

    const rows = withRatios(measurements);
    const failed = [
      ...rows
        .filter((row) => problemsOf(row) > 0)
        .map((row) => `${row.label} had ${problemsOf(row)} non-2xx/errors/wrong bodies`),
      ...(sealing ? sealingProblems(sealing) : []),
    ];
    console.log('');
    console.log(
      `Haven bench: ${settings.connections} connections, ${settings.durationS} s per target after ${settings.warmupS} s ` +
        `warm-up, ${cpus().length} CPUs shared by the load generator and the servers`,
    );
    console.log('');
    console.log(formatTable(rows));
    console.log('');
    console.log(summaryLine(rows));
    console.log('');
    console.log(formatJournalFigures(journal));
    console.log('');
    console.log(
      `Outages (SUBGRAPH_TIMEOUT_MS=${outageTimeoutMs}): frozen billing service → 503 in ${outages.frozenSubgraphMs} ms ` +
        `(unrelated route meanwhile ${outages.unrelatedDuringFreezeMs} ms); database stopped → 503 in ` +
        `${outages.databaseDownMs} ms; back to 200 ${outages.databaseRecoveryMs} ms after the database started`,
    );
    if (sealing) {
      console.log('');
      console.log(formatSealingResult(sealing));
    }
    if (relay) {
      console.log('');
      console.log(formatRelayResult(relay));
    }
    console.log('');
    console.log(formatAccessResult(access));
    console.log('');
    console.log(formatLimitsResult(limits));
    if (fanOut) {
      console.log('');
      console.log(formatFanOutResult(fanOut));
    }
    if (adminList) {
      console.log('');
      console.log(formatAdminListResult(adminList));
    }
    if (web) {
      console.log('');
      console.log(formatWebResult(web));
    }

    const finishedAt = new Date();
    saveResults('results', startedAt, {
      ok: failed.length === 0,
      finishedAt: finishedAt.toISOString(),
      settings,
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        memoryBytes: totalmem(),
        loadAverage: loadavg(),
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
      },
      userJsonBytes: Buffer.byteLength(user.json),
      targets: rows,
      summary: summaryLine(rows),
      journal,
      outages: { subgraphTimeoutMs: outageTimeoutMs, ...outages },
      sealing,
      relay,
      access,
      limits,
      fanOut,
      adminList,
      web,
    });

    if (failed.length > 0) {
      console.error(`\nFAILED: ${failed.join('; ')}`);
      return 1;
    }
    succeeded = true;
    return 0;
  } catch (error) {
    // A Ctrl-C in the terminal also reaches the apps, so a step may fail for that reason instead.
    if (abortedBy) {
      log(`stopped by ${abortedBy}`);
      return 130;
    }
    console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  } finally {
    stopLoadInProgress();
    log('stopping the baseline server, the apps and the infrastructure');
    if (baseline) await stopChild(baseline).catch((error: unknown) => log(`baseline did not stop: ${String(error)}`));
    if (running) await running.stop().catch((error: unknown) => log(`apps did not stop: ${String(error)}`));
    if (infraStarted) await stopInfra(stateDir).catch((error: unknown) => log(`infra did not stop: ${String(error)}`));
    if (succeeded || abortedBy) rmSync(stateDir, { recursive: true, force: true });
    else log(`kept ${stateDir} (logs under logs/) until the next run`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
