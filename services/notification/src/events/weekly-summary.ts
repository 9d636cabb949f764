/**
 * The weekly summary e-mail's tally (opt-in): a consumer keeps each user's check-in tally from the quote service's
 * `quote.generated` events (never a call into the quote service's data). The summary itself is sent by
 * jobs/weekly-summary.ts.
 */
import { collectionOf, isDuplicateKeyError, recordById, type ConsumerSpec, type PersonKeyring } from '@haven/platform';
import { dayNumber } from '@haven/domain';
import { timestampDate, topicOf } from '@haven/proto';
import type { Model } from 'mongoose';
import { foldCheckIn, keptDays, reviseCheckIn, unfoldCheckIn, type CheckInTally } from '../domain/weekly-summary';
import { timeZoneOf, type KnownUserRecord } from '../model/known-user';
import { openDays, sealDays, type WeeklyCheckInsRecord } from '../model/weekly-check-ins';

const emptyTally: CheckInTally = { days: [], recentQuoteIds: [], streak: { lastDay: null, run: 0, longest: 0 } };

/** Where the tallies are kept, and the keyring their days are sealed with. */
export interface TallyStore {
  tallies: Model<WeeklyCheckInsRecord>;
  keyring: PersonKeyring;
}

/**
 * Changes the user's tally as `change` says: a compare-and-set on the tally's revision, retried a few times.
 * Written through the driver: the tally is the pure fold's output, and casting its lists through mongoose on
 * every check-in cost more than the write. The days are opened and sealed again with the person's key; a tally
 * whose days no longer open (the person's key is gone: an erasure on its way) is left alone.
 */
async function changeTally(
  store: TallyStore,
  userId: string,
  change: (tally: CheckInTally) => CheckInTally | null,
): Promise<void> {
  const records = collectionOf(store.tallies);
  for (let attempt = 1; ; attempt += 1) {
    const current = await records.findOne({ _id: userId });
    const currentDays = current ? await openDays(store.keyring, userId, current.days) : [];
    if (!currentDays) return;
    const next = change(current ? { ...current, days: currentDays } : emptyTally);
    if (!next) return;
    const updatedAt = new Date();
    const { recentQuoteIds, streak } = next;
    const days = await sealDays(store.keyring, userId, next.days);
    if (!current) {
      try {
        await records.insertOne({ _id: userId, days, recentQuoteIds, streak, revision: 1, updatedAt });
        return;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    } else {
      const written = await records.updateOne(
        { _id: userId, revision: current.revision },
        { $set: { days, recentQuoteIds, streak, revision: current.revision + 1, updatedAt } },
      );
      if (written.modifiedCount === 1) return;
    }
    if (attempt >= 5) throw new Error(`the check-in tally of ${userId} kept changing while it was written`);
  }
}

/** Folds one check-in into the user's tally. */
export function recordCheckIn(
  store: TallyStore,
  userId: string,
  checkIn: { quoteId: string; day: number; mood: number },
  keepFrom: number,
): Promise<void> {
  return changeTally(store, userId, (tally) => foldCheckIn(tally, checkIn, keepFrom));
}

/** Keeps the tallies from the quote service's events, in a group of its own. */
export function weeklySummaryConsumer(deps: TallyStore & { knownUsers: Model<KnownUserRecord> }): ConsumerSpec {
  /** A check-in's day in the zone the user has when its event arrives, as the quote service counts it. */
  const dayOf = async (userId: string, createdAt: Parameters<typeof timestampDate>[0]) => {
    const timeZone = timeZoneOf(await recordById(deps.knownUsers, userId, { timeZone: 1 }));
    return {
      day: dayNumber(timestampDate(createdAt), timeZone),
      keepFrom: dayNumber(new Date(), timeZone) - keptDays + 1,
    };
  };
  return {
    groupId: 'notification-weekly-summary',
    topics: [topicOf('quote')],
    handlers: {
      'quote.generated': async (event) => {
        if (!event.createdAt) return;
        const { day, keepFrom } = await dayOf(event.userId, event.createdAt);
        await recordCheckIn(deps, event.userId, { quoteId: event.quoteId, day, mood: event.moodScore }, keepFrom);
      },
      // The person deleted the entry: the summary no longer counts it.
      'quote.entry_deleted': async (event) => {
        if (!event.createdAt) return;
        const { day, keepFrom } = await dayOf(event.userId, event.createdAt);
        await changeTally(deps, event.userId, (tally) =>
          unfoldCheckIn(tally, { day, mood: event.moodScore }, keepFrom),
        );
      },
      // The person changed the entry's ratings: the summary counts its new mood.
      'quote.entry_edited': async (event) => {
        if (!event.createdAt) return;
        const { day, keepFrom } = await dayOf(event.userId, event.createdAt);
        await changeTally(deps, event.userId, (tally) =>
          reviseCheckIn(tally, { day, previousMood: event.previousMoodScore, mood: event.moodScore }, keepFrom),
        );
      },
    },
  };
}
