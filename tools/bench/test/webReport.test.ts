import {
  alignColumns,
  formatWebResult,
  LIGHTHOUSE_TARGETS,
  median,
  medianRun,
  type LighthouseRun,
  type WebBenchResult,
} from '../webReport';

const run = (overrides: Partial<LighthouseRun>): LighthouseRun => ({
  performance: 98,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  lcpMs: 1_500,
  tbtMs: 20,
  cls: 0,
  transferBytes: 200_000,
  ...overrides,
});

describe('web bench report', () => {
  it('takes the median of three runs', () => {
    expect(median([90, 97, 95])).toBe(95);
    expect(median([1, 2, 3, 4])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('takes each score and metric’s median on its own, leaving out runs that did not measure one', () => {
    const runs = [
      run({ performance: 90, lcpMs: 2_400, tbtMs: 10, cls: 0.02, transferBytes: 210_000 }),
      run({ performance: 97, lcpMs: 1_800, tbtMs: 250, cls: 0, transferBytes: 200_000 }),
      run({ performance: 95, lcpMs: Number.NaN, tbtMs: 40, cls: 0.1, transferBytes: 205_000 }),
    ];
    expect(medianRun(runs)).toEqual({
      performance: 95,
      accessibility: 100,
      bestPractices: 100,
      seo: 100,
      lcpMs: 2_100,
      tbtMs: 40,
      cls: 0.02,
      transferBytes: 205_000,
    });
    expect(medianRun([run({ cls: Number.NaN })]).cls).toBeNaN();
  });

  it('aligns columns: the first to the left, the others to the right', () => {
    expect(
      alignColumns([
        ['page', 'perf'],
        ['/privacy', '9'],
        ['/', '100'],
      ]),
    ).toEqual(['page      perf', '/privacy     9', '/          100']);
  });

  it('holds every public page to performance 95 and accessibility, best practices and SEO 100', () => {
    expect(LIGHTHOUSE_TARGETS).toEqual({ performance: 95, accessibility: 100, bestPractices: 100, seo: 100 });
  });

  const lighthouseStage = { seconds: 301.6, loadBefore: 1.24, loadAfter: 2.5 };

  it('prints the landing JavaScript the build counts against the build’s budget, and what loads later apart', () => {
    const result: WebBenchResult = {
      landingJs: {
        files: [
          { path: '/assets/index.js', bytes: 318_660, gzipBytes: 95_020, beforeUsable: true },
          { path: '/assets/CookieBanner.js', bytes: 9_000, gzipBytes: 3_100, beforeUsable: false },
        ],
        beforeUsableGzipBytes: 95_020,
        totalGzipBytes: 98_120,
        budgetBytes: 100_000,
      },
      lighthouse: [],
      lighthouseStage,
    };
    expect(formatWebResult(result).split('\n').slice(0, 4)).toEqual([
      "Landing page JavaScript before it is usable: 95.0 kB gzipped in 1 files (the build's budget 100.0 kB: within)",
      '  /assets/index.js                           95.0 kB (318.7 kB raw)',
      'Loaded by the page afterwards, until the network was idle: 3.1 kB in 1 files (98.1 kB in all)',
      '  /assets/CookieBanner.js                     3.1 kB (9.0 kB raw)',
    ]);
    // Over the budget only by what the build counts: the scripts loaded later do not count.
    const over = { ...result, landingJs: { ...result.landingJs, beforeUsableGzipBytes: 100_001 } };
    expect(formatWebResult(over).split('\n')[0]).toBe(
      "Landing page JavaScript before it is usable: 100.0 kB gzipped in 1 files (the build's budget 100.0 kB: OVER)",
    );
  });

  it('prints one row per page, naming each missed target', () => {
    const result: WebBenchResult = {
      landingJs: {
        files: [],
        beforeUsableGzipBytes: 0,
        totalGzipBytes: 0,
        budgetBytes: 100_000,
      },
      lighthouse: [
        {
          path: '/',
          runs: [run({}), run({}), run({})],
          problems: [],
          median: run({ lcpMs: 1_234.6, tbtMs: 0, cls: 0.0012, transferBytes: 251_234 }),
        },
        {
          path: '/privacy',
          runs: [],
          problems: [],
          median: run({
            performance: 93,
            accessibility: 96,
            bestPractices: 96,
            seo: 92,
            lcpMs: 3_010,
            tbtMs: 155.4,
            cls: 0.25,
            transferBytes: 1_234_567,
          }),
        },
        {
          path: '/help',
          runs: [],
          median: run({ performance: Number.NaN, lcpMs: Number.NaN }),
          problems: ['run 2: NO_LCP'],
        },
      ],
      lighthouseStage,
    };
    const lines = formatWebResult(result).split('\n');
    expect(lines).toContain(
      'Lighthouse, phone profile, the median of each column over the runs (3 runs in 302 s, load average 1.2 → 2.5; ' +
        'kB transferred, 1 kB = 1000 bytes):',
    );
    const table = lines.slice(
      lines.indexOf('  page      perf  a11y  best practices  SEO  LCP ms  TBT ms    CLS      kB'),
    );
    expect(table).toEqual([
      '  page      perf  a11y  best practices  SEO  LCP ms  TBT ms    CLS      kB',
      '  /           98   100             100  100    1235       0  0.001   251.2',
      '  /privacy    93    96              96   92    3010     155  0.250  1234.6',
      '  /help        ?   100             100  100       ?      20  0.000   200.0',
      'Below target:',
      '  /privacy: performance 93 < 95, accessibility 96 < 100, best practices 96 < 100, SEO 92 < 100',
      'Runs without some figures (left out of those medians):',
      '  /help run 2: NO_LCP',
    ]);
  });
});
