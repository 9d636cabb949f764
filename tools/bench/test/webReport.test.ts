import { formatWebResult, median, type WebBenchResult } from '../webReport';

describe('web bench report', () => {
  it('takes the median of three runs', () => {
    expect(median([90, 97, 95])).toBe(95);
    expect(median([1, 2, 3, 4])).toBe(2.5);
  });

  it('prints the landing JavaScript against its budget and the Lighthouse medians', () => {
    const result: WebBenchResult = {
      landingJs: {
        files: [{ path: '/assets/react.js', bytes: 318_660, gzipBytes: 101_740 }],
        totalGzipBytes: 152_000,
        budgetBytes: 170_000,
      },
      lighthouse: [
        {
          path: '/faq',
          runs: [],
          median: { performance: 93, accessibility: 100, bestPractices: 100, seo: 100 },
        },
      ],
    };
    const text = formatWebResult(result);
    expect(text).toContain('Landing page JavaScript: 152.0 kB gzipped in 1 files (budget 170.0 kB: within)');
    expect(text).toContain('/faq   93 / 100 / 100 / 100');
    expect(text).toContain('performance below 95');
  });
});
