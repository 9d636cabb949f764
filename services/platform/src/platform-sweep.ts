/**
 * What the platform writes in every service's database, and in the gateway's, leaves it once past its period:
 * rate-limit logs whose window is over (MongoDB's TTL index deletes them too; the embedded server ignores TTL)
 * and processed-event ids older than the consumers' period, those of groups no consumer reads any more included.
 * One replica sweeps at a time (its lease); every delete is safe to repeat.
 */
import type { Connection } from 'mongoose';
import { sweepProcessedEvents } from './consumer';
import { sweepRateLimitLogs } from './limits';
import type { Logger } from './logger';
import { runPeriodically, type PeriodicWork } from './periodic';

/** How often the sweep runs: a dead record outlives its period by at most this. */
export const platformSweepIntervalMs = 60 * 60 * 1000;

/** One sweep at `now`; says how many of each went. */
export async function sweepPlatformRecords(
  connection: Connection,
  now: Date = new Date(),
): Promise<{ rateLimitLogs: number; processedEvents: number }> {
  const rateLimitLogs = await sweepRateLimitLogs(connection, now);
  const processedEvents = await sweepProcessedEvents(connection, now);
  return { rateLimitLogs, processedEvents };
}

/** Started by every service (service.ts) and by the gateway; stopped before their connection closes. */
export function startPlatformSweep(
  connection: Connection,
  log: Logger,
): PeriodicWork<{ rateLimitLogs: number; processedEvents: number }> {
  return runPeriodically(
    async () => {
      const swept = await sweepPlatformRecords(connection);
      if (swept.rateLimitLogs + swept.processedEvents > 0) {
        log.info(swept, 'rate-limit logs and processed-event ids past their period deleted');
      }
      return swept;
    },
    {
      intervalMs: platformSweepIntervalMs,
      log,
      what: 'platform records sweep',
      lease: { db: connection, name: 'platform-sweep' },
    },
  );
}
