import { RateLimiter } from '../src/rate-limit';

/** A clock the test moves by hand. */
function clock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('RateLimiter', () => {
  it('lets the allowed number of attempts through, then refuses', () => {
    const time = clock();
    const limiter = new RateLimiter(3, 60_000, time.now);
    expect([limiter.hit('ip'), limiter.hit('ip'), limiter.hit('ip')]).toEqual([null, null, null]);
    expect(limiter.hit('ip')).toBe(60);
  });

  it('says how many whole seconds are left in the window, rounded up', () => {
    const time = clock();
    const limiter = new RateLimiter(1, 60_000, time.now);
    limiter.hit('ip');
    time.advance(1_500);
    expect(limiter.hit('ip')).toBe(59); // 58.5 s left
    time.advance(58_000);
    expect(limiter.hit('ip')).toBe(1); // 0.5 s left: never "wait 0 seconds"
    time.advance(499);
    expect(limiter.hit('ip')).toBe(1); // 1 ms left
  });

  it('keeps refusing until the window ends, however often it is asked', () => {
    const time = clock();
    const limiter = new RateLimiter(2, 10_000, time.now);
    limiter.hit('ip');
    limiter.hit('ip');
    for (let i = 0; i < 20; i += 1) expect(limiter.hit('ip')).toBe(10);
  });

  it('counts each key on its own', () => {
    const time = clock();
    const limiter = new RateLimiter(1, 60_000, time.now);
    expect(limiter.hit('login:1.2.3.4')).toBeNull();
    expect(limiter.hit('login:1.2.3.4')).toBe(60);
    expect(limiter.hit('login:5.6.7.8')).toBeNull();
    expect(limiter.hit('register:1.2.3.4')).toBeNull();
  });

  it('starts a fresh window when the old one ends', () => {
    const time = clock();
    const limiter = new RateLimiter(2, 60_000, time.now);
    limiter.hit('ip');
    limiter.hit('ip');
    expect(limiter.hit('ip')).toBe(60);
    time.advance(59_999);
    expect(limiter.hit('ip')).toBe(1);
    time.advance(1);
    expect(limiter.hit('ip')).toBeNull();
    expect(limiter.hit('ip')).toBeNull();
    expect(limiter.hit('ip')).toBe(60);
  });

  it('does not let a flood of other keys reset a limited one', () => {
    const time = clock();
    const limiter = new RateLimiter(1, 60_000, time.now);
    limiter.hit('attacker');
    for (let i = 0; i < 10_050; i += 1) limiter.hit(`other-${i}`);
    expect(limiter.hit('attacker')).toBe(60);
    time.advance(60_000);
    for (let i = 0; i < 10; i += 1) limiter.hit(`later-${i}`);
    expect(limiter.hit('attacker')).toBeNull();
  });
});
