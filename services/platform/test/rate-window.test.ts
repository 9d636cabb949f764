import { isDeepStrictEqual } from 'node:util';
import { decideSlidingWindow, type SlidingWindowDecision } from '../src/rate-window';

const second = 1_000;
const max = 10;
const windowMs = 60 * second;

/** A log driven by a controlled clock: what a store does, without the store. */
function limiter(limit = { max, windowMs }) {
  let hits: number[] = [];
  return {
    attempt(now: number, cost = 1): SlidingWindowDecision {
      const decision = decideSlidingWindow({ hits, now, cost, ...limit });
      hits = decision.hits;
      return decision;
    },
    get hits() {
      return hits;
    },
  };
}

describe('decideSlidingWindow', () => {
  it('gives no second budget at what used to be a fixed window’s boundary', () => {
    const log = limiter();
    for (let i = 0; i < max; i += 1) expect(log.attempt(59_900).allowed).toBe(true);
    // A fixed window would have started afresh at 60 s.
    const refused = log.attempt(60_100);
    expect(refused).toEqual({ allowed: false, hits: Array(max).fill(59_900), retryAfterMs: 59_800 });
    expect(log.attempt(90 * second).allowed).toBe(false);
    expect(log.attempt(119_900 - 1).allowed).toBe(false);
    // Exactly one window after them the ten leave together, and the budget is whole again.
    for (let i = 0; i < max; i += 1) expect(log.attempt(119_900).allowed).toBe(true);
    expect(log.attempt(119_900).allowed).toBe(false);
  });

  it('frees one slot each time the oldest accepted hit leaves the window', () => {
    const log = limiter({ max: 3, windowMs });
    log.attempt(0);
    log.attempt(10 * second);
    log.attempt(20 * second);
    expect(log.attempt(30 * second)).toMatchObject({ allowed: false, retryAfterMs: 30 * second });
    expect(log.attempt(60 * second - 1)).toMatchObject({ allowed: false, retryAfterMs: 1 });
    expect(log.attempt(60 * second)).toEqual({
      allowed: true,
      hits: [60 * second, 20 * second, 10 * second],
      retryAfterMs: 0,
    });
    expect(log.attempt(60 * second)).toMatchObject({ allowed: false, retryAfterMs: 10 * second });
  });

  it('does not count refused attempts: hammering neither uses the budget nor lengthens the wait', () => {
    const log = limiter({ max: 2, windowMs });
    log.attempt(0);
    log.attempt(0);
    for (let t = 1; t < windowMs; t += 997) {
      expect(log.attempt(t)).toMatchObject({ allowed: false, retryAfterMs: windowMs - t });
    }
    expect(log.hits).toEqual([0, 0]);
    expect(log.attempt(windowMs).allowed).toBe(true);
  });

  it('counts an attempt of cost n as n hits, and waits for n slots', () => {
    const log = limiter({ max: 5, windowMs });
    expect(log.attempt(0, 3).allowed).toBe(true);
    expect(log.attempt(1 * second, 1).allowed).toBe(true);
    expect(log.hits).toEqual([1 * second, 0, 0, 0]);
    // One slot is left; two are needed, and two free up only when all three hits at 0 have left.
    expect(log.attempt(2 * second, 2)).toMatchObject({ allowed: false, retryAfterMs: windowMs - 2 * second });
    expect(log.attempt(2 * second, 1).allowed).toBe(true);
    // At 60 s the three hits at 0 have left: three slots.
    expect(log.attempt(windowMs, 4)).toMatchObject({ allowed: false, retryAfterMs: 1 * second });
    expect(log.attempt(windowMs, 3)).toMatchObject({ allowed: true });
    expect(log.hits).toEqual([windowMs, windowMs, windowMs, 2 * second, 1 * second]);
  });

  it('refuses an attempt that costs more than the limit without storing it, at any time', () => {
    expect(decideSlidingWindow({ hits: [], now: 0, cost: max + 1, max, windowMs })).toEqual({
      allowed: false,
      hits: [],
      retryAfterMs: windowMs,
    });
    expect(decideSlidingWindow({ hits: [5, 1], now: 10, cost: 3, max: 2, windowMs })).toEqual({
      allowed: false,
      hits: [5, 1],
      retryAfterMs: windowMs,
    });
  });

  it('prunes hits that left the window and keeps the log newest first, at most max long', () => {
    // At 70 s a hit counts while it is later than 10 s: 10 s itself has just left.
    const hits = [1, 10_000, 70_000, 65_000, 10_001];
    const decision = decideSlidingWindow({ hits, now: 70_000, cost: 1, max: 4, windowMs });
    expect(decision).toEqual({ allowed: true, hits: [70_000, 70_000, 65_000, 10_001], retryAfterMs: 0 });
  });

  it('counts hits stamped ahead of this clock (another replica’s clock) as in the window', () => {
    const decision = decideSlidingWindow({ hits: [1_500, 1_200], now: 1_000, cost: 1, max: 2, windowMs });
    expect(decision).toEqual({ allowed: false, hits: [1_500, 1_200], retryAfterMs: 1_200 + windowMs - 1_000 });
  });

  it.each([
    ['cost', { cost: 0 }],
    ['cost', { cost: 1.5 }],
    ['max', { max: 0 }],
    ['windowMs', { windowMs: -1 }],
    ['windowMs', { windowMs: Number.NaN }],
  ])('refuses a %s that is not a positive integer', (name, wrong) => {
    expect(() => decideSlidingWindow({ hits: [], now: 0, cost: 1, max, windowMs, ...wrong })).toThrow(
      new RegExp(`^${name} must be a positive integer`),
    );
  });

  /**
   * The walks below check every step, about 100,000 checks in all, and jest's expect costs tens of
   * microseconds a call (seconds in all): each check is a plain comparison, and expect runs only to report one
   * that fails.
   */
  const check = {
    equal(actual: unknown, expected: unknown) {
      if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
    },
    atMost(actual: number, bound: number) {
      if (!(actual <= bound)) expect(actual).toBeLessThanOrEqual(bound);
    },
    atLeast(actual: number, bound: number) {
      if (!(actual >= bound)) expect(actual).toBeGreaterThanOrEqual(bound);
    },
    above(actual: number, bound: number) {
      if (!(actual > bound)) expect(actual).toBeGreaterThan(bound);
    },
  };

  /** mulberry32: a small seeded generator, so every run walks the same arrivals. */
  function random(seed: number) {
    let state = seed >>> 0;
    return () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it.each([
    { seed: 1, max: 10, windowMs: 60 * second },
    { seed: 7, max: 3, windowMs: 1 * second },
    { seed: 42, max: 1, windowMs: 500 },
  ])(
    'never accepts more than max in any interval of windowMs, and says exactly when to retry (seed $seed, max $max)',
    ({ seed, max, windowMs }) => {
      const next = random(seed);
      const log = limiter({ max, windowMs });
      const accepted: number[] = []; // every accepted hit ever, oldest first
      let now = 0;
      let refusals = 0;
      for (let step = 0; step < 5_000; step += 1) {
        // Bursts (several at one instant), clumps a few ms apart, and quiet gaps longer than the window;
        // now and then an attempt lands exactly when a hit leaves the window.
        const roll = next();
        if (roll < 0.3) now += 0;
        else if (roll < 0.85) now += Math.floor(next() * (windowMs / max));
        else if (roll < 0.95) now += Math.floor(next() * 2 * windowMs);
        else if (accepted.length > 0) now = Math.max(now, accepted[accepted.length - 1]! + windowMs);
        const cost = next() < 0.8 ? 1 : 1 + Math.floor(next() * (max + 1));

        const before = log.hits;
        const decision = log.attempt(now, cost);

        // The decision matches the rule computed from the whole history, not just the kept log.
        let first = accepted.length;
        while (first > 0 && now - accepted[first - 1]! < windowMs) first -= 1;
        const inWindow = accepted.slice(first);
        check.equal(decision.allowed, inWindow.length + cost <= max);
        check.atMost(log.hits.length, max);

        if (decision.allowed) {
          check.equal(decision.retryAfterMs, 0);
          for (let i = 0; i < cost; i += 1) accepted.push(now);
          continue;
        }
        refusals += 1;
        const stillInWindow = before.filter((hit) => now - hit < windowMs);
        check.equal(log.hits, stillInWindow); // nothing stored
        check.above(decision.retryAfterMs, 0);
        if (cost > max) continue;
        if (cost === 1) {
          // The wait for one slot is the oldest accepted hit leaving the window.
          check.equal(decision.retryAfterMs, inWindow[0]! + windowMs - now);
        }
        // Retry-After is exact: a moment sooner is still refused, then it is accepted.
        const probe = (at: number) => decideSlidingWindow({ hits: log.hits, now: at, cost, max, windowMs }).allowed;
        check.equal(probe(now + decision.retryAfterMs - 1), false);
        check.equal(probe(now + decision.retryAfterMs), true);
      }

      // In every interval [start, start + windowMs) at most max were accepted: it is enough to check the
      // intervals that start at an accepted hit.
      for (let i = 0; i + max < accepted.length; i += 1) {
        check.atLeast(accepted[i + max]! - accepted[i]!, windowMs);
      }
      // The walk exercised both answers.
      expect(refusals).toBeGreaterThan(100);
      expect(accepted.length).toBeGreaterThan(100);
    },
  );
});
