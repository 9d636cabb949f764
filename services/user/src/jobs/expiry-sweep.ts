/**
 * What has expired leaves the database: sessions past `expiresAt` (already refused on every request, so nobody
 * notices their going), federated sign-ins abandoned before the provider's callback, and an account's address
 * change or provider link whose link expired unused (each holds an address the account never confirmed). One
 * replica sweeps at a time (its lease); every write is safe to repeat.
 */
import { runPeriodically, type Logger, type PeriodicWork } from '@haven/platform';
import type { Model } from 'mongoose';
import type { SessionRecord } from '../model/session';
import type { SignInFlowRecord } from '../model/sign-in-flow';
import type { UserRecord } from '../model/user';

/** How often the sweep runs: expired records linger at most this long. */
export const expirySweepIntervalMs = 10 * 60 * 1000;

export interface ExpiringRecords {
  sessions: Model<SessionRecord>;
  flows: Model<SignInFlowRecord>;
  users: Model<UserRecord>;
}

export interface ExpirySweepOutcome {
  sessions: number;
  flows: number;
  /** Accounts whose expired `pendingEmail` went. */
  pendingEmails: number;
  /** Accounts whose expired `pendingLink` went. */
  pendingLinks: number;
}

/**
 * Deletes the sessions and sign-in flows expired at `now`, and clears the pending address changes and provider
 * links expired by then (their links are refused from that instant); says how many of each went. A newer pending
 * change or link has a later `expiresAt` and stays.
 */
export async function sweepExpired(records: ExpiringRecords, now: Date = new Date()): Promise<ExpirySweepOutcome> {
  const [sessions, flows, pendingEmails, pendingLinks] = await Promise.all([
    records.sessions.deleteMany({ expiresAt: { $lte: now } }),
    records.flows.deleteMany({ expiresAt: { $lte: now } }),
    records.users.updateMany({ 'pendingEmail.expiresAt': { $lte: now } }, { $unset: { pendingEmail: 1 } }),
    records.users.updateMany({ 'pendingLink.expiresAt': { $lte: now } }, { $unset: { pendingLink: 1 } }),
  ]);
  return {
    sessions: sessions.deletedCount,
    flows: flows.deletedCount,
    pendingEmails: pendingEmails.modifiedCount,
    pendingLinks: pendingLinks.modifiedCount,
  };
}

export function startExpirySweep(records: ExpiringRecords, log: Logger): PeriodicWork<unknown> {
  return runPeriodically(() => sweepExpired(records), {
    intervalMs: expirySweepIntervalMs,
    log,
    what: 'expired sessions, sign-ins and pending changes sweep',
    lease: { db: records.sessions.db, name: 'expiry-sweep' },
  });
}
