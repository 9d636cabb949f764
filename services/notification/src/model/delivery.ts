import { createHash } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One e-mail for one recipient because of one event: the claim taken before sending, then its outcome.
 * - sending: claimed; a second claim (a redelivery, another replica) is refused by the unique _id;
 * - sent: the mail server accepted it;
 * - retryable: nothing was sent (no connection, a 4xx reply): the next attempt may claim it again;
 * - failed: refused for good (a 5xx reply), never retried;
 * - unknown: the connection broke after the message went out; not resent, so never sent twice.
 */
export type DeliveryStatus = 'sending' | 'sent' | 'retryable' | 'failed' | 'unknown';

export interface DeliveryRecord {
  _id: string; // deliveryKey(eventId, kind, to)
  eventId: string;
  userId: string;
  kind: string;
  to: string;
  status: DeliveryStatus;
  attempts: number;
  messageId: string | null;
  error: string | null;
  at: Date;
}

/**
 * "Deliver once" is per event, kind of e-mail and recipient: one event may address many people. The recipient is
 * in it as a digest, so the id, which logs and traces name, never carries the address.
 */
export function deliveryKey(eventId: string, kind: string, to: string): string {
  return `${eventId}:${kind}:${recipientDigest(to)}`;
}

/** The recipient's part of a delivery's id: a digest of the address, the same whatever its case. */
export function recipientDigest(to: string): string {
  return createHash('sha256').update(to.toLowerCase()).digest('base64url');
}

const deliverySchema = new Schema<DeliveryRecord>(
  {
    _id: { type: String, required: true },
    eventId: { type: String, required: true, index: true },
    userId: { type: String, required: true, index: true },
    kind: { type: String, required: true },
    to: { type: String, required: true },
    status: { type: String, required: true, enum: ['sending', 'sent', 'retryable', 'failed', 'unknown'] },
    attempts: { type: Number, required: true, default: 1 },
    messageId: { type: String, default: null },
    error: { type: String, default: null },
    // The retention sweep deletes by it.
    at: { type: Date, required: true, index: true },
  },
  { collection: 'deliveries', versionKey: false },
);

export function deliveryModel(connection: Connection): Model<DeliveryRecord> {
  return connection.model<DeliveryRecord>('Delivery', deliverySchema);
}
