import { appendEvents, isDuplicateKeyError, recordEvent } from '@haven/platform';
import { timestampFromDate, type EventType, type NewEvent } from '@haven/proto';
import type { Model } from 'mongoose';
import { accessAfter, chargeRecordedBy } from '../domain/lifecycle';
import type { SubscriptionRecord } from '../model/subscription';
import { subscriptionHistory } from '../model/subscription-history';

export type SubscriptionEventType = Extract<EventType, `billing.${string}`>;

/** The fields a change may set; the rest (ids, outbox, revision) are billing's bookkeeping. */
export type SubscriptionFields = Omit<
  SubscriptionRecord,
  '_id' | 'outbox' | 'outboxVersion' | 'createdAt' | 'updatedAt'
>;

function eventOf(
  type: SubscriptionEventType,
  userId: string,
  state: SubscriptionFields,
  now: Date,
  correlationId: string,
  occurredAt: Date,
): NewEvent<SubscriptionEventType> {
  const access = accessAfter(state, now);
  const timestamp = (date: Date | null) => (date ? timestampFromDate(date) : undefined);
  const charge = chargeRecordedBy(type, now);
  return {
    type,
    occurredAt,
    producer: 'billing',
    subjectId: userId,
    correlationId,
    payload: {
      userId,
      email: state.email,
      firstName: state.firstName,
      access: {
        status: access.status,
        granted: access.granted,
        reason: access.reason,
        validUntil: timestamp(access.validUntil),
        revision: BigInt(state.revision),
      },
      trialEnd: timestamp(state.trialEnd),
      currentPeriodEnd: timestamp(state.currentPeriodEnd),
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      provider: state.provider,
      charge: charge
        ? {
            amountMinor: BigInt(charge.amountMinor),
            currency: charge.currency,
            planName: charge.planName,
            chargedAt: timestampFromDate(charge.chargedAt),
          }
        : undefined,
    },
  };
}

/** The export's record of a change, written once the change is stored (a retry rewrites the same entry). */
async function recordHistory(
  subscriptions: Model<SubscriptionRecord>,
  userId: string,
  state: SubscriptionFields,
  type: SubscriptionEventType,
  now: Date,
  occurredAt: Date,
): Promise<void> {
  const entry = {
    userId,
    revision: state.revision,
    event: type,
    occurredAt,
    recordedAt: now,
    status: accessAfter(state, now).status,
    trialEnd: state.trialEnd,
    currentPeriodEnd: state.currentPeriodEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
  };
  await subscriptionHistory(subscriptions.db).updateOne(
    { _id: `${userId}:${state.revision}` },
    { $set: entry },
    { upsert: true },
  );
}

/**
 * Changes a stored subscription and records its event in the same write, only if nobody changed it since
 * it was read (compare-and-set on `revision`): two replicas, or a retried request, apply a change once.
 * False when it lost that race (the caller re-reads, or leaves it to the winner).
 */
export async function changeSubscription(
  subscriptions: Model<SubscriptionRecord>,
  current: SubscriptionRecord,
  changes: Partial<SubscriptionFields>,
  type: SubscriptionEventType,
  now: Date,
  correlationId: string,
): Promise<boolean> {
  const next = { ...current, ...changes, revision: current.revision + 1 };
  const { revision: _revision, ...fields } = changes;
  const occurredAt = new Date();
  const changed = await appendEvents(
    subscriptions,
    { _id: current._id, revision: current.revision },
    [eventOf(type, current._id, next, now, correlationId, occurredAt)],
    { $set: { ...fields, updatedAt: now }, $inc: { revision: 1 } },
  );
  if (changed) await recordHistory(subscriptions, current._id, next, type, now, occurredAt);
  return changed;
}

/** A user's first subscription: created with its event; false when one was created meanwhile. */
export async function createSubscription(
  subscriptions: Model<SubscriptionRecord>,
  userId: string,
  state: Omit<SubscriptionFields, 'revision'>,
  type: SubscriptionEventType,
  now: Date,
  correlationId: string,
): Promise<boolean> {
  const fields = { ...state, revision: 1 };
  const doc = new subscriptions({ _id: userId, ...fields });
  const occurredAt = new Date();
  recordEvent(doc, eventOf(type, userId, fields, now, correlationId, occurredAt));
  try {
    await doc.save();
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
  await recordHistory(subscriptions, userId, fields, type, now, occurredAt);
  return true;
}
