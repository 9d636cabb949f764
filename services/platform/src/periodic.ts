import type { Logger } from './logger';

export interface PeriodicWork<T> {
  /** Runs the work now, after any run under way (tests and an operator's nudge use it). */
  runOnce(): Promise<T>;
  /** No new run starts; resolves once the run under way has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs`, one run at a time: a run that outlasts the interval delays the next
 * instead of overlapping it. A failed run is logged as `what` and the next one goes ahead.
 */
export function runPeriodically<T>(
  work: () => Promise<T>,
  options: { intervalMs: number; log: Logger; what: string },
): PeriodicWork<T> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(work).catch((error: unknown) => options.log.warn({ err: error }, `${options.what} failed`));
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
    },
  };
}
