import { outboxPlugin, type PersonKeyring, type WithOutbox } from '@haven/platform';
import { Schema, type Connection, type HydratedDocument, type Model } from 'mongoose';
import type { TimeOfDay } from '../domain/assessment';
import { emotionalStateOf, emotionalStateRatings, type EmotionalState } from '../domain/progress';
import { encodeRatings } from '../domain/rating-codes';
import { openStoredRatings } from './sealed-ratings';

/** A supportive quote written for one check-in, with the ratings the progress page shows beside it. */
export interface QuoteRecord extends WithOutbox {
  _id: string;
  userId: string;
  checkInId: string;
  text: string;
  /** The library message it came from (the composer's no-repeat rule), or "crisis", or "ai". */
  messageId: string;
  timeOfDay: TimeOfDay;
  /**
   * The eight ratings' code (domain/rating-codes.ts) sealed under the person's key; a quote stored before that
   * keeps the ratings in clear, until its entry is edited. `emotionalStateOfQuote` reads either.
   */
  emotionalState: string | EmotionalState;
  isFavorite: boolean;
  createdAt: Date;
  /** When its writer last changed the entry; absent when never. */
  editedAt?: Date;
}

export type QuoteDocument = HydratedDocument<QuoteRecord>;

const quoteSchema = new Schema<QuoteRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    checkInId: { type: String, required: true },
    text: { type: String, required: true },
    messageId: { type: String, required: true },
    timeOfDay: { type: String, required: true },
    // Sealed text, or (stored before) the clear ratings.
    emotionalState: { type: Schema.Types.Mixed, required: true },
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

/** A check-in's emotional state as a quote stores it: the code of its eight ratings, sealed under the person's key. */
export async function sealEmotionalState(keyring: PersonKeyring, userId: string, state: EmotionalState) {
  return keyring.seal(userId, encodeRatings(emotionalStateRatings, emotionalStateOf(state)));
}

/** The emotional state a stored quote carries, whichever form it was stored in. */
export async function emotionalStateOfQuote(
  keyring: PersonKeyring,
  record: Pick<QuoteRecord, 'userId' | 'emotionalState'>,
): Promise<EmotionalState> {
  return openStoredRatings(keyring, record.userId, emotionalStateRatings, record.emotionalState);
}
