import type { Model } from 'mongoose';
import type { UserStats } from '../domain/stats';
import type { CheckInRecord } from './check-in';
import type { QuoteRecord } from './quote';

/**
 * The statistics of the users among `userIds` (the per-request loader's batch, one user but for an admin), each
 * from an index count that reads no entry: the check-ins (a check-in is saved with its one quote or not at all, so
 * this is the quotes' count too) and the favourites. A deleted entry's quote loses its favourite mark when it
 * becomes a tombstone, so the favourites are counted on the collection itself, without the plugin's tombstone
 * condition, which would read every favourite. Grouping every quote of the user instead costs as much as the
 * whole history, on every read of the analytics page.
 */
export async function countStatsByUserIds(
  quotes: Model<QuoteRecord>,
  checkIns: Model<CheckInRecord>,
  userIds: readonly string[],
): Promise<Map<string, UserStats>> {
  const counted = await Promise.all(
    userIds.map(async (userId): Promise<[string, UserStats]> => {
      const [entries, favorites] = await Promise.all([
        checkIns.collection.countDocuments({ userId }),
        countFavorites(quotes, userId),
      ]);
      return [userId, { totalQuotes: entries, totalEntries: entries, favoriteQuotes: favorites }];
    }),
  );
  return new Map(counted);
}

/** The user's favourites, counted on the index alone (as in `countStatsByUserIds`). */
export function countFavorites(quotes: Model<QuoteRecord>, userId: string): Promise<number> {
  return quotes.collection.countDocuments({ userId, isFavorite: true });
}
