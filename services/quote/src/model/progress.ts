import { Schema, type Connection, type Model } from 'mongoose';
import { setTimeout as sleep } from 'node:timers/promises';
import { noStreak, recordDay, type StreakState } from '../domain/progress';

/**
 * What the progress and analytics pages need from a user's whole history, kept up to date at each
 * check-in so reading it costs one document whatever the history's length: the mood sum and the count
 * (average mood), and the streak state (current and longest). Days are counted in the time zone the
 * user had when they checked in.
 */
export interface ProgressRecord {
  _id: string; // the user id
  entries: number;
  moodSum: number;
  streak: StreakState;
}

const progressSchema = new Schema<ProgressRecord>(
  {
    _id: { type: String, required: true },
    entries: { type: Number, default: 0 },
    moodSum: { type: Number, default: 0 },
    streak: {
      lastDay: { type: Number, default: null },
      run: { type: Number, default: 0 },
      longest: { type: Number, default: 0 },
    },
  },
  { collection: 'progress', versionKey: false },
);

export function progressModel(connection: Connection): Model<ProgressRecord> {
  return connection.model<ProgressRecord>('Progress', progressSchema);
}

/**
 * How many times a check-in is folded in before giving up. Each round of concurrent writers has one winner, so
 * this many check-ins of one user at once all land (the check-in and its quote are already stored by then).
 */
const progressAttempts = 30;

/** Folds one check-in in; retried on a concurrent write (compare-and-set on the entry count). */
export async function recordProgress(
  progress: Model<ProgressRecord>,
  userId: string,
  mood: number,
  day: number,
): Promise<void> {
  for (let attempt = 0; attempt < progressAttempts; attempt += 1) {
    // Losers of a round spread out before reading again, so the next round is not the same crowd at once.
    if (attempt > 0) await sleep(Math.random() * 10 * Math.min(attempt, 5));
    const current = await progress.findById(userId).lean();
    const entries = current?.entries ?? 0;
    const update = {
      entries: entries + 1,
      moodSum: (current?.moodSum ?? 0) + mood,
      streak: recordDay(current?.streak ?? noStreak, day),
    };
    if (!current) {
      try {
        await progress.create({ _id: userId, ...update });
        return;
      } catch {
        continue; // someone else created it first
      }
    }
    const result = await progress.updateOne({ _id: userId, entries }, { $set: update });
    if (result.modifiedCount === 1) return;
  }
  throw new Error(`could not record progress for ${userId}`);
}
