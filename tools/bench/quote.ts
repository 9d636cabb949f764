/**
 * The quote service's part of `make bench`: a history of check-ins over years for one user, written straight into
 * the quote service's database as generateQuote stores them today (ratings, emotional state and quote sealed under
 * the person's data key, with the service's own sealing functions), then read back through the gateway to be sure
 * the measured pages open it. The bench users' trials are started through the REST facade
 * (tools/testing/subscription.ts), never written into billing.
 */
import { collectionOf, personKeyring, type PersonKeyring, type PersonKeySource } from '@haven/platform';
import mongoose from 'mongoose';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { dimensions, type Ratings } from '../../services/quote/src/domain/assessment';
import {
  bitsOfDays,
  dayNumber,
  emotionalStateOf,
  foldsRemembered,
  moodOf,
  type EmotionalState,
} from '../../services/quote/src/domain/progress';
import { checkInModel, sealCheckInRatings, type CheckInRecord } from '../../services/quote/src/model/check-in';
import { progressModel, type ProgressRecord } from '../../services/quote/src/model/progress';
import { quoteModel, sealEmotionalState, type QuoteRecord } from '../../services/quote/src/model/quote';

/** The words of every seeded quote (sealed like a written one). */
export const seededQuoteText = 'A seeded quote for the benchmark.';

/** The ratings of the history's check-in number `index`: each 1–5, shifting from one check-in to the next. */
export function seededRatings(index: number): Ratings {
  return Object.fromEntries(dimensions.map((dimension, i) => [dimension, 1 + ((index + i) % 5)])) as Ratings;
}

/** What the seed stores, as the quote service stores it once a check-in's event is published. */
export interface SeededHistory {
  checkIns: CheckInRecord[];
  quotes: QuoteRecord[];
  progress: ProgressRecord;
}

/**
 * The records of `count` check-ins with their quotes, spread over `years` up to `now`, and the user's kept
 * progress, sealed with `keyring` as generateQuote seals them. Days are counted in UTC, as for a person whose time
 * zone the quote service has not heard of.
 */
export async function seededHistory(
  keyring: PersonKeyring,
  userId: string,
  count: number,
  years: number,
  now: number,
): Promise<SeededHistory> {
  const span = years * 365 * 86_400_000;
  const entries = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const createdAt = new Date(now - span + Math.round((span * index) / count));
      const ratings = seededRatings(index);
      const checkInId = randomUUID();
      const [sealedRatings, text, emotionalState] = await Promise.all([
        sealCheckInRatings(keyring, userId, ratings),
        keyring.seal(userId, seededQuoteText),
        sealEmotionalState(keyring, userId, emotionalStateOf(ratings)),
      ]);
      const checkIn: CheckInRecord = {
        _id: checkInId,
        userId,
        ratings: sealedRatings,
        timeOfDay: 'morning',
        notes: null,
        createdAt,
      };
      const quote: QuoteRecord = {
        _id: randomUUID(),
        userId,
        checkInId,
        text,
        messageId: `stressLevel.any.${index % 8}`,
        timeOfDay: 'morning',
        emotionalState,
        // A favourite is a quote its writer marked later (setQuoteFavorite): one in ten.
        isFavorite: index % 10 === 0,
        createdAt,
        // Its quote.generated event published: the relay has pulled it from the log.
        outbox: [],
        outboxVersion: 1,
      };
      return { checkIn, quote, mood: moodOf(ratings), day: dayNumber(createdAt, 'UTC') };
    }),
  );
  return {
    checkIns: entries.map((entry) => entry.checkIn),
    quotes: entries.map((entry) => entry.quote),
    progress: {
      _id: userId,
      entries: count,
      moodSum: entries.reduce((sum, entry) => sum + entry.mood, 0),
      dayBits: bitsOfDays(new Set(entries.map((entry) => entry.day))),
      folded: entries.slice(-foldsRemembered).map((entry) => entry.checkIn._id),
    },
  };
}

/**
 * Writes a history of `count` check-ins over `years` for `userId` into the quote database. The person's data key
 * is asked of the user service once (`keys`, as the quote service reaches it), then every value is sealed in memory.
 */
export async function seedHistory(options: {
  mongoUrl: string;
  keys: PersonKeySource;
  userId: string;
  count?: number;
  years?: number;
}): Promise<void> {
  const { mongoUrl, userId, count = 1000, years = 3 } = options;
  const key = await options.keys(userId);
  if (!key) throw new Error(`the user service has no data key for ${userId}`);
  const history = await seededHistory(
    personKeyring(async () => key),
    userId,
    count,
    years,
    Date.now(),
  );
  const connection = await mongoose.createConnection(mongoUrl, { dbName: 'haven_quote' }).asPromise();
  try {
    // Through the driver, as the service inserts them: the records are stored exactly as built.
    await collectionOf(checkInModel(connection)).insertMany(history.checkIns);
    await collectionOf(quoteModel(connection)).insertMany(history.quotes);
    await collectionOf(progressModel(connection)).insertOne(history.progress);
  } finally {
    await connection.close();
  }
}

const expectedMood = (index: number) => Math.round(moodOf(seededRatings(index)) * 100) / 100;

/**
 * What is wrong with the pages a seeded history of `count` check-ins shows (the analytics page's and the recent
 * quotes' JSON): empty when they show it all, opened. A bench that measured pages unable to open the history
 * would measure nothing.
 */
export function seededHistoryProblems(count: number, analytics: unknown, recent: unknown): string[] {
  const problems: string[] = [];
  const page = analytics as { totalEntries?: unknown; moodTrends?: { moodHistory?: unknown } } | null;
  if (page?.totalEntries !== count)
    problems.push(`analytics: totalEntries ${String(page?.totalEntries)}, not ${count}`);
  // Newest first: the latest check-ins' moods, worked out from their opened ratings.
  const history = page?.moodTrends?.moodHistory;
  const opened =
    Array.isArray(history) && history.length > 0 && history.every((mood, i) => mood === expectedMood(count - 1 - i));
  if (!opened) {
    problems.push(`analytics: moodHistory ${JSON.stringify(history)}, not the seeded moods`);
  }
  const quotes = (recent as { quotes?: unknown } | null)?.quotes;
  if (!Array.isArray(quotes) || quotes.length === 0) {
    problems.push(`recent quotes: none (${JSON.stringify(recent)?.slice(0, 200)})`);
    return problems;
  }
  quotes.forEach((quote: { text?: unknown; emotionalState?: unknown }, i) => {
    const state: EmotionalState = emotionalStateOf(seededRatings(count - 1 - i));
    if (quote.text !== seededQuoteText) problems.push(`recent quote ${i}: text ${JSON.stringify(quote.text)}`);
    if (!isDeepStrictEqual(quote.emotionalState, state)) {
      problems.push(`recent quote ${i}: emotionalState ${JSON.stringify(quote.emotionalState)}, not the seeded one`);
    }
  });
  return problems;
}

/** Reads the seeded history back through the gateway as its person; throws unless the pages show all of it. */
export async function checkSeededHistory(gatewayUrl: string, cookie: string, count: number): Promise<void> {
  const read = async (path: string) => {
    const response = await fetch(`${gatewayUrl}${path}`, { headers: { cookie }, signal: AbortSignal.timeout(60_000) });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${body.slice(0, 300)}`);
    return JSON.parse(body) as unknown;
  };
  const [analytics, recent] = await Promise.all([read('/api/user/analytics'), read('/api/quotes/recent')]);
  const problems = seededHistoryProblems(count, analytics, recent);
  if (problems.length > 0) throw new Error(`the seeded history does not read back: ${problems.join('; ')}`);
}
