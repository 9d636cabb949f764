/**
 * The quote service's part of `make bench`: a history of 1,000 check-ins over three years for one
 * user, written straight into the quote service's database (the same documents generateQuote writes). The bench
 * users' trials are started through the REST facade (tools/testing/subscription.ts), never written into billing.
 */
import mongoose from 'mongoose';
import { randomUUID } from 'node:crypto';
import { dimensions, type Ratings } from '../../services/quote/src/domain/assessment';
import { bitsOfDays, dayNumber, moodOf } from '../../services/quote/src/domain/progress';
import { checkInModel } from '../../services/quote/src/model/check-in';
import { progressModel } from '../../services/quote/src/model/progress';
import { quoteModel } from '../../services/quote/src/model/quote';

/** `count` check-ins with their quotes, spread over `years` up to now, and the user's kept progress. */
export async function seedHistory(mongoUrl: string, userId: string, count = 1000, years = 3): Promise<void> {
  const connection = await mongoose.createConnection(mongoUrl, { dbName: 'haven_quote' }).asPromise();
  try {
    const span = years * 365 * 86_400_000;
    const now = Date.now();
    const checkIns = [];
    const quotes = [];
    const days = new Set<number>();
    let moodSum = 0;
    for (let index = 0; index < count; index += 1) {
      const createdAt = new Date(now - span + Math.round((span * index) / count));
      const ratings = Object.fromEntries(dimensions.map((d, i) => [d, 1 + ((index + i) % 5)])) as Ratings;
      const checkInId = randomUUID();
      checkIns.push({ _id: checkInId, userId, ...ratings, timeOfDay: 'morning', notes: null, createdAt });
      quotes.push({
        _id: randomUUID(),
        userId,
        checkInId,
        text: 'A seeded quote for the benchmark.',
        messageId: `stressLevel.any.${index % 8}`,
        timeOfDay: 'morning',
        emotionalState: ratings,
        isFavorite: index % 10 === 0,
        createdAt,
      });
      days.add(dayNumber(createdAt, 'UTC'));
      moodSum += moodOf(ratings);
    }
    await checkInModel(connection).insertMany(checkIns);
    await quoteModel(connection).insertMany(quotes);
    await progressModel(connection).create({ _id: userId, entries: count, moodSum, dayBits: bitsOfDays(days) });
  } finally {
    await connection.close();
  }
}
