import { Schema, type Connection } from 'mongoose';

/**
 * One change of a subscription, for the data export's history. Written beside the change (the outbox's
 * events leave the subscription once published); kept for BILLING_HISTORY_RETENTION_DAYS of billing's clock,
 * then swept by the scheduler.
 */
export interface SubscriptionHistoryEntry {
  _id: string; // `${userId}:${revision}`: one entry per change, and a retried write keeps one
  userId: string;
  revision: number;
  event: string;
  /** When the change happened (its event's time). */
  occurredAt: Date;
  /** Billing's clock at the change: what the retention counts from. */
  recordedAt: Date;
  status: string;
  trialEnd: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

export const subscriptionHistoryCollection = 'subscription_history';

const historySchema = new Schema<SubscriptionHistoryEntry>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    revision: { type: Number, required: true },
    event: { type: String, required: true },
    occurredAt: { type: Date, required: true },
    recordedAt: { type: Date, required: true },
    status: { type: String, required: true },
    trialEnd: { type: Date, default: null },
    currentPeriodEnd: { type: Date, default: null },
    cancelAtPeriodEnd: { type: Boolean, default: false },
  },
  { collection: subscriptionHistoryCollection, versionKey: false },
);
historySchema.index({ userId: 1, revision: 1 });
historySchema.index({ recordedAt: 1 });

/** Registers the history's model (so its indexes are built) and returns its collection. */
export function subscriptionHistory(connection: Connection) {
  if (!connection.models.SubscriptionHistory) connection.model('SubscriptionHistory', historySchema);
  return connection.db!.collection<SubscriptionHistoryEntry>(subscriptionHistoryCollection);
}

/** Deletes the entries older than the retention; returns how many went. */
export async function sweepSubscriptionHistory(connection: Connection, now: Date, retentionMs: number) {
  const result = await subscriptionHistory(connection).deleteMany({
    recordedAt: { $lt: new Date(now.getTime() - retentionMs) },
  });
  return result.deletedCount;
}
