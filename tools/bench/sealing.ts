/**
 * What sealing each person's notes and messages costs (services/platform/src/person-keys.ts), on the check-in
 * path and the progress page's reads, as a ratio to the same paths with `PERSON_DATA_SEALING=0`, in the same run.
 *
 * Two more quote services on the stack's database, Kafka and user service, one sealing and one not, each behind a
 * gateway of its own. A person for each, subscribed as a person subscribes, with the same history of check-ins
 * with notes made through their own gateway: each side reads what its world stores (sealed under the person's key,
 * or plain), and answers the same plain text. Short rounds alternate, each side as often first as second, so the
 * machine's noise weighs on both alike; the reads are measured before the check-ins add to either history.
 */
import mongoose from 'mongoose';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse, print, type DefinitionNode } from 'graphql';
import type { AppsOptions } from '../dev/apps';
import { freePorts, repoRoot } from '../infra';
import type { ApiClient } from '../testing/http';
import { signedUpPerson, startTrial } from '../testing/subscription';
import { checkInModel } from '../../services/quote/src/model/check-in';
import { quoteModel } from '../../services/quote/src/model/quote';
import { startExtraApp, stopChild } from './extraApps';
import { checkTarget, load, type Target } from './load';
import { formatColumns, formatMs, formatRatio, summarizeLatencies } from './report';

export type SealingSide = 'sealed' | 'plain';

/** One side of one path, over all its measured rounds. */
export interface SealingFigures {
  /** 2xx answers, and the seconds the rounds took. */
  requests: number;
  seconds: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /**
   * CPU time the side's quote service spent per answer (user and system, from /proc; null where there is none):
   * what the machine's other load disturbs least.
   */
  quoteCpuMsPerRequest: number | null;
  non2xx: number;
  /** Connection errors, timeouts and 2xx answers with a wrong body. */
  errors: number;
}

export interface SealingPathResult {
  label: string;
  sealed: SealingFigures;
  plain: SealingFigures;
  /** sealed ÷ plain: below 1 for requests/s, above 1 for latency, is what sealing costs. */
  ratios: { requestsPerSec: number; p50: number; p99: number; quoteCpu: number | null };
}

export interface SealingBenchResult {
  /** The whole stage: starting its apps, the people and their histories, and the rounds. */
  seconds: number;
  connections: number;
  roundSeconds: number;
  /** The order of the measured rounds of each path. */
  rounds: SealingSide[];
  historyCheckIns: number;
  loadAverageBefore: number[];
  loadAverageAfter: number[];
  paths: SealingPathResult[];
}

const roundSeconds = 2;
const warmupSeconds = 1;
/** Each side as often first as second in a pair, so a drift in the machine's load weighs on both alike. */
const rounds: SealingSide[] = ['sealed', 'plain', 'plain', 'sealed', 'plain', 'sealed', 'sealed', 'plain'];
const historyCheckIns = 60;
/** The progress page's journey (web/src/areas/checkin/ProgressPage.tsx, JOURNEY_LENGTH). */
const journeyLength = 50;

/** The progress page's own query: its journey, each entry's message and notes (web/src/areas/checkin). */
function progressPageQuery(): string {
  const document = parse(readFileSync(join(repoRoot, 'web/src/areas/checkin/operations.graphql'), 'utf8'));
  const named = (name: string) =>
    document.definitions.find(
      (definition): definition is DefinitionNode & { name: { value: string } } =>
        'name' in definition && definition.name?.value === name,
    );
  const parts = [named('RecentQuotes'), named('QuoteCard')];
  if (parts.some((part) => !part)) throw new Error('operations.graphql no longer has RecentQuotes and QuoteCard');
  return parts.map((part) => print(part!)).join('\n');
}

/** A check-in as the app sends it, with notes of a few sentences. */
function checkIn(index: number): Record<string, unknown> {
  return {
    stressLevel: 1 + (index % 5),
    sleepQuality: 1 + ((index + 2) % 5),
    timeOfDayPreference: 'evening',
    notes:
      `Day ${index}: slept a little better than last week. Long walk after work, then called my sister about ` +
      'the weekend and felt lighter afterwards. Still behind on the report, but I made a list and started on it.',
  };
}

/** CPU seconds a process has used so far (user and system), from /proc/<pid>/stat; null without it. */
function cpuSecondsOf(pid: number | undefined): number | null {
  try {
    // The fields after the command's closing parenthesis start at the third; utime and stime are the 14th and 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // In clock ticks, which Linux's ABI fixes at 100 a second for user space.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

export interface SealingRound {
  latenciesMs: readonly number[];
  seconds: number;
  /** CPU seconds the side's quote service used during the round; null when unknown. */
  quoteCpuSeconds: number | null;
  non2xx: number;
  errors: number;
}

/** One side's figures from its rounds (pure; tools/bench/test/sealing.test.ts). */
export function sealingFigures(runs: readonly SealingRound[]): SealingFigures {
  const latencies = summarizeLatencies(runs.flatMap((run) => run.latenciesMs));
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const round2 = (value: number) => Math.round(value * 100) / 100;
  const cpuSeconds = runs.some((run) => run.quoteCpuSeconds === null)
    ? null
    : runs.reduce((sum, run) => sum + run.quoteCpuSeconds!, 0);
  return {
    requests: latencies.count,
    seconds: round2(seconds),
    requestsPerSec: round2(latencies.count / seconds),
    p50Ms: round2(latencies.p50),
    p99Ms: round2(latencies.p99),
    quoteCpuMsPerRequest: cpuSeconds === null ? null : round2((cpuSeconds * 1000) / latencies.count),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

export function sealingPath(label: string, sealed: SealingFigures, plain: SealingFigures): SealingPathResult {
  const ratio = (of: number, to: number) => Math.round((of / to) * 1000) / 1000;
  return {
    label,
    sealed,
    plain,
    ratios: {
      requestsPerSec: ratio(sealed.requestsPerSec, plain.requestsPerSec),
      p50: ratio(sealed.p50Ms, plain.p50Ms),
      p99: ratio(sealed.p99Ms, plain.p99Ms),
      quoteCpu:
        sealed.quoteCpuMsPerRequest === null || plain.quoteCpuMsPerRequest === null
          ? null
          : ratio(sealed.quoteCpuMsPerRequest, plain.quoteCpuMsPerRequest),
    },
  };
}

/** Answers that make a path's figures untrustworthy. */
export function sealingProblems(result: SealingBenchResult): string[] {
  return result.paths.flatMap((path) =>
    (['sealed', 'plain'] as const)
      .filter((side) => path[side].non2xx + path[side].errors > 0)
      .map((side) => `${path.label} (${side}): ${path[side].non2xx} non-2xx, ${path[side].errors} errors`),
  );
}

export function formatSealingResult(result: SealingBenchResult): string {
  const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(' ');
  const ratio = (value: number | null) => (value === null ? 'n/a' : `${formatRatio(value)}×`);
  const cpu = (value: number | null) => (value === null ? 'n/a' : formatMs(value));
  const header = [
    'path',
    'req/s sealed',
    'plain',
    'ratio',
    'p50 ms sealed',
    'plain',
    'ratio',
    'p99 ms sealed',
    'plain',
  ];
  const body = result.paths.map(({ label, sealed, plain, ratios }) => [
    label,
    sealed.requestsPerSec.toFixed(1),
    plain.requestsPerSec.toFixed(1),
    ratio(ratios.requestsPerSec),
    formatMs(sealed.p50Ms),
    formatMs(plain.p50Ms),
    ratio(ratios.p50),
    formatMs(sealed.p99Ms),
    formatMs(plain.p99Ms),
    ratio(ratios.p99),
    cpu(sealed.quoteCpuMsPerRequest),
    cpu(plain.quoteCpuMsPerRequest),
    ratio(ratios.quoteCpu),
  ]);
  return [
    `Sealing (PERSON_DATA_SEALING on and off, ratio sealed ÷ plain), ${result.seconds} s: ` +
      `${result.connections} connections, ${result.rounds.length} rounds of ${result.roundSeconds} s per path ` +
      `(${result.rounds.join(', ')}), ${result.historyCheckIns} check-ins with notes per person first; ` +
      `load average ${load(result.loadAverageBefore)} → ${load(result.loadAverageAfter)}`,
    formatColumns([...header, 'ratio', 'quote CPU ms/req sealed', 'plain', 'ratio'], body),
    ...sealingProblems(result).map((problem) => `! ${problem}`),
  ].join('\n');
}

interface Side {
  name: SealingSide;
  gatewayUrl: string;
  quotePid: number | undefined;
  person: { client: ApiClient; userId: string };
}

interface SealingTarget {
  label: string;
  target: (side: Side) => Target;
  isRight: (body: string) => boolean;
}

/** Nothing sealed reaches the person: each side answers the text itself. */
const opened = (body: string) => !body.includes('hp1.');

function targetsOf(journalQuery: string): SealingTarget[] {
  const cookieOf = (side: Side) => ({ cookie: side.person.client.cookie ?? '' });
  return [
    {
      label: 'GET /api/quotes/recent?limit=30',
      target: (side) => ({
        key: 'sealingRecent',
        label: `GET /api/quotes/recent?limit=30 (${side.name})`,
        method: 'GET',
        url: `${side.gatewayUrl}/api/quotes/recent?limit=30`,
        headers: cookieOf(side),
      }),
      isRight: (body) => body.startsWith('{"quotes":[{"id"') && opened(body),
    },
    {
      label: `progress page journey (GraphQL, ${journeyLength})`,
      target: (side) => ({
        key: 'sealingJournal',
        label: `progress page journey (${side.name})`,
        method: 'POST',
        url: `${side.gatewayUrl}/graphql`,
        headers: { 'content-type': 'application/json', ...cookieOf(side) },
        body: JSON.stringify({
          query: journalQuery,
          operationName: 'RecentQuotes',
          variables: { limit: journeyLength },
        }),
      }),
      isRight: (body) => body.includes('"recentQuotes":[{') && body.includes('"notes":"Day ') && opened(body),
    },
    {
      label: 'POST /api/quotes/generate (notes)',
      target: (side) => ({
        key: 'sealingCheckIn',
        label: `POST /api/quotes/generate (${side.name})`,
        method: 'POST',
        url: `${side.gatewayUrl}/api/quotes/generate`,
        headers: { 'content-type': 'application/json', ...cookieOf(side) },
        body: JSON.stringify(checkIn(historyCheckIns)),
      }),
      isRight: (body) => body.includes('"quote":{"id"') && opened(body),
    },
  ];
}

/** Each person's history: check-ins with notes through their own side, a few at a time. */
async function makeHistory(side: Side): Promise<void> {
  const inFlight = 3;
  for (let first = 0; first < historyCheckIns; first += inFlight) {
    await Promise.all(
      Array.from({ length: Math.min(inFlight, historyCheckIns - first) }, async (_, offset) => {
        const response = await side.person.client.post('/api/quotes/generate', checkIn(first + offset));
        if (response.status !== 200) {
          throw new Error(`${side.name} check-in answered ${response.status}: ${JSON.stringify(response.body)}`);
        }
      }),
    );
  }
}

/** The switch did what it says: the sealed side's person's notes and messages are stored sealed, the other's not. */
async function checkStoredForms(mongoUrl: string, sides: Side[]): Promise<void> {
  const connection = await mongoose.createConnection(mongoUrl, { dbName: 'haven_quote' }).asPromise();
  try {
    const checkIns = checkInModel(connection);
    const quotes = quoteModel(connection);
    for (const side of sides) {
      const { userId } = side.person;
      const [notes, sealedNotes, texts, sealedTexts] = await Promise.all([
        checkIns.countDocuments({ userId, notes: { $type: 'string' } }),
        checkIns.countDocuments({ userId, notes: /^hp1\./ }),
        quotes.countDocuments({ userId }),
        quotes.countDocuments({ userId, text: /^hp1\./ }),
      ]);
      const expected = side.name === 'sealed' ? { notes, texts } : { notes: 0, texts: 0 };
      if (notes < historyCheckIns || sealedNotes !== expected.notes || sealedTexts !== expected.texts) {
        throw new Error(
          `${side.name} side: ${sealedNotes} of ${notes} notes and ${sealedTexts} of ${texts} messages stored sealed`,
        );
      }
    }
  } finally {
    await connection.close();
  }
}

/** `checkAborted` throws once the run is being stopped (Ctrl-C), between rounds. */
export async function benchSealing(
  options: { appsOptions: AppsOptions; connections: number; checkAborted: () => void },
  log: (line: string) => void,
): Promise<SealingBenchResult> {
  const { appsOptions } = options;
  const stageStarted = performance.now();
  const started: Array<{ child: ChildProcess }> = [];
  try {
    const [sealedQuote, sealedGateway, plainQuote, plainGateway] = await freePorts(4);
    log('sealing: starting a quote service with PERSON_DATA_SEALING on and one with it off, each with a gateway');
    const startSide = async (name: SealingSide, quotePort: number, gatewayPort: number) => {
      const quote = await startExtraApp('quote', appsOptions, {
        ports: { quote: quotePort },
        env: { PERSON_DATA_SEALING: name === 'sealed' ? '1' : '0' },
        logName: `quote-${name}`,
      });
      started.push(quote);
      const gateway = await startExtraApp('gateway', appsOptions, {
        ports: { gateway: gatewayPort, quote: quotePort },
        logName: `gateway-${name}`,
      });
      started.push(gateway);
      return { gatewayUrl: gateway.url, quotePid: quote.child.pid };
    };
    // Both sides settle before a failure is thrown, so that every app started is stopped.
    const startedSides = await Promise.allSettled([
      startSide('sealed', sealedQuote!, sealedGateway!),
      startSide('plain', plainQuote!, plainGateway!),
    ]);
    const apps = startedSides.map((side) => {
      if (side.status === 'rejected') throw side.reason;
      return side.value;
    });
    const sides: Side[] = await Promise.all(
      (['sealed', 'plain'] as const).map(async (name, index) => {
        const { gatewayUrl, quotePid } = apps[index]!;
        const person = await signedUpPerson(gatewayUrl, `bench-sealing-${name}`);
        await startTrial(person.client);
        return { name, gatewayUrl, quotePid, person };
      }),
    );
    log(`sealing: ${historyCheckIns} check-ins with notes for each person`);
    await Promise.all(sides.map(makeHistory));
    await checkStoredForms(appsOptions.infra.mongoUrl, sides);

    const bySide = (name: SealingSide) => sides.find((side) => side.name === name)!;
    const loadAverageBefore = loadavg();
    const paths: SealingPathResult[] = [];
    for (const path of targetsOf(progressPageQuery())) {
      for (const side of sides) await checkTarget(path.target(side), path.isRight);
      log(`sealing: ${path.label}, ${warmupSeconds} s warm-up each, then ${rounds.join(', ')}, ${roundSeconds} s each`);
      for (const side of sides) await load(path.target(side), options.connections, warmupSeconds, path.isRight);
      const runs: Record<SealingSide, SealingRound[]> = { sealed: [], plain: [] };
      for (const name of rounds) {
        options.checkAborted();
        const side = bySide(name);
        const cpuBefore = cpuSecondsOf(side.quotePid);
        const run = await load(path.target(side), options.connections, roundSeconds, path.isRight);
        const cpuAfter = cpuSecondsOf(side.quotePid);
        runs[name].push({
          latenciesMs: run.latenciesMs,
          seconds: run.result.duration,
          quoteCpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
          non2xx: run.result.non2xx,
          errors: run.result.errors + run.wrongBodies,
        });
      }
      options.checkAborted();
      paths.push(sealingPath(path.label, sealingFigures(runs.sealed), sealingFigures(runs.plain)));
    }
    return {
      seconds: Math.round((performance.now() - stageStarted) / 1000),
      connections: options.connections,
      roundSeconds,
      rounds,
      historyCheckIns,
      loadAverageBefore,
      loadAverageAfter: loadavg(),
      paths,
    };
  } finally {
    await Promise.all(started.reverse().map(({ child }) => stopChild(child)));
  }
}
