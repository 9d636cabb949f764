/** The web bench's figures (web.ts) as text, and the medians; pure. */

/** Lighthouse's scores each public page is to reach (a miss is printed, never failed on). */
export const LIGHTHOUSE_TARGETS = { performance: 95, accessibility: 100, bestPractices: 100, seo: 100 } as const;
const targetNames: Record<keyof typeof LIGHTHOUSE_TARGETS, string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  bestPractices: 'best practices',
  seo: 'SEO',
};

/** Lighthouse's four category scores, 0–100; NaN when a run has no score. */
export interface LighthouseScores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
}

/** The metrics behind the performance score and the page's weight; NaN when a run did not measure one. */
export interface LighthouseMetrics {
  /** largest-contentful-paint, ms */
  lcpMs: number;
  /** total-blocking-time, ms */
  tbtMs: number;
  /** cumulative-layout-shift, unitless */
  cls: number;
  /** total-byte-weight: every response's transferred bytes (compressed as sent) */
  transferBytes: number;
}

/** One Lighthouse run of one page. */
export type LighthouseRun = LighthouseScores & LighthouseMetrics;

export interface WebBenchResult {
  landingJs: {
    /** Each script, gzipped at the build's level; `beforeUsable` when the build's budget counts it. */
    files: Array<{ path: string; bytes: number; gzipBytes: number; beforeUsable: boolean }>;
    /** The scripts the budget counts: the page's HTML's and their static imports. */
    beforeUsableGzipBytes: number;
    /** Every script, those the page loaded afterwards too. */
    totalGzipBytes: number;
    budgetBytes: number;
  };
  lighthouse: Array<{
    path: string;
    runs: LighthouseRun[];
    median: LighthouseRun;
    /** Runs that lack a figure, and why, e.g. `run 2: NO_NAVSTART` (Lighthouse's error code or message). */
    problems: string[];
  }>;
  /** Wall time of all the Lighthouse runs, and the load average (1 min) before and after: scores move with it. */
  lighthouseStage: { seconds: number; loadBefore: number; loadAfter: number };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const runKeys = [
  'performance',
  'accessibility',
  'bestPractices',
  'seo',
  'lcpMs',
  'tbtMs',
  'cls',
  'transferBytes',
] as const satisfies ReadonlyArray<keyof LighthouseRun>;

/**
 * Each score and metric's median over the runs, each taken on its own: the result need not be one of the runs
 * (the median LCP may come from another run than the median TBT). A run that did not measure a metric (NaN) is
 * left out of that metric's median.
 */
export function medianRun(runs: readonly LighthouseRun[]): LighthouseRun {
  const entries = runKeys.map((key) => [key, median(runs.map((run) => run[key]).filter(Number.isFinite))]);
  return Object.fromEntries(entries) as LighthouseRun;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** Rows of cells as columns padded to their widest cell; the first column left-aligned, the rest right-aligned. */
export function alignColumns(rows: ReadonlyArray<readonly string[]>): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd(),
  );
}

const shown = (value: number, format: (v: number) => string) => (Number.isFinite(value) ? format(value) : '?');

export function formatLighthouseTable(pages: WebBenchResult['lighthouse']): string[] {
  const header = ['page', 'perf', 'a11y', 'best practices', 'SEO', 'LCP ms', 'TBT ms', 'CLS', 'kB'];
  const rows = pages.map(({ path, median: m }) => [
    path,
    shown(m.performance, String),
    shown(m.accessibility, String),
    shown(m.bestPractices, String),
    shown(m.seo, String),
    shown(m.lcpMs, (v) => Math.round(v).toString()),
    shown(m.tbtMs, (v) => Math.round(v).toString()),
    shown(m.cls, (v) => v.toFixed(3)),
    shown(m.transferBytes, (v) => (v / 1000).toFixed(1)),
  ]);
  return alignColumns([header, ...rows]);
}

function targetMisses(page: WebBenchResult['lighthouse'][number]): string[] {
  const m = page.median;
  return (Object.keys(LIGHTHOUSE_TARGETS) as Array<keyof typeof LIGHTHOUSE_TARGETS>)
    .filter((key) => m[key] < LIGHTHOUSE_TARGETS[key])
    .map((key) => `${targetNames[key]} ${m[key]} < ${LIGHTHOUSE_TARGETS[key]}`);
}

export function formatWebResult(result: WebBenchResult): string {
  const { landingJs, lighthouse, lighthouseStage: stage } = result;
  const within = landingJs.beforeUsableGzipBytes <= landingJs.budgetBytes;
  const beforeUsable = landingJs.files.filter((file) => file.beforeUsable);
  const later = landingJs.files.filter((file) => !file.beforeUsable);
  const fileLine = (file: WebBenchResult['landingJs']['files'][number]) =>
    `  ${file.path.padEnd(40)} ${kB(file.gzipBytes).padStart(9)} (${kB(file.bytes)} raw)`;
  const runs = lighthouse.reduce((sum, page) => sum + page.runs.length, 0);
  const lines = [
    `Landing page JavaScript before it is usable: ${kB(landingJs.beforeUsableGzipBytes)} gzipped in ` +
      `${beforeUsable.length} files (the build's budget ${kB(landingJs.budgetBytes)}: ${within ? 'within' : 'OVER'})`,
    ...beforeUsable.map(fileLine),
    ...(later.length
      ? [
          `Loaded by the page afterwards, until the network was idle: ${kB(landingJs.totalGzipBytes - landingJs.beforeUsableGzipBytes)} ` +
            `in ${later.length} files (${kB(landingJs.totalGzipBytes)} in all)`,
          ...later.map(fileLine),
        ]
      : []),
    '',
    `Lighthouse, phone profile, the median of each column over the runs ` +
      `(${runs} runs in ${Math.round(stage.seconds)} s, load average ${stage.loadBefore.toFixed(1)} → ${stage.loadAfter.toFixed(1)}; ` +
      `kB transferred, 1 kB = 1000 bytes):`,
    ...formatLighthouseTable(lighthouse).map((line) => `  ${line}`),
  ];
  // A report: a target missed is named, never failed on (scores on a shared machine move with its load).
  const misses = lighthouse.flatMap((page) => {
    const missed = targetMisses(page);
    return missed.length ? [`  ${page.path}: ${missed.join(', ')}`] : [];
  });
  if (misses.length) lines.push('Below target:', ...misses);
  const problems = lighthouse.flatMap((page) => page.problems.map((problem) => `  ${page.path} ${problem}`));
  if (problems.length) lines.push('Runs without some figures (left out of those medians):', ...problems);
  return lines.join('\n');
}
