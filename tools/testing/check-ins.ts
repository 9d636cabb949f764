/**
 * Check-ins for tests: ratings of a known mood, and a check-in and its quote stored on a chosen day, straight into
 * the quote service's database: the API only ever stores one at the present moment, and the calendar and the
 * ?date= filter are about other days.
 */
import { checkInDimensions } from '@haven/domain';
import { randomUUID } from 'node:crypto';
import { emotionalStateOf } from '../../services/quote/src/domain/progress';
import type { Ratings } from '../../services/quote/src/domain/assessment';
import type { TestHaven } from './haven';

/** Every rating at 3, the middle of the scale: what a check-in stores for a rating it leaves out. */
export const steadyRatings: Readonly<Ratings> = Object.fromEntries(
  checkInDimensions.map((dimension) => [dimension, 3]),
) as Ratings;

/** Mood 4: the six mood values one step from the middle toward the light end, the rest at 3. */
export const calmRatings: Readonly<Ratings> = {
  ...steadyRatings,
  stressLevel: 2,
  anxietyLevel: 2,
  confidenceLevel: 4,
  motivationLevel: 4,
  hopeForFuture: 4,
  gratitudeLevels: 4,
};

/** Mood 2: the six mood values one step from the middle toward the heavy end, the rest at 3. */
export const heavyRatings: Readonly<Ratings> = {
  ...steadyRatings,
  stressLevel: 4,
  anxietyLevel: 4,
  confidenceLevel: 2,
  motivationLevel: 2,
  hopeForFuture: 2,
  gratitudeLevels: 2,
};

/** Stores a check-in of all 3s at `at`, with a quote reading `text` (a favourite when said); returns the quote's id. */
export async function storeCheckInAt(
  haven: Pick<TestHaven, 'collection'>,
  userId: string,
  at: Date,
  text = `A steady moment, kept on ${at.toISOString()}.`,
  { isFavorite = false }: { isFavorite?: boolean } = {},
): Promise<string> {
  const ratings = steadyRatings;
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
