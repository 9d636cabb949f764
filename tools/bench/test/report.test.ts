/** The benchmark's arithmetic and formatting, on made-up figures (no timing is measured or asserted). */
import {
  formatJournalFigures,
  formatRatio,
  formatTable,
  journalFigures,
  p99Ratio,
  percentile,
  problemsOf,
  summarizeLatencies,
  summaryLine,
  withRatios,
  type Measurement,
  type TargetKey,
} from '../report';

function measurement(key: TargetKey, rps: number, p50: number, problems: Partial<Measurement> = {}): Measurement {
  return {
    key,
    label: key,
    method: 'GET',
    url: `http://127.0.0.1/${key}`,
    durationS: 10,
    connections: 10,
    requestsPerSec: { mean: rps, stddev: 0, min: rps, max: rps },
    totalRequests: rps * 10,
    latencyMs: { count: rps * 10, mean: p50, p50, p90: p50, p99: p50 * 2, max: p50 * 3 },
    statusCodes: { '200': rps * 10 },
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    wrongBodies: 0,
    ...problems,
  };
}

describe('percentile', () => {
  it('is the nearest rank of an ascending list', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 90)).toBe(9);
    expect(percentile(values, 99)).toBe(10);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });

  it('summarizes unsorted samples numerically, not as text', () => {
    const summary = summarizeLatencies([10, 9, 100, 2]);
    expect(summary).toMatchObject({ count: 4, p50: 9, max: 100, mean: 30.25 });
  });
});

describe('ratios to the baseline', () => {
  const rows = withRatios([
    measurement('baseline', 10_000, 0.5),
    measurement('subgraph', 1_000, 5),
    measurement('gatewayGraphql', 500, 10),
    measurement('gatewayRest', 400, 12.5),
  ]);

  it('divides requests/s and p50 by the baseline measured in the same run', () => {
    expect(rows.map((row) => [row.key, row.rpsRatio, row.p50Ratio])).toEqual([
      ['baseline', 1, 1],
      ['subgraph', 0.1, 10],
      ['gatewayGraphql', 0.05, 20],
      ['gatewayRest', 0.04, 25],
    ]);
  });

  it('needs a baseline', () => {
    expect(() => withRatios([measurement('subgraph', 1, 1)])).toThrow('no baseline');
  });

  it('prints one aligned row per target, and a summary relative to the subgraph', () => {
    const lines = formatTable(rows).split('\n');
    expect(lines).toHaveLength(6);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    expect(lines[5]).toMatch(/^gatewayRest\s+400\s+12\.5\s+25\.0\s+0\.040×\s+25\.0×\s+0\s+0$/);
    expect(summaryLine(rows)).toContain('/graphql serves 0.50× and /api/user 0.40× the subgraph');
  });
});

describe('problems', () => {
  it('counts non-2xx, connection errors and wrong bodies', () => {
    expect(problemsOf(measurement('subgraph', 1, 1, { non2xx: 2, errors: 3, timeouts: 1, wrongBodies: 4 }))).toBe(9);
  });

  it('formats ratios with enough digits to tell small ones apart', () => {
    expect([0.0084, 0.5, 1, 1.234, 12.34, Number.NaN].map(formatRatio)).toEqual([
      '0.0084',
      '0.50',
      '1.00',
      '1.23',
      '12.3',
      'n/a',
    ]);
  });
});

describe("the journal's figures", () => {
  // p99 is twice the p50 given here.
  // Each reference differs, and the read measured apart from the journal's targets is far quicker than any of them:
  // a figure divides by the reference measured beside its own target.
  const measured = [
    measurement('gatewayRest', 100, 10),
    measurement('gatewayRestBesideCheckIn', 100, 50),
    measurement('gatewayRestBesideAnalytics', 100, 50),
    measurement('gatewayRestBesideRecent', 100, 60),
    measurement('quoteGenerate', 50, 140),
    measurement('quoteAnalytics', 80, 80),
    measurement('quoteRecent', 90, 60),
    measurement('quoteAnalytics10k', 80, 100),
    measurement('quoteRecent10k', 90, 66),
  ];

  it('divides each p99 by the p99 of the reference measured beside it and compares it with its bound', () => {
    expect(journalFigures(measured).map(({ figure, ratio, holds }) => [figure, ratio, holds])).toEqual([
      ['check-in p99 ÷ GET /api/user p99', 2.8, true],
      ['analytics (1,000) p99 ÷ GET /api/user p99', 1.6, false],
      ['recent quotes (1,000) p99 ÷ GET /api/user p99', 1, true],
      ['analytics p99, 10,000 ÷ 1,000', 1.25, false],
      ['recent quotes p99, 10,000 ÷ 1,000', expect.closeTo(1.1, 10), true],
    ]);
  });

  it('does not let a figure hold when its target answered errors, and leaves out what was not measured', () => {
    const withErrors = measured.map((each) => (each.key === 'quoteGenerate' ? { ...each, non2xx: 1 } : each));
    expect(journalFigures(withErrors)[0]).toMatchObject({ ratio: 2.8, holds: false });
    expect(journalFigures(measured.filter((each) => each.key !== 'quoteAnalytics')).map((each) => each.figure)).toEqual(
      [
        'check-in p99 ÷ GET /api/user p99',
        'recent quotes (1,000) p99 ÷ GET /api/user p99',
        'recent quotes p99, 10,000 ÷ 1,000',
      ],
    );
  });

  it('prints each figure with its bound and whether it holds', () => {
    const lines = formatJournalFigures(journalFigures(measured)).split('\n');
    expect(lines[0]).toBe("The journal's figures:");
    expect(lines[3]).toMatch(/^check-in p99 ÷ GET \/api\/user p99\s+2\.80×\s+≤ 3\.00×\s+within$/);
    expect(lines[4]).toMatch(/OVER$/);
  });

  it("takes the median of the rounds' ratios when the targets were measured in three rounds or more", () => {
    // One pause landed on the target in its second round: pooled, its p99 is the pause; by rounds, one ratio of three.
    const target = { ...measurement('quoteAnalytics', 80, 200), p99ByRoundMs: [120, 400, 130] };
    const reference = { ...measurement('gatewayRestBesideAnalytics', 100, 50), p99ByRoundMs: [100, 100, 100] };
    expect(p99Ratio(target, reference)).toBeCloseTo(1.3, 10);
    expect(journalFigures([target, reference])).toEqual([
      expect.objectContaining({ figure: 'analytics (1,000) p99 ÷ GET /api/user p99', holds: true }),
    ]);
  });

  it('divides the p99s pooled over all rounds when there are fewer than three or the two differ in rounds', () => {
    const target = { ...measurement('quoteAnalytics', 80, 80), p99ByRoundMs: [150, 170] };
    const reference = { ...measurement('gatewayRestBesideAnalytics', 100, 50), p99ByRoundMs: [100, 100] };
    expect(p99Ratio(target, reference)).toBe(1.6);
    expect(p99Ratio({ ...target, p99ByRoundMs: [1, 1, 1] }, reference)).toBe(1.6);
  });
});
