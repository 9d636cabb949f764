/** Fixed-window counters in memory: enough for one gateway replica (see docs/decisions.md). */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; returns the seconds to wait when over the limit, else null. */
  hit(key: string): number | null {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 10_000) this.sweep(now);
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
      return null;
    }
    window.count += 1;
    return window.count > this.max ? Math.ceil((window.resetAt - now) / 1000) : null;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
