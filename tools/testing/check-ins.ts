/**
 * A check-in and its quote stored on a chosen day, straight into the quote service's database: the API only
 * ever stores one at the present moment, and the calendar and the ?date= filter are about other days.
 */
import { checkInDimensions } from '@haven/platform';
import { randomUUID } from 'node:crypto';
import { emotionalStateOf } from '../../services/quote/src/domain/progress';
import type { Ratings } from '../../services/quote/src/domain/assessment';
import type { TestHaven } from './haven';

/** Stores a check-in of all 3s at `at`, with a quote reading `text` (a favourite when said); returns the quote's id. */
export async function storeCheckInAt(
  haven: Pick<TestHaven, 'collection'>,
  userId: string,
  at: Date,
  text = `A steady moment, kept on ${at.toISOString()}.`,
  { isFavorite = false }: { isFavorite?: boolean } = {},
): Promise<string> {
  const ratings = Object.fromEntries(checkInDimensions.map((dimension) => [dimension, 3])) as Ratings;
  const checkInId = randomUUID();
  const quoteId = randomUUID();
  await (
    await haven.collection('quote', 'check_ins')
  ).insertOne({ _id: checkInId, userId, ...ratings, timeOfDay: 'morning', notes: null, createdAt: at });
  await (
    await haven.collection('quote', 'quotes')
  ).insertOne({
    _id: quoteId,
    userId,
    checkInId,
    text,
    messageId: 'test',
    timeOfDay: 'morning',
    emotionalState: emotionalStateOf(ratings),
    isFavorite,
    createdAt: at,
  });
  return quoteId;
}
