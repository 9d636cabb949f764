import { Schema, type Connection, type Model } from 'mongoose';

/** One e-mail sent (or failed) because of one event; the event id makes a redelivery harmless. */
export interface DeliveryRecord {
  _id: string; // `${eventId}:${kind}`
  userId: string;
  kind: string;
  to: string;
  status: 'sent' | 'failed';
  messageId: string | null;
  error: string | null;
  at: Date;
}

const deliverySchema = new Schema<DeliveryRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true, index: true },
    kind: { type: String, required: true },
    to: { type: String, required: true },
    status: { type: String, required: true, enum: ['sent', 'failed'] },
    messageId: { type: String, default: null },
    error: { type: String, default: null },
    at: { type: Date, required: true },
  },
  { collection: 'deliveries', versionKey: false },
);

export function deliveryModel(connection: Connection): Model<DeliveryRecord> {
  return connection.model<DeliveryRecord>('Delivery', deliverySchema);
}
