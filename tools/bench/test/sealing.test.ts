/** The sealing stage's arithmetic and formatting, on made-up figures (no timing is measured or asserted). */
import {
  formatSealingResult,
  sealingFigures,
  sealingPath,
  sealingProblems,
  type SealingBenchResult,
  type SealingRound,
} from '../sealing';

const round = (latenciesMs: number[], quoteCpuSeconds: number | null, problems: Partial<SealingRound> = {}) => ({
  latenciesMs,
  seconds: 1,
  quoteCpuSeconds,
  non2xx: 0,
  errors: 0,
  ...problems,
});

describe('sealingFigures', () => {
  it('pools the rounds: requests/s over their seconds, percentiles over every answer, CPU per answer', () => {
    const figures = sealingFigures([
      round([10, 20, 30], 0.03, { seconds: 3 }),
      round([40, 50, 60], 0.09, { seconds: 3, non2xx: 1, errors: 2 }),
    ]);
    expect(figures).toEqual({
      requests: 6,
      seconds: 6,
      requestsPerSec: 1,
      p50Ms: 30,
      p99Ms: 60,
      quoteCpuMsPerRequest: 20,
      non2xx: 1,
      errors: 2,
    });
  });

  it('gives no CPU figure when a round has none', () => {
    expect(sealingFigures([round([10], 0.01), round([10], null)]).quoteCpuMsPerRequest).toBeNull();
  });
});

describe('sealingPath and formatSealingResult', () => {
  const plain = sealingFigures([round([10, 10, 20, 20], 0.04)]);
  const sealed = sealingFigures([round([12, 12, 30], 0.045)]);
  const path = sealingPath('GET /api/quotes/recent?limit=30', sealed, plain);
  const result: SealingBenchResult = {
    seconds: 90,
    connections: 10,
    roundSeconds: 2,
    rounds: ['sealed', 'plain', 'plain', 'sealed'],
    historyCheckIns: 60,
    loadAverageBefore: [2, 2, 2],
    loadAverageAfter: [3, 2, 2],
    paths: [path],
  };

  it('divides the sealed figures by the plain ones', () => {
    expect(path.ratios).toEqual({ requestsPerSec: 0.75, p50: 1.2, p99: 1.5, quoteCpu: 1.5 });
  });

  it('prints a row per path with both sides and the ratios, and names problems', () => {
    const printed = formatSealingResult(result);
    expect(printed).toMatch(
      /GET \/api\/quotes\/recent\?limit=30 +3\.0 +4\.0 +0\.75× +12\.0 +10\.0 +1\.20× .* 1\.50×$/m,
    );
    expect(sealingProblems(result)).toEqual([]);
    const failing = { ...result, paths: [sealingPath('check-in', { ...sealed, non2xx: 2 }, plain)] };
    expect(sealingProblems(failing)).toEqual(['check-in (sealed): 2 non-2xx, 0 errors']);
    expect(formatSealingResult(failing)).toContain('! check-in (sealed): 2 non-2xx, 0 errors');
  });
});
