import type mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { dayNumber } from '../src/domain/progress';
import { progressModel, recordProgress, streaksOfRecord } from '../src/model/progress';
import { useOwnDatabase } from '../../../tools/testing/own-database';

let connection: mongoose.Connection;

useOwnDatabase('progress', (opened) => (connection = opened));

it('folds in twenty check-ins of one user made at once, every one of them', async () => {
  const progress = progressModel(connection);
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const day = dayNumber(new Date(), 'UTC');
  await Promise.all(Array.from({ length: 20 }, (_, index) => recordProgress(progress, userId, 1 + (index % 5), day)));
  // Moods 1 to 5, four times each: 60.
  const kept = await progress.findById(userId).lean();
  expect(kept).toMatchObject({ entries: 20, moodSum: 60, days: [day] });
  expect(streaksOfRecord(kept, day)).toEqual({ current: 1, longest: 1 });
});

it('folds in check-ins of five days arriving at once and out of order into the right streaks', async () => {
  const progress = progressModel(connection);
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const today = dayNumber(new Date(), 'UTC');
  // Three days ending today, a gap, two days before it; each day three times.
  const days = [today, today - 1, today - 2, today - 4, today - 5];
  await Promise.all(days.flatMap((day) => [1, 2, 3].map(() => recordProgress(progress, userId, 3, day))));
  const kept = await progress.findById(userId).lean();
  expect(kept).toMatchObject({ entries: 15, moodSum: 45 });
  expect([...kept!.days].sort((a, b) => a - b)).toEqual([...days].sort((a, b) => a - b));
  expect(streaksOfRecord(kept, today)).toEqual({ current: 3, longest: 3 });
});

it('reads a record kept before the days were by its running streak', async () => {
  const progress = progressModel(connection);
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const today = dayNumber(new Date(), 'UTC');
  await progress.collection.insertOne({
    _id: userId as never,
    entries: 9,
    moodSum: 27,
    streak: { lastDay: today - 1, run: 2, longest: 5 },
  });
  await recordProgress(progress, userId, 3, today);
  const kept = await progress.findById(userId).lean();
  expect(kept).toMatchObject({ entries: 10, moodSum: 30, days: [today] });
  expect(streaksOfRecord(kept, today)).toEqual({ current: 3, longest: 5 });
});
