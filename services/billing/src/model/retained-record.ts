import { Schema, type Connection, type Model } from 'mongoose';

/**
 * What billing keeps of an erased account's subscription, because accounts of payments must be kept for years
 * (docs/decisions/privacy-and-erasure/what-is-kept.md): the plan's dates and the provider's subscription id, under a
 * keyed hash of the user id (HMAC with billing's erasure key), without the address, the name or the customer.
 */
export interface RetainedBillingRecord {
  _id: string; // keyedHash(user id)
  provider: string;
  /** The provider's id of the subscription, for matching its invoices (Stripe only: the local provider never charges). */
  providerSubscriptionId: string | null;
  statusAtDeletion: string;
  startedAt: Date;
  trialEnd: Date | null;
  /** Paid (or trialled) up to here. */
  currentPeriodEnd: Date | null;
  closedAt: Date;
}

const retainedSchema = new Schema<RetainedBillingRecord>(
  {
    _id: { type: String, required: true },
    provider: { type: String, required: true },
    providerSubscriptionId: { type: String, default: null },
    statusAtDeletion: { type: String, required: true },
    startedAt: { type: Date, required: true },
    trialEnd: { type: Date, default: null },
    currentPeriodEnd: { type: Date, default: null },
    closedAt: { type: Date, required: true },
  },
  { collection: 'retained_billing_records', versionKey: false },
);

export function retainedBillingRecordModel(connection: Connection): Model<RetainedBillingRecord> {
  return connection.model<RetainedBillingRecord>('RetainedBillingRecord', retainedSchema);
}
