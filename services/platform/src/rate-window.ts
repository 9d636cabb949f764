/**
 * The rate limit's decision, free of I/O: a sliding log. Each accepted attempt is remembered by its
 * time; an attempt of `cost` is accepted when the accepted attempts of the last `windowMs` plus `cost`
 * are at most `max`. So at most `max` attempts are ever accepted in ANY interval of length `windowMs`,
 * wherever it starts: there is no window boundary at which a burst gets twice the budget (as with fixed
 * windows), and no refill that lets one window's length hold up to twice `max` (as with a token bucket
 * or GCRA).
 *
 * Refused attempts are not remembered: they do not use the budget. A client that keeps hammering is
 * still refused every time the budget is spent, and gets exactly `max` attempts in any window, no more
 * and no fewer; its lockout does not grow with its hammering, which would otherwise let anyone who can
 * send from a client's address (a shared NAT) keep it locked out for ever.
 *
 * A hit at time `t` counts while `now - t < windowMs` and leaves the window at `t + windowMs`.
 */

export interface SlidingWindowInput {
  /** Times (ms) of the accepted attempts remembered so far, in any order; old ones are ignored. */
  hits: readonly number[];
  /** The time (ms) of this attempt. */
  now: number;
  /** How many attempts this one counts as (a request running a limited field twice costs 2); at least 1. */
  cost: number;
  /** Accepted attempts allowed in any interval of `windowMs`; at least 1. */
  max: number;
  /** The length (ms) of the interval; at least 1. */
  windowMs: number;
}

export interface SlidingWindowDecision {
  allowed: boolean;
  /**
   * The log to keep: the hits still in the window, newest first, with `cost` copies of `now` added
   * when the attempt is accepted (never more than `max` entries). Unchanged but pruned when refused.
   */
  hits: number[];
  /**
   * 0 when accepted. When refused, how long (ms, > 0) until an attempt of the same cost would be
   * accepted, if nothing else is accepted meanwhile: the time the hit that has to go leaves the window.
   * An attempt that costs more than `max` never fits; it is told a whole window.
   */
  retryAfterMs: number;
}

const positiveInteger = (name: string, value: number) => {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, not ${value}`);
};

/** Decides one attempt against a sliding log; see the module comment for the rule. */
export function decideSlidingWindow({ hits, now, cost, max, windowMs }: SlidingWindowInput): SlidingWindowDecision {
  positiveInteger('cost', cost);
  positiveInteger('max', max);
  positiveInteger('windowMs', windowMs);
  // Newest first, only those still in the window (a hit stamped ahead of `now` by another replica's
  // clock counts until it, too, leaves the window).
  const live = hits.filter((hit) => now - hit < windowMs).sort((a, b) => b - a);
  if (cost > max) return { allowed: false, hits: live, retryAfterMs: windowMs };
  // After this attempt at most `max` may be in the window, so the `max - cost + 1`-th newest hit (index
  // `max - cost`) must already have left it; until it leaves, the attempt is refused.
  const blocker = live[max - cost];
  if (blocker !== undefined) return { allowed: false, hits: live, retryAfterMs: blocker + windowMs - now };
  const added = Array<number>(cost).fill(now);
  return { allowed: true, hits: [...added, ...live].sort((a, b) => b - a).slice(0, max), retryAfterMs: 0 };
}
