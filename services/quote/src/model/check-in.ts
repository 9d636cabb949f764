import { Schema, type Connection, type Model } from 'mongoose';
import { dimensions, ratingMax, ratingMin, timesOfDay, type Ratings, type TimeOfDay } from '../domain/assessment';
import { insightSamplesMax, insightWindowDays, type CheckInSample } from '../domain/insights';

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

/** Only what an insight reads of a check-in: its ratings and when it was made. */
const sampleFields = Object.fromEntries([...dimensions, 'createdAt'].map((field) => [field, 1]));

/** The user's check-ins an insight looks at: the latest of the insight window, newest first, at most a bounded number. */
export async function insightSamplesOf(
  checkIns: Model<CheckInRecord>,
  userId: string,
  now: Date,
): Promise<CheckInSample[]> {
  const since = new Date(now.getTime() - insightWindowDays * 24 * 60 * 60 * 1000);
  const records = await checkIns
    .find({ userId, createdAt: { $gte: since } }, sampleFields)
    .sort({ createdAt: -1 })
    .limit(insightSamplesMax)
    .lean<Array<Ratings & { createdAt: Date }>>();
  return records.map((record) => ({ ratings: ratingsOf(record), createdAt: record.createdAt }));
}
