import { byIds } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import type { StoredSubscription } from '../domain/access';

export interface SubscriptionRecord extends StoredSubscription {
  _id: string; // the user id: one subscription per user
  createdAt: Date;
  updatedAt: Date;
}

const subscriptionSchema = new Schema<SubscriptionRecord>(
  {
    _id: { type: String, required: true },
    status: {
      type: String,
      required: true,
      enum: ['trialing', 'active', 'canceled', 'trial_expired', 'payment_failed'],
    },
    trialEnd: { type: Date, default: null },
    currentPeriodEnd: { type: Date, default: null },
    cancelAtPeriodEnd: { type: Boolean, default: false },
  },
  { collection: 'subscriptions', timestamps: true },
);

export function subscriptionModel(connection: Connection): Model<SubscriptionRecord> {
  return connection.model<SubscriptionRecord>('Subscription', subscriptionSchema);
}

/** The subscriptions of the users among `ids`, in one `$in` query (the per-request loader's batch). */
export function findSubscriptionsByUserIds(subscriptions: Model<SubscriptionRecord>, userIds: readonly string[]) {
  return byIds((filter) => subscriptions.find(filter).lean<SubscriptionRecord[]>(), userIds);
}
