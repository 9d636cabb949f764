import type { Connection } from 'mongoose';
import { createLease, type Lease } from './lease';
import type { Logger } from './logger';

export interface PeriodicWork<T> {
  /** Runs the work now, after any run under way (tests and an operator's nudge use it), lease or none. */
  runOnce(): Promise<T>;
  /** No new run starts; resolves once the run under way has ended, and lets the lease go. */
  stop(): Promise<void>;
}

export interface PeriodicOptions {
  intervalMs: number;
  log: Logger;
  what: string;
  /**
   * One replica at a time runs the timed passes: the one holding the lease `name` in `db` (lease.ts). It
   * renews the lease at each pass; the lease lasts two intervals and five seconds, so a replica that dies is
   * replaced by another within that time and one interval more.
   */
  lease?: { db: Connection; name: string };
}

/** How long a scheduled job's lease lasts without renewal: two passes may be missed, not a third. */
export const periodicLeaseMs = (intervalMs: number) => 2 * intervalMs + 5_000;

/**
 * Runs `work` every `intervalMs`, one run at a time: a run that outlasts the interval delays the next
 * instead of overlapping it. A failed run is logged as `what` and the next one goes ahead.
 */
export function runPeriodically<T>(work: () => Promise<T>, options: PeriodicOptions): PeriodicWork<T> {
  let running: Promise<unknown> = Promise.resolve();
  const lease: Lease | null = options.lease
    ? createLease(options.lease.db, options.lease.name, { ms: periodicLeaseMs(options.intervalMs) })
    : null;
  const timedRun = async () => {
    if (lease && !(await lease.hold())) return;
    await work();
  };
  const timer = setInterval(() => {
    running = running
      .then(timedRun)
      .catch((error: unknown) => options.log.warn({ err: error }, `${options.what} failed`));
  }, options.intervalMs);
  timer.unref();
  return {
    runOnce: () => {
      const result = running.then(work);
      running = result.catch(() => undefined);
      return result;
    },
    stop: async () => {
      clearInterval(timer);
      await running.catch(() => undefined);
      await lease?.release().catch(() => undefined);
    },
  };
}
