/**
 * What has expired leaves the database: sessions past `expiresAt` (already refused on every request, so nobody
 * notices their going) and federated sign-ins abandoned before the provider's callback. Every replica sweeps;
 * a delete is safe to repeat.
 */
import { runPeriodically, type Logger, type PeriodicWork } from '@haven/platform';
import type { Model } from 'mongoose';
import type { SessionRecord } from '../model/session';
import type { SignInFlowRecord } from '../model/sign-in-flow';

/** How often a replica sweeps: expired records linger at most this long. */
export const expirySweepIntervalMs = 10 * 60 * 1000;

export interface ExpiringRecords {
  sessions: Model<SessionRecord>;
  flows: Model<SignInFlowRecord>;
}

/** Deletes the sessions and sign-in flows expired at `now`; says how many of each went. */
export async function sweepExpired(
  records: ExpiringRecords,
  now: Date = new Date(),
): Promise<{ sessions: number; flows: number }> {
  const [sessions, flows] = await Promise.all([
    records.sessions.deleteMany({ expiresAt: { $lte: now } }),
    records.flows.deleteMany({ expiresAt: { $lte: now } }),
  ]);
  return { sessions: sessions.deletedCount, flows: flows.deletedCount };
}

export function startExpirySweep(records: ExpiringRecords, log: Logger): PeriodicWork<unknown> {
  return runPeriodically(() => sweepExpired(records), {
    intervalMs: expirySweepIntervalMs,
    log,
    what: 'expired sessions and sign-ins sweep',
    lease: { db: records.sessions.db, name: 'expiry-sweep' },
  });
}
