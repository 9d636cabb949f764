/**
 * Pure helpers of the benchmark: latency percentiles, ratios to the baseline, the printed table
 * and the one-line summary. No I/O here (run.ts measures; test/report.test.ts checks the arithmetic).
 */
import { median } from './webReport';

export type TargetKey =
  | 'baseline'
  | 'subgraph'
  | 'gatewayGraphql'
  | 'gatewayRest'
  // GET /api/user again, measured in turn with the journal's targets it is their reference for
  | 'gatewayRestBesideAnalytics'
  | 'gatewayRestBesideRecent'
  | 'gatewayRestBesideCheckIn'
  // the quote service through the REST facade
  | 'quoteGenerate'
  | 'quoteAnalytics'
  | 'quoteRecent'
  | 'quoteAnalytics10k'
  | 'quoteRecent10k'
  // sealing on and off (tools/bench/sealing.ts)
  | 'sealingRecent'
  | 'sealingJournal'
  | 'sealingCheckIn';

export interface Measurement {
  key: TargetKey;
  label: string;
  method: 'GET' | 'POST';
  url: string;
  durationS: number;
  connections: number;
  /** Completed requests per second, over autocannon's one-second samples. */
  requestsPerSec: { mean: number; stddev: number; min: number; max: number };
  totalRequests: number;
  /** From each 2xx response's own timing (sub-millisecond resolution). */
  latencyMs: LatencySummary;
  statusCodes: Record<string, number>;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  /** 2xx responses whose body was not the signed-in user (e.g. `"me": null`). */
  wrongBodies: number;
  /** When the target was measured in rounds beside others: its p99 in each round, in order. */
  p99ByRoundMs?: number[];
}

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface Row extends Measurement {
  /** requests/s of this target ÷ requests/s of the baseline (1 = as fast as the bare server). */
  rpsRatio: number;
  /** p50 latency of this target ÷ p50 latency of the baseline (1 = as quick as the bare server). */
  p50Ratio: number;
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarizeLatencies(samplesMs: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samplesMs).sort();
  const values = Array.from(sorted);
  const total = values.reduce((sum, value) => sum + value, 0);
  return {
    count: values.length,
    mean: values.length ? total / values.length : Number.NaN,
    p50: percentile(values, 50),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    max: values.length ? values[values.length - 1]! : Number.NaN,
  };
}

/** Failures other than a non-2xx status: connection errors, timeouts, 2xx with the wrong body. */
export function errorsOf(measurement: Measurement): number {
  return measurement.errors + measurement.wrongBodies;
}

/** Responses that make a target's figures untrustworthy (each counted once). */
export function problemsOf(measurement: Measurement): number {
  return measurement.non2xx + errorsOf(measurement);
}

export function withRatios(measurements: readonly Measurement[]): Row[] {
  const baseline = measurements.find((measurement) => measurement.key === 'baseline');
  if (!baseline) throw new Error('no baseline measurement');
  return measurements.map((measurement) => ({
    ...measurement,
    rpsRatio: measurement.requestsPerSec.mean / baseline.requestsPerSec.mean,
    p50Ratio: measurement.latencyMs.p50 / baseline.latencyMs.p50,
  }));
}

/** 0.084 → "0.084", 1.5 → "1.50", 12.34 → "12.3". */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return 'n/a';
  if (ratio >= 10) return ratio.toFixed(1);
  if (ratio >= 1) return ratio.toFixed(2);
  return ratio.toPrecision(2);
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

export function formatTable(rows: readonly Row[]): string {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'req/s ÷ base', 'p50 ÷ base', 'non-2xx', 'errors'];
  const body = rows.map((row) => [
    row.label,
    row.requestsPerSec.mean.toFixed(0),
    formatMs(row.latencyMs.p50),
    formatMs(row.latencyMs.p99),
    `${formatRatio(row.rpsRatio)}×`,
    `${formatRatio(row.p50Ratio)}×`,
    String(row.non2xx),
    String(errorsOf(row)),
  ]);
  return formatColumns(header, body);
}

/** Columns as wide as their widest cell, the first aligned left and the others right, a rule under the header. */
export function formatColumns(header: readonly string[], body: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n');
}

/** One line: what the gateway costs, relative to the subgraph behind it and to the bare server. */
export function summaryLine(rows: readonly Row[]): string {
  const row = (key: TargetKey) => rows.find((candidate) => candidate.key === key);
  const subgraph = row('subgraph');
  const graphql = row('gatewayGraphql');
  const rest = row('gatewayRest');
  if (!subgraph || !graphql || !rest) return 'Summary: not all targets were measured.';
  const ofSubgraph = (target: Row) => formatRatio(target.requestsPerSec.mean / subgraph.requestsPerSec.mean);
  return (
    `Summary: the user subgraph alone serves ${formatRatio(subgraph.rpsRatio)}× the bare server's requests/s; ` +
    `through the gateway, /graphql serves ${ofSubgraph(graphql)}× and /api/user ${ofSubgraph(rest)}× the subgraph's ` +
    `(${formatRatio(graphql.rpsRatio)}× and ${formatRatio(rest.rpsRatio)}× the baseline; ` +
    `p50 ${formatRatio(graphql.p50Ratio)}× and ${formatRatio(rest.p50Ratio)}× the baseline's).`
  );
}

/** One of the journal's figures: a p99 as a ratio to another target's p99 in the same run, and its bound. */
export interface JournalFigure {
  figure: string;
  ratio: number;
  bound: number;
  holds: boolean;
}

/**
 * The journal's bounds, each a p99 against a p99 of the same run: a check-in against the plain authenticated read
 * (`GET /api/user`), the history reads at 1,000 check-ins against it too, and at 10,000 against their own figure
 * at 1,000 (a long history costs no more than a shorter one). Each reference is the read measured in turn with its
 * targets, so a change in the machine's speed during the run weighs on both sides of the ratio.
 */
const journalBounds: ReadonlyArray<{ figure: string; key: TargetKey; against: TargetKey; bound: number }> = [
  { figure: 'check-in p99 ÷ GET /api/user p99', key: 'quoteGenerate', against: 'gatewayRestBesideCheckIn', bound: 3 },
  {
    figure: 'analytics (1,000) p99 ÷ GET /api/user p99',
    key: 'quoteAnalytics',
    against: 'gatewayRestBesideAnalytics',
    bound: 1.5,
  },
  {
    figure: 'recent quotes (1,000) p99 ÷ GET /api/user p99',
    key: 'quoteRecent',
    against: 'gatewayRestBesideRecent',
    bound: 1.5,
  },
  { figure: 'analytics p99, 10,000 ÷ 1,000', key: 'quoteAnalytics10k', against: 'quoteAnalytics', bound: 1.2 },
  { figure: 'recent quotes p99, 10,000 ÷ 1,000', key: 'quoteRecent10k', against: 'quoteRecent', bound: 1.2 },
];

/** The journal's figures that both targets of were measured (a figure holds only when its target had no errors). */
export function journalFigures(measurements: readonly Measurement[]): JournalFigure[] {
  const byKey = (key: TargetKey) => measurements.find((measurement) => measurement.key === key);
  return journalBounds.flatMap(({ figure, key, against, bound }) => {
    const target = byKey(key);
    const reference = byKey(against);
    if (!target || !reference) return [];
    const ratio = p99Ratio(target, reference);
    return [{ figure, ratio, bound, holds: ratio <= bound && problemsOf(target) === 0 }];
  });
}

/**
 * A target's p99 over its reference's. Measured side by side in three rounds or more, it is the median of the
 * rounds' ratios: a moment of the machine's own work that lands on one target in one round (a collection pause, a
 * broker's housekeeping) moves that round's ratio alone, where it would move the p99 of all the rounds pooled.
 */
export function p99Ratio(target: Measurement, reference: Measurement): number {
  const targetRounds = target.p99ByRoundMs ?? [];
  const referenceRounds = reference.p99ByRoundMs ?? [];
  if (targetRounds.length < 3 || targetRounds.length !== referenceRounds.length) {
    return target.latencyMs.p99 / reference.latencyMs.p99;
  }
  return median(targetRounds.map((p99, round) => p99 / referenceRounds[round]!));
}

export function formatJournalFigures(figures: readonly JournalFigure[]): string {
  const body = figures.map((figure) => [
    figure.figure,
    `${formatRatio(figure.ratio)}×`,
    `≤ ${formatRatio(figure.bound)}×`,
    figure.holds ? 'within' : 'OVER',
  ]);
  return `The journal's figures:\n${formatColumns(['figure', 'ratio', 'bound', ''], body)}`;
}
