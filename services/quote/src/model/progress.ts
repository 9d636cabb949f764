import { isDuplicateKeyError } from '@haven/platform';
import { Schema, type Connection, type Model, type mongo } from 'mongoose';
import {
  ascendingDays,
  dayBit,
  daysOfBits,
  noStreak,
  streaksOf,
  streaksOfBits,
  type DayBits,
  type StreakState,
  type Streaks,
} from '../domain/progress';

/**
 * What the progress and analytics pages need from a user's whole history, kept up to date at each
 * check-in so reading it costs one small document whatever the history's length: the mood sum and the count
 * (average mood), and each local day with a check-in (the streaks), as bits (domain/progress.ts, DayBits). Days
 * are counted in the time zone the user had when they checked in.
 */
export interface ProgressRecord {
  _id: string; // the user id
  entries: number;
  moodSum: number;
  /** The local days with a check-in, 32 to a word. */
  dayBits?: DayBits;
  /** The days as a list of numbers, as kept before the bits were; read, and a deleted day leaves it too. */
  days?: number[];
  /** The running streak kept before the days were; read, never written (legacyStreak folds it in). */
  streak?: StreakState;
}

const progressSchema = new Schema<ProgressRecord>(
  {
    _id: { type: String, required: true },
    entries: { type: Number, required: true },
    moodSum: { type: Number, required: true },
    // Written by bit operations only (recordProgress, forgetProgress), read as they are.
    dayBits: { type: Schema.Types.Mixed, default: undefined },
    days: { type: [Number], default: undefined },
    streak: {
      type: new Schema({ lastDay: Number, run: Number, longest: Number }, { _id: false }),
      default: undefined,
    },
  },
  { collection: 'progress', versionKey: false },
);

export function progressModel(connection: Connection): Model<ProgressRecord> {
  return connection.model<ProgressRecord>('Progress', progressSchema);
}

/** The collection itself, for the bit operations: their 32-bit masks are stored as they are, not cast to doubles. */
function keptRecords(progress: Model<ProgressRecord>): mongo.Collection<{ _id: string }> {
  return progress.collection as unknown as mongo.Collection<{ _id: string }>;
}

/**
 * Folds one check-in in with one atomic update: the count and the mood sum are added, the day joins the set.
 * Each part is commutative, so any number of check-ins at once all land in any order, with no retry loop.
 */
export async function recordProgress(
  progress: Model<ProgressRecord>,
  userId: string,
  mood: number,
  day: number,
): Promise<void> {
  const { word, mask } = dayBit(day);
  const fold = () =>
    keptRecords(progress).updateOne(
      { _id: userId },
      { $inc: { entries: 1, moodSum: mood }, $bit: { [`dayBits.${word}`]: { or: mask } } },
      { upsert: true },
    );
  try {
    await fold();
  } catch (error) {
    // Two first check-ins at once: both upserts inserted and one lost on the `_id`; the document exists now.
    if (!isDuplicateKeyError(error)) throw error;
    await fold();
  }
}

/** The local days with a check-in of a kept record, ascending (those kept as a list before the bits too). */
export function daysOfRecord(record: ProgressRecord | null): number[] {
  const days = daysOfBits(record?.dayBits);
  return record?.days?.length ? ascendingDays([...days, ...record.days]) : days;
}

/** The current and longest streak of a kept record (none kept: no streak). */
export function streaksOfRecord(record: ProgressRecord | null, today: number): Streaks {
  // Only a record kept in an earlier shape needs its days listed; bits alone are read in one pass.
  if (!record?.days?.length && !record?.streak) return streaksOfBits(record?.dayBits, today);
  return streaksOf(daysOfRecord(record), today, record.streak ?? noStreak);
}

/**
 * Takes one deleted check-in out again with one atomic update: the count and the mood sum go down by it, and its
 * day leaves the set unless another of the user's check-ins falls on it.
 */
export async function forgetProgress(
  progress: Model<ProgressRecord>,
  userId: string,
  checkIn: { mood: number; day: number; dayKeepsOthers: boolean },
): Promise<void> {
  const { word, mask } = dayBit(checkIn.day);
  await keptRecords(progress).updateOne(
    { _id: userId },
    {
      $inc: { entries: -1, moodSum: -checkIn.mood },
      ...(checkIn.dayKeepsOthers
        ? {}
        : { $bit: { [`dayBits.${word}`]: { and: ~mask } }, $pull: { days: checkIn.day } }),
    },
  );
}

/** Follows one edited check-in with one atomic update: the mood sum moves by the change; its day stays. */
export async function reviseProgress(
  progress: Model<ProgressRecord>,
  userId: string,
  change: { previousMood: number; mood: number },
): Promise<void> {
  if (change.mood === change.previousMood) return;
  await progress.updateOne({ _id: userId }, { $inc: { moodSum: change.mood - change.previousMood } });
}
