/**
 * What a hostile GraphQL query costs against a trivial one, at the gateway and straight at the user subgraph
 * (services/platform/src/limits.ts refuses such queries before graphql-js validates them): the largest
 * repeated selection (`{me{id}me{id}…}`) and the largest list of aliases (`{a0:me{id}a1:me{id}…}`) whose JSON
 * body fits the 100 kB limit of both, each against `{ me { id } }` (no session: `me` is null), as the p50 of
 * sequential requests taken in turn, so the machine's load weighs on all three alike.
 */
import { performance } from 'node:perf_hooks';
import { percentile } from './report';

/** express.json's limit on /graphql at the gateway (gateway/src/app.ts) and every subgraph (service.ts): 100kb. */
export const graphqlBodyLimitBytes = 100 * 1024;

const bodyOf = (query: string) => JSON.stringify({ query });

/** The largest query built of `part(0)`, `part(1)`, … inside one pair of braces whose JSON body fits `limit`. */
export function largestQuery(part: (index: number) => string, limit = graphqlBodyLimitBytes): string {
  const parts: string[] = [];
  let bytes = Buffer.byteLength(bodyOf('{}'));
  for (let index = 0; ; index += 1) {
    const next = part(index);
    if (bytes + Buffer.byteLength(next) > limit) return `{${parts.join('')}}`;
    parts.push(next);
    bytes += Buffer.byteLength(next);
  }
}

export const trivialQuery = '{ me { id } }';
export const repeatedQuery = largestQuery(() => 'me{id}');
export const aliasQuery = largestQuery((index) => `a${index}:me{id}`);

export type LimitsQuery = 'trivial' | 'repeated' | 'aliases';

export interface LimitsTargetResult {
  label: string;
  /** p50 of each query's requests (ms). */
  p50Ms: Record<LimitsQuery, number>;
  /** Each hostile query's p50 over the trivial one's. */
  ratios: { repeated: number; aliases: number };
  /** The statuses each query was answered with, and the first error message of its last answer. */
  statuses: Record<LimitsQuery, number[]>;
  messages: Record<LimitsQuery, string | null>;
}

export interface LimitsBenchResult {
  requests: number;
  bodyBytes: Record<LimitsQuery, number>;
  targets: LimitsTargetResult[];
}

/** The ratios and the table's row of one target, from each query's timings (pure; tools/bench/test). */
export function limitsRow(
  label: string,
  samplesMs: Record<LimitsQuery, number[]>,
  statuses: Record<LimitsQuery, number[]>,
  messages: Record<LimitsQuery, string | null>,
): LimitsTargetResult {
  const p50 = (samples: number[]) =>
    Math.round(
      percentile(
        [...samples].sort((a, b) => a - b),
        50,
      ) * 100,
    ) / 100;
  const p50Ms = { trivial: p50(samplesMs.trivial), repeated: p50(samplesMs.repeated), aliases: p50(samplesMs.aliases) };
  const ratio = (value: number) => Math.round((value / p50Ms.trivial) * 10) / 10;
  return {
    label,
    p50Ms,
    ratios: { repeated: ratio(p50Ms.repeated), aliases: ratio(p50Ms.aliases) },
    statuses: {
      trivial: [...new Set(statuses.trivial)],
      repeated: [...new Set(statuses.repeated)],
      aliases: [...new Set(statuses.aliases)],
    },
    messages,
  };
}

export function formatLimitsResult(result: LimitsBenchResult): string {
  const kb = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} kB`);
  const lines = [
    `GraphQL limits: p50 of ${result.requests} sequential requests each; bodies: trivial ${kb(result.bodyBytes.trivial)}, ` +
      `repeated selection ${kb(result.bodyBytes.repeated)}, aliases ${kb(result.bodyBytes.aliases)}`,
  ];
  for (const target of result.targets) {
    const { p50Ms, ratios, statuses } = target;
    lines.push(
      `  ${target.label}: trivial ${p50Ms.trivial} ms (${statuses.trivial.join('/')}); ` +
        `repeated ${p50Ms.repeated} ms = ${ratios.repeated}× (${statuses.repeated.join('/')}); ` +
        `aliases ${p50Ms.aliases} ms = ${ratios.aliases}× (${statuses.aliases.join('/')})`,
    );
    for (const query of ['repeated', 'aliases'] as const) {
      if (target.messages[query]) lines.push(`    ${query}: ${target.messages[query]}`);
    }
  }
  return lines.join('\n');
}

interface Answer {
  status: number;
  message: string | null;
}

async function ask(url: string, headers: Record<string, string>, query: string): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: bodyOf(query),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let message: string | null = null;
  try {
    message = (JSON.parse(text) as { errors?: Array<{ message?: string }> }).errors?.[0]?.message ?? null;
  } catch {
    message = text.slice(0, 200);
  }
  return { status: response.status, message };
}

export async function benchLimits(
  options: { gatewayUrl: string; subgraphUrl: string; subgraphSecret: string; requests?: number },
  log: (line: string) => void,
): Promise<LimitsBenchResult> {
  const requests = options.requests ?? 20;
  const queries: Record<LimitsQuery, string> = { trivial: trivialQuery, repeated: repeatedQuery, aliases: aliasQuery };
  const targets: Array<{ label: string; url: string; headers: Record<string, string> }> = [
    { label: 'gateway /graphql', url: `${options.gatewayUrl}/graphql`, headers: {} },
    {
      label: 'user subgraph /graphql',
      url: options.subgraphUrl,
      headers: { 'x-haven-subgraph-secret': options.subgraphSecret },
    },
  ];
  const results: LimitsTargetResult[] = [];
  for (const target of targets) {
    log(`limits: ${target.label}, ${requests} requests of each query`);
    const samples: Record<LimitsQuery, number[]> = { trivial: [], repeated: [], aliases: [] };
    const statuses: Record<LimitsQuery, number[]> = { trivial: [], repeated: [], aliases: [] };
    const messages: Record<LimitsQuery, string | null> = { trivial: null, repeated: null, aliases: null };
    // Two unmeasured rounds first (JIT, connections), then the queries in turn.
    for (let round = -2; round < requests; round += 1) {
      for (const query of ['trivial', 'repeated', 'aliases'] as const) {
        const start = performance.now();
        const answer = await ask(target.url, target.headers, queries[query]);
        const ms = performance.now() - start;
        if (query === 'trivial' && answer.status !== 200) {
          throw new Error(`${target.label}: the trivial query answered ${answer.status}: ${answer.message}`);
        }
        // A refusal of the query itself, never of its body (413) or an outage.
        if (query !== 'trivial' && answer.status !== 400) {
          throw new Error(`${target.label}: the ${query} query answered ${answer.status}: ${answer.message}`);
        }
        if (round < 0) continue;
        samples[query].push(ms);
        statuses[query].push(answer.status);
        messages[query] = answer.message;
      }
    }
    results.push(limitsRow(target.label, samples, statuses, messages));
  }
  return {
    requests,
    bodyBytes: {
      trivial: Buffer.byteLength(bodyOf(trivialQuery)),
      repeated: Buffer.byteLength(bodyOf(repeatedQuery)),
      aliases: Buffer.byteLength(bodyOf(aliasQuery)),
    },
    targets: results,
  };
}
