import { Schema, type Connection, type Model } from 'mongoose';

/** A supportive quote written for one check-in. */
export interface QuoteRecord {
  _id: string;
  userId: string;
  checkInId: string;
  text: string;
  isFavorite: boolean;
  createdAt: Date;
}

const quoteSchema = new Schema<QuoteRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    checkInId: { type: String, required: true },
    text: { type: String, required: true },
    isFavorite: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
  },
  { collection: 'quotes', versionKey: false },
);
quoteSchema.index({ userId: 1, createdAt: -1 });

export function quoteModel(connection: Connection): Model<QuoteRecord> {
  return connection.model<QuoteRecord>('Quote', quoteSchema);
}
