/** The web bench's figures (web.ts) as text, and the median; pure. */

/** The landing route's JavaScript budget: 170 kB gzipped, kB as Vite counts them. */
export const LANDING_JS_BUDGET_BYTES = 170_000;
export const LIGHTHOUSE_TARGETS = { performance: 95, accessibility: 100 } as const;

export interface LighthouseScores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
}

export interface WebBenchResult {
  landingJs: {
    files: Array<{ path: string; bytes: number; gzipBytes: number }>;
    totalGzipBytes: number;
    budgetBytes: number;
  };
  lighthouse: Array<{ path: string; runs: LighthouseScores[]; median: LighthouseScores }>;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export function formatWebResult(result: WebBenchResult): string {
  const { landingJs } = result;
  const within = landingJs.totalGzipBytes <= landingJs.budgetBytes;
  const lines = [
    `Landing page JavaScript: ${kB(landingJs.totalGzipBytes)} gzipped in ${landingJs.files.length} files ` +
      `(budget ${kB(landingJs.budgetBytes)}: ${within ? 'within' : 'OVER'})`,
    ...landingJs.files.map(
      (file) => `  ${file.path.padEnd(40)} ${kB(file.gzipBytes).padStart(9)} (${kB(file.bytes)} raw)`,
    ),
    '',
    'Lighthouse, phone profile, median of runs: performance / accessibility / best practices / SEO',
  ];
  for (const page of result.lighthouse) {
    const m = page.median;
    const misses = [
      m.performance < LIGHTHOUSE_TARGETS.performance ? `performance below ${LIGHTHOUSE_TARGETS.performance}` : null,
      m.accessibility < LIGHTHOUSE_TARGETS.accessibility
        ? `accessibility below ${LIGHTHOUSE_TARGETS.accessibility}`
        : null,
    ].filter(Boolean);
    lines.push(
      `  ${page.path.padEnd(6)} ${m.performance} / ${m.accessibility} / ${m.bestPractices} / ${m.seo}` +
        `  (runs: ${page.runs.map((run) => run.performance).join(', ')})${misses.length ? `  — ${misses.join(', ')}` : ''}`,
    );
  }
  return lines.join('\n');
}
