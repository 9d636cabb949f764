/**
 * The analytics page's check-ins, read in one query where it can: the mood history's latest check-ins and the
 * insight window's, each as its own query would give them, for a person who checks in rarely, daily, or often.
 * Their ratings are read whichever way they were stored: sealed under the person's key, or in clear (before).
 */
import { personKeyring } from '@haven/platform';
import type mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { dimensions, type Ratings } from '../src/domain/assessment';
import { insightSamplesMax } from '../src/domain/insights';
import { analyticsCheckInsOf, checkInModel, insightSamplesOf, sealCheckInRatings } from '../src/model/check-in';
import { useOwnDatabase } from '../../../tools/testing/own-database';

let connection: mongoose.Connection;

useOwnDatabase('analytics_reads', (opened) => (connection = opened));

const hourMs = 60 * 60 * 1000;
const historyLength = 30;
const dataKey = randomBytes(32);
const keyring = personKeyring(async () => dataKey);

const ratingsAt = (index: number) =>
  Object.fromEntries(dimensions.map((dimension, d) => [dimension, 1 + ((index + d) % 5)])) as Ratings;

/**
 * A person with check-ins `every` hours apart back from now, each rating telling them apart: every other one
 * stored as check-ins were before their ratings were sealed.
 */
async function personWith(count: number, everyHours: number): Promise<string> {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const now = Date.now();
  await checkInModel(connection).insertMany(
    await Promise.all(
      Array.from({ length: count }, async (_, index) => ({
        _id: randomUUID(),
        userId,
        ...(index % 2 === 0
          ? { ratings: await sealCheckInRatings(keyring, userId, ratingsAt(index)) }
          : ratingsAt(index)),
        timeOfDay: 'morning',
        notes: null,
        createdAt: new Date(now - index * everyHours * hourMs - 1_000),
      })),
    ),
  );
  return userId;
}

it.each([
  ['rarely (5 check-ins, a week apart)', 5, 24 * 7],
  ['daily (40 check-ins)', 40, 24],
  ['often (45 check-ins in five days)', 45, 2.5],
  ['more often than the window holds', insightSamplesMax + 20, 1],
])('reads what the two queries would for someone checking in %s', async (_who, count, everyHours) => {
  const userId = await personWith(count, everyHours);
  const checkIns = checkInModel(connection);
  const now = new Date();
  const { latest, samples } = await analyticsCheckInsOf(checkIns, keyring, userId, now, historyLength);

  const expectedLatest = await checkIns
    .find({ userId })
    .sort({ createdAt: -1 })
    .limit(historyLength)
    .lean<Array<{ createdAt: Date }>>();
  expect(latest.map((sample) => sample.createdAt)).toEqual(expectedLatest.map((record) => record.createdAt));
  expect(latest.map((sample) => sample.ratings)).toEqual(expectedLatest.map((_, index) => ratingsAt(index)));
  expect(samples).toEqual(await insightSamplesOf(checkIns, keyring, userId, now));
  expect(samples.length).toBeGreaterThan(0);
});
