import type { PersonKeyring } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import type { CheckInTally, DayTally } from '../domain/weekly-summary';

/**
 * What the weekly summary needs of one user's check-ins, from the quote service's `quote.generated`
 * events: per local day the number of check-ins and the sum of their moods (the last `keptDays` only),
 * the streak's running state, and the latest quote ids (so a repeated event counts once). No notes, no
 * quote text. Personal data: exported and erased with the account (events/erasure.ts); `_id` is the user id. The
 * days (each day's moods) are stored sealed under the person's key, as one value; a tally kept before they were
 * holds them as a clear list, read as it is.
 */
export interface WeeklyCheckInsRecord extends Omit<CheckInTally, 'days'> {
  _id: string; // the user id
  days: StoredDays;
  /** Compare-and-set guard: two writers of one user's tally never both win. */
  revision: number;
  updatedAt: Date;
}

const weeklyCheckInsSchema = new Schema<WeeklyCheckInsRecord>(
  {
    _id: { type: String, required: true },
    // The sealed days, or the clear list of a tally kept before (written through the driver, read as stored).
    days: { type: Schema.Types.Mixed, default: [] },
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

/** A tally's days as stored: sealed under the person's key, or the clear list of a tally kept before. */
export type StoredDays = string | DayTally[];

/** The days of a stored tally, opened with the person's key; null when they no longer open (the key is gone). */
export async function openDays(keyring: PersonKeyring, userId: string, stored: StoredDays): Promise<DayTally[] | null> {
  if (typeof stored !== 'string') return stored;
  const opened = await keyring.open(userId, stored);
  return opened === null ? null : (JSON.parse(opened) as DayTally[]);
}

/** The days as they are stored: sealed under the person's key. */
export function sealDays(keyring: PersonKeyring, userId: string, days: DayTally[]): Promise<string> {
  return keyring.seal(userId, JSON.stringify(days));
}
