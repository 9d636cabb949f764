import { outboxPlugin, type WithOutbox } from '@haven/platform';
import { Schema, type Connection, type HydratedDocument, type Model } from 'mongoose';
import type { TimeOfDay } from '../domain/assessment';
import { emotionalStateRatings, type EmotionalState } from '../domain/progress';

/** A supportive quote written for one check-in, with the ratings the progress page shows beside it. */
export interface QuoteRecord extends WithOutbox {
  _id: string;
  userId: string;
  checkInId: string;
  text: string;
  /** The library message it came from (the composer's no-repeat rule), or "crisis", or "ai". */
  messageId: string;
  timeOfDay: TimeOfDay;
  emotionalState: EmotionalState;
  isFavorite: boolean;
  createdAt: Date;
  /** When its writer last changed the entry; absent when never. */
  editedAt?: Date;
}

export type QuoteDocument = HydratedDocument<QuoteRecord>;

const rating = { type: Number, required: true };

const quoteSchema = new Schema<QuoteRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    checkInId: { type: String, required: true },
    text: { type: String, required: true },
    messageId: { type: String, required: true },
    timeOfDay: { type: String, required: true },
    emotionalState: {
      type: new Schema(Object.fromEntries(emotionalStateRatings.map((name) => [name, rating])), { _id: false }),
      required: true,
    },
    isFavorite: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    editedAt: { type: Date },
  },
  { collection: 'quotes', versionKey: false },
);
quoteSchema.plugin(outboxPlugin);
// Newest first with ties by id: the journey's pages (recent quotes) walk it without sorting the history.
quoteSchema.index({ userId: 1, createdAt: -1, _id: -1 });
quoteSchema.index({ userId: 1, isFavorite: 1, createdAt: -1 });

export function quoteModel(connection: Connection): Model<QuoteRecord> {
  return connection.model<QuoteRecord>('Quote', quoteSchema);
}
