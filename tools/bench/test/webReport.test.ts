import {
  alignColumns,
  formatWebResult,
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

  it('prints the landing JavaScript against its budget and one row per page, naming missed targets', () => {
    const result: WebBenchResult = {
      landingJs: {
        files: [{ path: '/assets/react.js', bytes: 318_660, gzipBytes: 101_740 }],
        totalGzipBytes: 152_000,
        budgetBytes: 170_000,
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
      lighthouseStage: { seconds: 301.6, loadBefore: 1.24, loadAfter: 2.5 },
    };
    const lines = formatWebResult(result).split('\n');
    expect(lines).toContain('Landing page JavaScript: 152.0 kB gzipped in 1 files (budget 170.0 kB: within)');
    expect(lines).toContain(
      'Lighthouse, phone profile, the median of each column over the runs (3 runs in 302 s, load average 1.2 → 2.5; ' +
        'kB transferred, 1 kB = 1000 bytes):',
    );
    const table = lines.slice(
      lines.indexOf('  page      perf  a11y  best practices  SEO  LCP ms  TBT ms    CLS      kB'),
    );
    expect(table.slice(0, 8)).toEqual([
      '  page      perf  a11y  best practices  SEO  LCP ms  TBT ms    CLS      kB',
      '  /           98   100             100  100    1235       0  0.001   251.2',
      '  /privacy    93    96             100  100    3010     155  0.250  1234.6',
      '  /help        ?   100             100  100       ?      20  0.000   200.0',
      'Below target:',
      '  /privacy: performance 93 < 95, accessibility 96 < 100',
      'Runs without some figures (left out of those medians):',
      '  /help run 2: NO_LCP',
    ]);
  });
});
