/**
 * A signed-out visitor's cookie choice leaves the database once its cookie can no longer be read
 * (domain/consent.ts): a daily pass, by one replica at a time (its lease). MongoDB's TTL index does the same; the
 * embedded development server ignores it. A delete is safe to repeat.
 */
import { runPeriodically, type Logger, type PeriodicWork } from '@haven/platform';
import type { Model } from 'mongoose';
import { visitorConsentsCutoff } from '../domain/consent';
import type { ConsentRecord } from '../model/consent';

export const visitorConsentSweepIntervalMs = 24 * 60 * 60 * 1000;

/** Deletes the visitors' choices last updated before the period; says how many went. */
export async function sweepVisitorConsents(
  visitorConsents: Model<ConsentRecord>,
  now: Date = new Date(),
): Promise<number> {
  return (await visitorConsents.deleteMany({ updatedAt: { $lt: visitorConsentsCutoff(now) } })).deletedCount;
}

export function startVisitorConsentSweep(visitorConsents: Model<ConsentRecord>, log: Logger): PeriodicWork<number> {
  return runPeriodically(
    async () => {
      const deleted = await sweepVisitorConsents(visitorConsents);
      if (deleted > 0) log.info({ deleted }, 'visitor cookie choices past their period deleted');
      return deleted;
    },
    {
      intervalMs: visitorConsentSweepIntervalMs,
      log,
      what: 'visitor cookie choices sweep',
      lease: { db: visitorConsents.db, name: 'visitor-consent-sweep' },
    },
  );
}
