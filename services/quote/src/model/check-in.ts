import { collectionOf } from '@haven/platform';
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

/**
 * Stores a check-in built from a validated assessment, straight through the driver: the hottest write there is,
 * where a mongoose document (casting, validation, change tracking) costs more than the insert itself.
 */
export async function insertCheckIn(checkIns: Model<CheckInRecord>, record: CheckInRecord): Promise<void> {
  await collectionOf(checkIns).insertOne(record);
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
  const records = await checkIns
    .find({ userId, createdAt: { $gte: insightWindowStart(now) } }, sampleFields)
    .sort({ createdAt: -1 })
    .limit(insightSamplesMax)
    .lean<Array<Ratings & { createdAt: Date }>>();
  return records.map(toSample);
}

/**
 * The analytics page's check-ins, newest first: the latest `count` (the mood history) and the insight window's
 * (at most `insightSamplesMax`). One query answers both unless the window holds more than the latest `count`.
 */
export async function analyticsCheckInsOf(
  checkIns: Model<CheckInRecord>,
  userId: string,
  now: Date,
  count: number,
): Promise<{ latest: CheckInSample[]; samples: CheckInSample[] }> {
  const since = insightWindowStart(now);
  // Through the driver: the page is read often, and a mongoose query costs about as much as this read.
  const latest = (
    await collectionOf(checkIns)
      .find({ userId }, { projection: sampleFields, sort: { createdAt: -1 }, limit: count })
      .toArray()
  ).map(toSample);
  const windowReachesPast = latest.length === count && latest[count - 1]!.createdAt >= since;
  return {
    latest,
    samples: windowReachesPast
      ? await insightSamplesOf(checkIns, userId, now)
      : latest.filter((sample) => sample.createdAt >= since),
  };
}

const insightWindowStart = (now: Date) => new Date(now.getTime() - insightWindowDays * 24 * 60 * 60 * 1000);

const toSample = (record: Ratings & { createdAt: Date }): CheckInSample => ({
  ratings: ratingsOf(record),
  createdAt: record.createdAt,
});
