import { Schema, type Connection, type Model } from 'mongoose';
import { dimensions, ratingMax, ratingMin, timesOfDay, type Ratings, type TimeOfDay } from '../domain/assessment';

/** One emotional check-in: the 15 named ratings (1–5), a time of day, optional notes. */
export interface CheckInRecord extends Ratings {
  _id: string;
  userId: string;
  timeOfDay: TimeOfDay;
  notes: string | null;
  createdAt: Date;
}

const rating = { type: Number, required: true, min: ratingMin, max: ratingMax, validate: Number.isInteger };

const checkInSchema = new Schema<CheckInRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    ...Object.fromEntries(dimensions.map((dimension) => [dimension, rating])),
    timeOfDay: { type: String, required: true, enum: timesOfDay },
    notes: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { collection: 'check_ins', versionKey: false, strict: 'throw' },
);
checkInSchema.index({ userId: 1, createdAt: -1 });

export function checkInModel(connection: Connection): Model<CheckInRecord> {
  return connection.model<CheckInRecord>('CheckIn', checkInSchema);
}

/** The ratings of a stored check-in, in the payload's order. */
export function ratingsOf(record: Ratings): Ratings {
  return Object.fromEntries(dimensions.map((dimension) => [dimension, record[dimension]])) as Ratings;
}
