import { topicOf, timestampDate, type EventType, type SubscriptionChange } from '@haven/proto';
import { Schema, type Connection } from 'mongoose';
import { entitlementOf, type DeniedReason, type Entitlement } from './access';
import type { CallerSecrets, SessionClaims } from './auth';
import type { ConsumerSpec, EventHandler } from './consumer';
import type { Logger } from './logger';
import { isDuplicateKeyError, recordById } from './mongo';
import { runPeriodically, type PeriodicWork } from './periodic';
import { EntitlementRecordsDocument, SubscriptionOfUserDocument } from './operations/billing.generated';
import { askSubgraph } from './subgraph-client';

/**
 * A service's own copy of who may use the paid features, kept from billing's subscription events (each
 * carries the user's access after it: event-carried state), so a paid operation costs one local read by
 * primary key instead of a call to billing. docs/decisions/subscription-and-billing/entitlement-copies.md.
 *
 * - Newest wins: a copy keeps the highest `revision`; a late or repeated event changes nothing.
 * - A grant is trusted until `validUntil` (the end of a cancelled trial or period; a day past a renewing one's,
 *   by when its renewal's event has come), then closes by itself, and a closed copy asks billing before it denies.
 * - A denial is confirmed with billing before it is answered (one synchronous call, only on that path): a
 *   user who just started a trial is never turned away because the event is still on its way, and a
 *   refusal, which signs the user out, always rests on billing's own record.
 * - A reconciliation compares every copy with billing's record now and then (one replica, its lease), so a
 *   copy that drifted (an event lost, a copy edited by hand) is repaired even for a grant that would be trusted.
 */

interface EntitlementCopy {
  _id: string; // the user id
  revision: number;
  status: string;
  granted: boolean;
  reason: string;
  validUntil: Date | null;
  /** When the trial ends (or ended); null when the subscription never had one. */
  trialEnd?: Date | null;
  updatedAt: Date;
  /** Set by the reconciliation: when it last repaired this copy, and how many times it has. */
  repairedAt?: Date;
  repairs?: number;
}

const entitlementCopySchema = new Schema<EntitlementCopy>(
  {
    _id: { type: String, required: true },
    revision: { type: Number, required: true },
    status: { type: String, required: true },
    granted: { type: Boolean, required: true },
    reason: { type: String, default: '' },
    validUntil: { type: Date, default: null },
    trialEnd: { type: Date, default: null },
    updatedAt: { type: Date, required: true },
    repairedAt: { type: Date },
    repairs: { type: Number },
  },
  { collection: 'entitlements', versionKey: false },
);

/**
 * What one billing event says about a user's subscription, handed to a service that keeps more of it than the
 * copy does (the user service: the admin list's status and trial end). Every event is handed on, a repeated or
 * late one too, so the receiver keeps its own `revision` guard (newest wins) and a crash between the copy and
 * the receiver's write is repaired by the event's redelivery.
 */
export interface SubscriptionFacts {
  userId: string;
  revision: number;
  status: string;
  granted: boolean;
  trialEnd: Date | null;
}

/** Every billing event that carries access; each one updates the copy. */
export const subscriptionEventTypes = [
  'billing.trial_started',
  'billing.activated',
  'billing.renewed',
  'billing.trial_will_end',
  'billing.trial_expired',
  'billing.payment_failed',
  'billing.canceled',
  'billing.reactivated',
  'billing.ended',
  'billing.payment_method_updated',
] as const satisfies readonly EventType[];

const deniedReasons = new Set<string>(['trial_expired', 'payment_failed', 'no_subscription']);

/** What the copy says now; null when it says nothing (no event yet). */
export function entitlementFromCopy(
  copy: Pick<EntitlementCopy, 'granted' | 'reason' | 'validUntil' | 'status'> | null,
  now: Date,
): Entitlement | null {
  if (!copy) return null;
  if (copy.granted) {
    if (!copy.validUntil || copy.validUntil > now) return { granted: true };
    return { granted: false, reason: copy.status === 'trialing' ? 'trial_expired' : 'no_subscription' };
  }
  return { granted: false, reason: (deniedReasons.has(copy.reason) ? copy.reason : 'no_subscription') as DeniedReason };
}

/** Billing's record of a user's access (its `entitlementRecords`), as the reconciliation reads it. */
export interface BillingEntitlementRecord {
  userId: string;
  revision: number;
  status: string;
  granted: boolean;
  reason: string;
  /** Epoch seconds. */
  validUntil: number | null;
  trialEnd: number | null;
  /** Billing's now when it decided the record, in epoch seconds. */
  asOf: number;
}

/**
 * Whether a copy has drifted from billing's record: billing has no subscription for the user, or the copy is
 * older than the record, or it decides access differently at billing's now. A copy newer than the record (an
 * event arrived after billing answered) has not drifted.
 */
export function entitlementDrift(
  copy: Pick<EntitlementCopy, 'revision' | 'granted' | 'reason' | 'validUntil' | 'status'>,
  record: BillingEntitlementRecord | null,
): boolean {
  if (!record) return true;
  if (record.revision !== copy.revision) return record.revision > copy.revision;
  const fromCopy = entitlementFromCopy(copy, new Date(record.asOf * 1000))!;
  if (fromCopy.granted !== record.granted) return true;
  return !fromCopy.granted && fromCopy.reason !== record.reason;
}

export interface ReconciliationResult {
  checked: number;
  repaired: number;
  /** Copies the pass could not check or repair (a copy left malformed, a failed write): logged by id, skipped. */
  failed: number;
  /** Their user ids (the first 500: a pass walks every copy), for an operator to look up. */
  failedIds: string[];
}

/** How many failed ids a pass keeps, and how many its log line names (the count is always whole). */
const keptIdsMax = 500;
const loggedIdsMax = 50;

/** Copies compared per call to billing (its entitlementRecords takes at most 500). */
const reconciliationPage = 200;

export interface EntitlementProjection {
  /** Add to the service's `consumers`. */
  consumer: ConsumerSpec;
  /**
   * Starts the reconciliation: every `intervalMs`, on the replica holding the lease `entitlement-reconciliation`,
   * each copy is compared with billing's record (asked with the service credential, on no one's behalf) and a
   * drifted copy is set to it; each repair is logged with the user id, and counted on the copy (`repairs`).
   */
  reconciliation(
    config: { BILLING_SERVICE_URL: string } & CallerSecrets,
    options: { intervalMs: number; log: Logger },
  ): PeriodicWork<ReconciliationResult>;
  /** The service's `accessSources(token).entitlement`. */
  source(
    config: { BILLING_SERVICE_URL: string } & CallerSecrets,
    sessionToken: string,
  ): (session: SessionClaims) => Promise<Entitlement>;
}

export function entitlementProjection(
  connection: Connection,
  service: string,
  options: { onEvent?: (facts: SubscriptionFacts) => Promise<void> } = {},
): EntitlementProjection {
  const copies = connection.model<EntitlementCopy>('EntitlementCopy', entitlementCopySchema);

  const apply: EventHandler<(typeof subscriptionEventTypes)[number]> = async (event: SubscriptionChange) => {
    if (!event.access || !event.userId) return;
    const revision = Number(event.access.revision);
    const fields = {
      revision,
      status: event.access.status,
      granted: event.access.granted,
      reason: event.access.reason,
      validUntil: event.access.validUntil ? timestampDate(event.access.validUntil) : null,
      trialEnd: event.trialEnd ? timestampDate(event.trialEnd) : null,
      updatedAt: new Date(),
    };
    const updated = await copies.updateOne({ _id: event.userId, revision: { $lt: revision } }, { $set: fields });
    if (updated.matchedCount === 0) {
      try {
        await copies.create({ _id: event.userId, ...fields });
      } catch (error) {
        // The copy exists with this revision or a newer one: this event is old news.
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
    await options.onEvent?.({
      userId: event.userId,
      revision,
      status: fields.status,
      granted: fields.granted,
      trialEnd: fields.trialEnd,
    });
  };

  const reconcile = async (
    config: { BILLING_SERVICE_URL: string } & CallerSecrets,
    log: Logger,
  ): Promise<ReconciliationResult> => {
    const result: ReconciliationResult = { checked: 0, repaired: 0, failed: 0, failedIds: [] };
    let after = '';
    for (;;) {
      const page = await copies
        .find({ _id: { $gt: after } })
        .sort({ _id: 1 })
        .limit(reconciliationPage)
        .lean<EntitlementCopy[]>();
      if (page.length === 0) break;
      after = page.at(-1)!._id;
      const data = await askSubgraph(
        { url: config.BILLING_SERVICE_URL, credentials: config },
        EntitlementRecordsDocument,
        { ids: page.map((copy) => copy._id) },
        'billing service',
      );
      const records = new Map(data.entitlementRecords.map((record) => [record.userId, record]));
      for (const copy of page) {
        result.checked += 1;
        // One copy that cannot be checked or repaired never stops the others.
        try {
          const record = records.get(copy._id) ?? null;
          if (!entitlementDrift(copy, record)) continue;
          if (await repair(copy, record, log)) result.repaired += 1;
        } catch (error) {
          result.failed += 1;
          if (result.failedIds.length < keptIdsMax) result.failedIds.push(copy._id);
          log.error({ err: error, userId: copy._id }, 'entitlement reconciliation could not check a copy');
        }
      }
    }
    const { checked, repaired, failed } = result;
    if (failed > 0) {
      log.warn(
        { checked, repaired, failed, failedIds: result.failedIds.slice(0, loggedIdsMax) },
        'entitlement reconciliation skipped copies it could not check',
      );
    } else if (repaired > 0) {
      log.warn({ checked, repaired, failed }, 'entitlement reconciliation repaired copies from billing’s record');
    }
    return result;
  };

  /** Sets a drifted copy to billing's record (or removes it), unless an event changed it meanwhile. */
  const repair = async (copy: EntitlementCopy, record: BillingEntitlementRecord | null, log: Logger) => {
    const now = new Date();
    const was = { revision: copy.revision, status: copy.status, granted: copy.granted, reason: copy.reason };
    if (!record) {
      const removed = await copies.deleteOne({ _id: copy._id, revision: copy.revision });
      if (removed.deletedCount === 1) {
        log.warn({ userId: copy._id, copy: was }, 'entitlement copy removed: billing has no subscription for it');
      }
      return removed.deletedCount === 1;
    }
    const date = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000));
    const fields = {
      revision: record.revision,
      status: record.status,
      granted: record.granted,
      reason: record.reason,
      validUntil: date(record.validUntil),
      trialEnd: date(record.trialEnd),
    };
    const updated = await copies.updateOne(
      { _id: copy._id, revision: copy.revision },
      { $set: { ...fields, updatedAt: now, repairedAt: now }, $inc: { repairs: 1 } },
    );
    if (updated.modifiedCount !== 1) return false;
    const billing = {
      revision: record.revision,
      status: record.status,
      granted: record.granted,
      reason: record.reason,
    };
    log.warn({ userId: copy._id, copy: was, billing }, 'entitlement copy repaired from billing’s record');
    await options.onEvent?.({ userId: copy._id, ...fields });
    return true;
  };

  return {
    reconciliation: (config, { intervalMs, log }) =>
      runPeriodically(() => reconcile(config, log), {
        intervalMs,
        log,
        what: 'entitlement reconciliation',
        lease: { db: connection, name: 'entitlement-reconciliation' },
      }),
    consumer: {
      groupId: `${service}-entitlements`,
      topics: [topicOf('billing')],
      handlers: Object.fromEntries(subscriptionEventTypes.map((type) => [type, apply])),
    },
    source: (config, sessionToken) => async (session) => {
      const copy = await recordById(copies, session.userId);
      const fromCopy = entitlementFromCopy(copy, new Date());
      if (fromCopy?.granted) return fromCopy;
      return entitlementFromBilling(config, sessionToken, session.userId);
    },
  };
}

/** Billing's own answer, through its subgraph with the caller's token (the path of a denial only). */
async function entitlementFromBilling(
  config: { BILLING_SERVICE_URL: string } & CallerSecrets,
  sessionToken: string,
  userId: string,
): Promise<Entitlement> {
  const data = await askSubgraph(
    { url: config.BILLING_SERVICE_URL, credentials: config, sessionToken },
    SubscriptionOfUserDocument,
    { r: [{ __typename: 'User', id: userId }] },
    'billing service',
  );
  const status = data._entities[0]?.subscriptionStatus;
  return status ? entitlementOf(status) : { granted: false, reason: 'no_subscription' };
}
