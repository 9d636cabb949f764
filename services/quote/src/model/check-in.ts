import { collectionOf, type PersonKeyring } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { dimensions, ratingMax, ratingMin, timesOfDay, type Ratings, type TimeOfDay } from '../domain/assessment';
import { insightSamplesMax, insightWindowDays, type CheckInSample } from '../domain/insights';
import { encodeRatings } from '../domain/rating-codes';
import { openStoredRatings } from './sealed-ratings';

/**
 * One emotional check-in: the 15 named ratings (1–5), a time of day, optional notes. The ratings are one value
 * sealed under the person's key (`sealCheckInRatings`); a check-in stored before that keeps them in clear, one
 * field per dimension, until it is edited. `ratingsOfCheckIn` reads either.
 */
export interface CheckInRecord extends Partial<Ratings> {
  _id: string;
  userId: string;
  /** The 15 ratings' code (domain/rating-codes.ts), sealed; absent on a check-in stored before. */
  ratings?: string;
  timeOfDay: TimeOfDay;
  notes: string | null;
  createdAt: Date;
}

const rating = { type: Number, min: ratingMin, max: ratingMax, validate: Number.isInteger };

const checkInSchema = new Schema<CheckInRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    ratings: { type: String },
    // Check-ins stored before the ratings were sealed; an edit moves them into `ratings`.
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

/** The ratings of a check-in as they are stored: their code sealed under the person's key. */
export async function sealCheckInRatings(keyring: PersonKeyring, userId: string, ratings: Ratings): Promise<string> {
  return keyring.seal(userId, encodeRatings(dimensions, ratings));
}

/** The fields an edit sets to store a check-in's ratings sealed, and unsets of the form stored before. */
export async function checkInRatingsUpdate(keyring: PersonKeyring, userId: string, ratings: Ratings) {
  return {
    $set: { ratings: await sealCheckInRatings(keyring, userId, ratings) },
    $unset: Object.fromEntries(dimensions.map((dimension) => [dimension, 1])) as Record<string, 1>,
  };
}

/** The ratings of a stored check-in, in the payload's order, whichever form it was stored in. */
export async function ratingsOfCheckIn(
  keyring: PersonKeyring,
  record: Pick<CheckInRecord, 'userId' | 'ratings' | keyof Ratings>,
): Promise<Ratings> {
  return openStoredRatings(keyring, record.userId, dimensions, record.ratings ?? record);
}

/** Only what an insight reads of a check-in: its ratings (either form) and when it was made. */
const sampleFields = Object.fromEntries([...dimensions, 'ratings', 'userId', 'createdAt'].map((field) => [field, 1]));

type SampleRecord = Pick<CheckInRecord, 'userId' | 'ratings' | keyof Ratings | 'createdAt'>;

/** The user's check-ins an insight looks at: the latest of the insight window, newest first, at most a bounded number. */
export async function insightSamplesOf(
  checkIns: Model<CheckInRecord>,
  keyring: PersonKeyring,
  userId: string,
  now: Date,
): Promise<CheckInSample[]> {
  const records = await checkIns
    .find({ userId, createdAt: { $gte: insightWindowStart(now) } }, sampleFields)
    .sort({ createdAt: -1 })
    .limit(insightSamplesMax)
    .lean<SampleRecord[]>();
  return Promise.all(records.map((record) => toSample(keyring, record)));
}

/**
 * The analytics page's check-ins, newest first: the latest `count` (the mood history) and the insight window's
 * (at most `insightSamplesMax`). One query answers both unless the window holds more than the latest `count`.
 */
export async function analyticsCheckInsOf(
  checkIns: Model<CheckInRecord>,
  keyring: PersonKeyring,
  userId: string,
  now: Date,
  count: number,
): Promise<{ latest: CheckInSample[]; samples: CheckInSample[] }> {
  const since = insightWindowStart(now);
  // Through the driver: the page is read often, and a mongoose query costs about as much as this read.
  const stored = await collectionOf(checkIns)
    .find({ userId }, { projection: sampleFields, sort: { createdAt: -1 }, limit: count })
    .toArray();
  const latest = await Promise.all(stored.map((record) => toSample(keyring, record as SampleRecord)));
  const windowReachesPast = latest.length === count && latest[count - 1]!.createdAt >= since;
  return {
    latest,
    samples: windowReachesPast
      ? await insightSamplesOf(checkIns, keyring, userId, now)
      : latest.filter((sample) => sample.createdAt >= since),
  };
}

const insightWindowStart = (now: Date) => new Date(now.getTime() - insightWindowDays * 24 * 60 * 60 * 1000);

const toSample = async (keyring: PersonKeyring, record: SampleRecord): Promise<CheckInSample> => ({
  ratings: await ratingsOfCheckIn(keyring, record),
  createdAt: record.createdAt,
});
