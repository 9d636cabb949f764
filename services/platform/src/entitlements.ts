import { topicOf, timestampDate, type EventType, type SubscriptionChange } from '@haven/proto';
import { Schema, type Connection } from 'mongoose';
import { entitlementOf, type DeniedReason, type Entitlement } from './access';
import type { CallerSecrets, SessionClaims } from './auth';
import type { ConsumerSpec, EventHandler } from './consumer';
import { isDuplicateKeyError } from './mongo';
import { askSubgraph } from './subgraph-client';

/**
 * A service's own copy of who may use the paid features, kept from billing's subscription events (each
 * carries the user's access after it: event-carried state), so a paid operation costs one local read by
 * primary key instead of a call to billing. docs/decisions.md, "Subscription and access".
 *
 * - Newest wins: a copy keeps the highest `revision`; a late or repeated event changes nothing.
 * - A grant is trusted until `validUntil` (the end of a cancelled trial or period), then closes by itself.
 * - A denial is confirmed with billing before it is answered (one synchronous call, only on that path): a
 *   user who just started a trial is never turned away because the event is still on its way, and a
 *   refusal, which signs the user out, always rests on billing's own record.
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

export interface EntitlementProjection {
  /** Add to the service's `consumers`. */
  consumer: ConsumerSpec;
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

  return {
    consumer: {
      groupId: `${service}-entitlements`,
      topics: [topicOf('billing')],
      handlers: Object.fromEntries(subscriptionEventTypes.map((type) => [type, apply])),
    },
    source: (config, sessionToken) => async (session) => {
      const copy = await copies.findById(session.userId).lean<EntitlementCopy>();
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
  const data = await askSubgraph<{
    _entities: Array<{ subscriptionStatus: { status: string; hasActiveSubscription: boolean } } | null>;
  }>(
    { url: config.BILLING_SERVICE_URL, credentials: config, sessionToken },
    'query($r: [_Any!]!) { _entities(representations: $r) { ... on User { subscriptionStatus { status hasActiveSubscription } } } }',
    { r: [{ __typename: 'User', id: userId }] },
    'billing service',
  );
  const status = data._entities[0]?.subscriptionStatus;
  return status ? entitlementOf(status) : { granted: false, reason: 'no_subscription' };
}
