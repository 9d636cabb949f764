import { collectionOf, isDuplicateKeyError, recordById } from '@haven/platform';
import { Schema, type Connection, type Model, type mongo } from 'mongoose';
import {
  ascendingDays,
  dayBit,
  daysOfBits,
  foldIsMissing,
  foldsRemembered,
  noStreak,
  streaksOf,
  streaksOfBits,
  type DayBits,
  type FoldMemory,
  type StreakState,
  type Streaks,
} from '../domain/progress';
import type { CheckInRecord } from './check-in';

/**
 * What the progress and analytics pages need from a user's whole history, kept up to date at each
 * check-in so reading it costs one small document whatever the history's length: the mood sum and the count
 * (average mood), and each local day with a check-in (the streaks), as bits (domain/progress.ts, DayBits). Days
 * are counted in the time zone the user had when they checked in.
 */
export interface ProgressRecord extends FoldMemory {
  _id: string; // the user id
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
    folded: { type: [String], default: undefined },
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

/** The check-in a fold is about: its id, its mood and its local day. */
export interface FoldedCheckIn {
  id: string;
  mood: number;
  day: number;
}

/**
 * Folds one check-in in with one atomic update: the count and the mood sum are added, the day joins the set, the
 * id joins the latest folds. Each part is commutative, so any number of check-ins at once all land in any order,
 * with no retry loop; the same check-in again (a repeat after a lost reply) finds its id and changes nothing.
 */
export async function recordProgress(
  progress: Model<ProgressRecord>,
  userId: string,
  checkIn: FoldedCheckIn,
): Promise<void> {
  const { word, mask } = dayBit(checkIn.day);
  const fold = () =>
    keptRecords(progress).updateOne(
      { _id: userId, folded: { $ne: checkIn.id } },
      {
        $inc: { entries: 1, moodSum: checkIn.mood },
        $bit: { [`dayBits.${word}`]: { or: mask } },
        $push: { folded: { $each: [checkIn.id], $slice: -foldsRemembered } },
      },
      { upsert: true },
    );
  try {
    await fold();
  } catch (error) {
    // The record did not match, so the upsert inserted and lost on the `_id`: two first check-ins at once (the
    // record exists now), or this check-in already folded in (then the second try loses the same way).
    if (!isDuplicateKeyError(error)) throw error;
    await fold().catch((again: unknown) => {
      if (!isDuplicateKeyError(again)) throw again;
    });
  }
}

/**
 * Folds in a stored check-in again when its fold is provably missing (`foldIsMissing`): a check-in's repeat
 * finishes what its first request left undone when that failed after storing it.
 */
export async function recordMissingProgress(
  progress: Model<ProgressRecord>,
  checkIns: Model<CheckInRecord>,
  userId: string,
  checkIn: FoldedCheckIn & { createdAt: Date },
): Promise<void> {
  const [record, storedAfter] = await Promise.all([
    recordById(progress, userId, { entries: 1, folded: 1 }),
    collectionOf(checkIns).countDocuments({ userId, createdAt: { $gt: checkIn.createdAt } }),
  ]);
  if (foldIsMissing(record, checkIn.id, storedAfter)) await recordProgress(progress, userId, checkIn);
}

/** The local days with a check-in of a kept record, ascending (those kept as a list before the bits too). */
export function daysOfRecord(record: ProgressRecord | null): number[] {
  const days = daysOfBits(record?.dayBits);
  return record?.days?.length ? ascendingDays([...days, ...record.days]) : days;
}

/**
 * The check-ins folded into a kept record: the count the pages show. It is the stored check-ins' count but while a
 * check-in's fold is still to come (its request failed after storing it; its repeat folds it in).
 */
export function entriesOf(record: Pick<ProgressRecord, 'entries'> | null): number {
  return record?.entries ?? 0;
}

/** The average mood of a kept record's check-ins (0 when none). */
export function averageMoodOf(record: Pick<ProgressRecord, 'entries' | 'moodSum'> | null): number {
  return record && record.entries > 0 ? record.moodSum / record.entries : 0;
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
  checkIn: FoldedCheckIn & { dayKeepsOthers: boolean },
): Promise<void> {
  const { word, mask } = dayBit(checkIn.day);
  await keptRecords(progress).updateOne(
    { _id: userId },
    {
      $inc: { entries: -1, moodSum: -checkIn.mood },
      // Its id leaves the latest folds too: the same key may store a new check-in, to be folded in afresh.
      ...(checkIn.dayKeepsOthers
        ? { $pull: { folded: checkIn.id } }
        : { $bit: { [`dayBits.${word}`]: { and: ~mask } }, $pull: { days: checkIn.day, folded: checkIn.id } }),
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
