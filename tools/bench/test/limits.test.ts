import {
  aliasQuery,
  formatLimitsResult,
  graphqlBodyLimitBytes,
  largestQuery,
  limitsRow,
  repeatedQuery,
} from '../limits';

const bodyBytes = (query: string) => Buffer.byteLength(JSON.stringify({ query }));

describe('largestQuery', () => {
  it('fills the body limit: one more part would not fit', () => {
    expect(largestQuery(() => 'me{id}', 40)).toBe('{me{id}me{id}me{id}me{id}}');
    expect(bodyBytes('{me{id}me{id}me{id}me{id}}')).toBeLessThanOrEqual(40);
    expect(bodyBytes('{me{id}me{id}me{id}me{id}me{id}}')).toBeGreaterThan(40);
  });

  it('builds the repeated selection and the aliases within 100 kB', () => {
    for (const query of [repeatedQuery, aliasQuery]) {
      expect(bodyBytes(query)).toBeLessThanOrEqual(graphqlBodyLimitBytes);
      expect(bodyBytes(query)).toBeGreaterThan(graphqlBodyLimitBytes - 20);
    }
    expect(repeatedQuery.startsWith('{me{id}me{id}')).toBe(true);
    expect(aliasQuery.startsWith('{a0:me{id}a1:me{id}')).toBe(true);
  });
});

describe('limitsRow and formatLimitsResult', () => {
  const row = limitsRow(
    'gateway /graphql',
    { trivial: [4, 2, 3], repeated: [9, 6, 30], aliases: [3, 4, 5] },
    { trivial: [200, 200, 200], repeated: [400, 400, 400], aliases: [400, 400, 400] },
    { trivial: null, repeated: 'Query is too long: at most 15000 tokens allowed', aliases: 'Query is too long' },
  );

  it('takes each p50 and divides the hostile ones by the trivial one', () => {
    expect(row.p50Ms).toEqual({ trivial: 3, repeated: 9, aliases: 4 });
    expect(row.ratios).toEqual({ repeated: 3, aliases: 1.3 });
    expect(row.statuses).toEqual({ trivial: [200], repeated: [400], aliases: [400] });
  });

  it('prints one line per target and the refusals', () => {
    const text = formatLimitsResult({
      requests: 3,
      bodyBytes: { trivial: 25, repeated: 102_390, aliases: 102_395 },
      targets: [row],
    });
    expect(text.split('\n')).toEqual([
      'GraphQL limits: p50 of 3 sequential requests each; bodies: trivial 25 B, repeated selection 100.0 kB, aliases 100.0 kB',
      '  gateway /graphql: trivial 3 ms (200); repeated 9 ms = 3× (400); aliases 4 ms = 1.3× (400)',
      '    repeated: Query is too long: at most 15000 tokens allowed',
      '    aliases: Query is too long',
    ]);
  });
});
