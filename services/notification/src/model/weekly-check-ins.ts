import { Schema, type Connection, type Model } from 'mongoose';
import type { CheckInTally } from '../domain/weekly-summary';

/**
 * What the weekly summary needs of one user's check-ins, from the quote service's `quote.generated`
 * events: per local day the number of check-ins and the sum of their moods (the last `keptDays` only),
 * the streak's running state, and the latest quote ids (so a repeated event counts once). No notes, no
 * quote text. Personal data: exported and erased with the account (events/erasure.ts); `_id` is the user id.
 */
export interface WeeklyCheckInsRecord extends CheckInTally {
  _id: string; // the user id
  /** Compare-and-set guard: two writers of one user's tally never both win. */
  revision: number;
  updatedAt: Date;
}

const dayTallySchema = new Schema(
  {
    day: { type: Number, required: true },
    checkIns: { type: Number, required: true },
    moodSum: { type: Number, required: true },
  },
  { _id: false },
);

const weeklyCheckInsSchema = new Schema<WeeklyCheckInsRecord>(
  {
    _id: { type: String, required: true },
    days: { type: [dayTallySchema], default: [] },
    recentQuoteIds: { type: [String], default: [] },
    streak: {
      lastDay: { type: Number, default: null, index: true },
      run: { type: Number, default: 0 },
      longest: { type: Number, default: 0 },
    },
    revision: { type: Number, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'weekly_check_ins', versionKey: false },
);

export function weeklyCheckInsModel(connection: Connection): Model<WeeklyCheckInsRecord> {
  return connection.model<WeeklyCheckInsRecord>('WeeklyCheckIns', weeklyCheckInsSchema);
}
