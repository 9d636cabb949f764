import { byIds, outboxPlugin, type WithOutbox } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { subscriptionStates, type ScheduledSubscription } from '../domain/lifecycle';
import type { ProviderName, SetupPurpose } from '../domain/provider';
import { subscriptionHistory } from './subscription-history';

export interface SubscriptionRecord extends ScheduledSubscription, WithOutbox {
  _id: string; // the user id: one subscription per user
  provider: ProviderName;
  customerId: string;
  subscriptionId: string;
  paymentMethodId: string;
  /** For the e-mails billing's events trigger. */
  email: string;
  firstName: string;
  /** Grows with every change; writes compare-and-set on it, and events carry it (newest wins downstream). */
  revision: number;
  /** A user gets one free trial; subscribing again after a lapse starts paid at once. */
  trialUsed: boolean;
  /** The time of the newest provider event applied (webhooks arrive out of order). */
  providerEventAt: Date | null;
  /** Set when the scheduler could not move this record on: it is retried from then, and operators find it here. */
  setAsideUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const subscriptionSchema = new Schema<SubscriptionRecord>(
  {
    _id: { type: String, required: true },
    status: {
      type: String,
      required: true,
      enum: [...subscriptionStates],
    },
    trialEnd: { type: Date, default: null },
    currentPeriodEnd: { type: Date, default: null },
    cancelAtPeriodEnd: { type: Boolean, default: false },
    trialReminderSent: { type: Boolean, default: false },
    paymentRetryAt: { type: Date, default: null },
    paymentRetries: { type: Number, default: 0 },
    provider: { type: String, required: true, enum: ['local', 'stripe'] },
    customerId: { type: String, required: true },
    subscriptionId: { type: String, required: true, index: true },
    paymentMethodId: { type: String, required: true },
    email: { type: String, default: '' },
    firstName: { type: String, default: '' },
    revision: { type: Number, required: true, default: 1 },
    trialUsed: { type: Boolean, default: true },
    providerEventAt: { type: Date, default: null },
    setAsideUntil: { type: Date, default: null },
  },
  { collection: 'subscriptions', timestamps: true },
);
subscriptionSchema.plugin(outboxPlugin);
// The scheduler's sweep: trials and periods by their end.
subscriptionSchema.index({ status: 1, trialEnd: 1 });
subscriptionSchema.index({ status: 1, currentPeriodEnd: 1 });
subscriptionSchema.index({ status: 1, paymentRetryAt: 1 });

export function subscriptionModel(connection: Connection): Model<SubscriptionRecord> {
  subscriptionHistory(connection); // its indexes are built with the subscriptions'
  return connection.model<SubscriptionRecord>('Subscription', subscriptionSchema);
}

/** The subscriptions of the users among `ids`, in one `$in` query (the per-request loader's batch). */
export function findSubscriptionsByUserIds(subscriptions: Model<SubscriptionRecord>, userIds: readonly string[]) {
  return byIds((filter) => subscriptions.find(filter).lean<SubscriptionRecord[]>(), userIds);
}

/** A user's provider customer and the payment method their newest confirmed setup left. */
export interface CustomerRecord {
  _id: string; // the user id
  provider: ProviderName;
  customerId: string;
  email: string;
  firstName: string;
  setupIntentId: string | null;
  /** What the newest setup is for: only a `start` setup starts a subscription. */
  setupPurpose: SetupPurpose;
  /** How many setups were started: part of the provider's idempotency key for the next one. */
  setupAttempts: number;
  createdAt: Date;
  updatedAt: Date;
}

const customerSchema = new Schema<CustomerRecord>(
  {
    _id: { type: String, required: true },
    provider: { type: String, required: true },
    customerId: { type: String, required: true },
    email: { type: String, default: '' },
    firstName: { type: String, default: '' },
    setupIntentId: { type: String, default: null },
    setupPurpose: { type: String, enum: ['start', 'change_card'], default: 'start' },
    setupAttempts: { type: Number, default: 0 },
  },
  { collection: 'customers', timestamps: true },
);

export function customerModel(connection: Connection): Model<CustomerRecord> {
  return connection.model<CustomerRecord>('Customer', customerSchema);
}
