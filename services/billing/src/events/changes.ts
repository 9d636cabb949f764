import { appendEvents, isDuplicateKeyError, recordEvent } from '@haven/platform';
import { timestampFromDate, type EventType, type NewEvent } from '@haven/proto';
import type { Model } from 'mongoose';
import { accessAfter } from '../domain/lifecycle';
import type { SubscriptionRecord } from '../model/subscription';

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
): NewEvent<SubscriptionEventType> {
  const access = accessAfter(state, now);
  const timestamp = (date: Date | null) => (date ? timestampFromDate(date) : undefined);
  return {
    type,
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
    },
  };
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
  return appendEvents(
    subscriptions,
    { _id: current._id, revision: current.revision },
    [eventOf(type, current._id, next, now, correlationId)],
    { $set: { ...fields, updatedAt: now }, $inc: { revision: 1 } },
  );
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
  recordEvent(doc, eventOf(type, userId, fields, now, correlationId));
  try {
    await doc.save();
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}
