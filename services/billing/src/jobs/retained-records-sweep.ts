/**
 * What billing keeps after an account is erased leaves once past its period (domain/retention.ts): the retained
 * billing record (model/retained-record.ts) once the law no longer asks for it, and a trial claim
 * (model/trial-claim.ts) three years after it was made. A daily pass, by one replica at a time (its lease), by the
 * wall clock that wrote the records. A delete is safe to repeat.
 */
import { runPeriodically, type Logger, type PeriodicWork } from '@haven/platform';
import type { Model } from 'mongoose';
import { retainedRecordsCutoff, trialClaimsCutoff } from '../domain/retention';
import type { RetainedBillingRecord } from '../model/retained-record';
import type { TrialClaimRecord } from '../model/trial-claim';

export const retainedRecordsSweepIntervalMs = 24 * 60 * 60 * 1000;

export interface KeptRecords {
  retained: Model<RetainedBillingRecord>;
  trialClaims: Model<TrialClaimRecord>;
}

/** Deletes the retained records of accounts closed before the period; says how many went. */
export async function sweepRetainedRecords(
  retained: Model<RetainedBillingRecord>,
  now: Date = new Date(),
): Promise<number> {
  return (await retained.deleteMany({ closedAt: { $lt: retainedRecordsCutoff(now) } })).deletedCount;
}

/** Deletes the trial claims made before the period; says how many went. */
export async function sweepTrialClaims(trialClaims: Model<TrialClaimRecord>, now: Date = new Date()): Promise<number> {
  return (await trialClaims.deleteMany({ claimedAt: { $lt: trialClaimsCutoff(now) } })).deletedCount;
}

export function startRetainedRecordsSweep(
  records: KeptRecords,
  log: Logger,
): PeriodicWork<{ retainedRecords: number; trialClaims: number }> {
  return runPeriodically(
    async () => {
      const swept = {
        retainedRecords: await sweepRetainedRecords(records.retained),
        trialClaims: await sweepTrialClaims(records.trialClaims),
      };
      if (swept.retainedRecords + swept.trialClaims > 0) {
        log.info(swept, 'retained billing records and trial claims past their period deleted');
      }
      return swept;
    },
    {
      intervalMs: retainedRecordsSweepIntervalMs,
      log,
      what: 'retained billing records and trial claims sweep',
      lease: { db: records.retained.db, name: 'retained-records-sweep' },
    },
  );
}
