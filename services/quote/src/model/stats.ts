import type { Model } from 'mongoose';
import type { UserStats } from '../domain/stats';
import type { CheckInRecord } from './check-in';
import type { QuoteRecord } from './quote';

/**
 * The statistics of the users among `userIds`: two aggregations whatever their number (the per-request
 * loader's batch), instead of three counts per user.
 */
export async function countStatsByUserIds(
  quotes: Model<QuoteRecord>,
  checkIns: Model<CheckInRecord>,
  userIds: readonly string[],
): Promise<Map<string, UserStats>> {
  const match = { $match: { userId: { $in: [...userIds] } } };
  // A deleted entry's quote stays as a tombstone until its last events are out; it counts no more.
  const liveQuotes = { $match: { userId: { $in: [...userIds] }, outboxTombstone: { $ne: true } } };
  const [quoteCounts, checkInCounts] = await Promise.all([
    quotes.aggregate<{ _id: string; total: number; favorites: number }>([
      liveQuotes,
      { $group: { _id: '$userId', total: { $sum: 1 }, favorites: { $sum: { $cond: ['$isFavorite', 1, 0] } } } },
    ]),
    checkIns.aggregate<{ _id: string; total: number }>([match, { $group: { _id: '$userId', total: { $sum: 1 } } }]),
  ]);
  const stats = new Map<string, UserStats>(
    userIds.map((id) => [id, { totalQuotes: 0, totalEntries: 0, favoriteQuotes: 0 }]),
  );
  for (const { _id, total, favorites } of quoteCounts) {
    const entry = stats.get(_id);
    if (entry) Object.assign(entry, { totalQuotes: total, favoriteQuotes: favorites });
  }
  for (const { _id, total } of checkInCounts) {
    const entry = stats.get(_id);
    if (entry) entry.totalEntries = total;
  }
  return stats;
}
