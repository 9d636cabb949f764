/**
 * An erased account's retained billing record (model/retained-record.ts) leaves once the law no longer asks for
 * it (domain/retention.ts): a daily pass, by one replica at a time (its lease), by the wall clock the records were
 * closed by. A delete is safe to repeat.
 */
import { runPeriodically, type Logger, type PeriodicWork } from '@haven/platform';
import type { Model } from 'mongoose';
import { retainedRecordsCutoff } from '../domain/retention';
import type { RetainedBillingRecord } from '../model/retained-record';

export const retainedRecordsSweepIntervalMs = 24 * 60 * 60 * 1000;

/** Deletes the retained records of accounts closed before the period; says how many went. */
export async function sweepRetainedRecords(
  retained: Model<RetainedBillingRecord>,
  now: Date = new Date(),
): Promise<number> {
  return (await retained.deleteMany({ closedAt: { $lt: retainedRecordsCutoff(now) } })).deletedCount;
}

export function startRetainedRecordsSweep(retained: Model<RetainedBillingRecord>, log: Logger): PeriodicWork<number> {
  return runPeriodically(
    async () => {
      const deleted = await sweepRetainedRecords(retained);
      if (deleted > 0) log.info({ deleted }, 'retained billing records past their legal period deleted');
      return deleted;
    },
    {
      intervalMs: retainedRecordsSweepIntervalMs,
      log,
      what: 'retained billing records sweep',
      lease: { db: retained.db, name: 'retained-records-sweep' },
    },
  );
}
