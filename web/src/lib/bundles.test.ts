import { BUNDLE_RELOADS_PER_MINUTE, reloadsWithOneMore } from './bundles';

describe('reloading for a bundle that failed to arrive', () => {
  const now = 1_800_000_000_000;

  it('allows the first reload and remembers when it happened', () => {
    expect(reloadsWithOneMore([], now)).toEqual([now]);
  });

  it(`allows ${BUNDLE_RELOADS_PER_MINUTE} reloads in a minute, then lets the error show`, () => {
    const first = reloadsWithOneMore([], now - 20_000) ?? [];
    const second = reloadsWithOneMore(first, now - 10_000);
    expect(second).toEqual([now - 20_000, now - 10_000]);
    expect(reloadsWithOneMore(second ?? [], now)).toBeNull();
  });

  it('forgets reloads older than a minute, and times from a wrong clock in the future', () => {
    expect(reloadsWithOneMore([now - 61_000, now - 60_000, now + 5_000], now)).toEqual([now]);
  });
});
