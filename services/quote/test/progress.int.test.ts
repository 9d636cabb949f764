import type mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { dayNumber } from '../src/domain/progress';
import { daysOfRecord, forgetProgress, progressModel, recordProgress, streaksOfRecord } from '../src/model/progress';
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
  expect(kept).toMatchObject({ entries: 20, moodSum: 60 });
  expect(daysOfRecord(kept)).toEqual([day]);
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
  expect(daysOfRecord(kept)).toEqual([...days].sort((a, b) => a - b));
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
  expect(kept).toMatchObject({ entries: 10, moodSum: 30 });
  expect(daysOfRecord(kept)).toEqual([today]);
  expect(streaksOfRecord(kept, today)).toEqual({ current: 3, longest: 5 });
});

it('keeps days across words and on the sign bit, and a deleted day leaves again', async () => {
  const progress = progressModel(connection);
  const userId = `u-${randomBytes(4).toString('hex')}`;
  // Four days from the last two bits of one word (the 31st is the sign bit) into the next word.
  const first = Math.floor(dayNumber(new Date(), 'UTC') / 32) * 32 - 2;
  const days = [first, first + 1, first + 2, first + 3];
  await Promise.all(days.map((day) => recordProgress(progress, userId, 4, day)));
  expect(daysOfRecord(await progress.findById(userId).lean())).toEqual(days);
  await forgetProgress(progress, userId, { mood: 4, day: first + 1, dayKeepsOthers: false });
  await forgetProgress(progress, userId, { mood: 4, day: first + 2, dayKeepsOthers: true });
  const kept = await progress.findById(userId).lean();
  expect(kept).toMatchObject({ entries: 2, moodSum: 8 });
  expect(daysOfRecord(kept)).toEqual([first, first + 2, first + 3]);
  expect(streaksOfRecord(kept, first + 3)).toEqual({ current: 2, longest: 2 });
});

it('reads the days a record kept as a list before the bits, and a deleted day leaves the list too', async () => {
  const progress = progressModel(connection);
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const today = dayNumber(new Date(), 'UTC');
  await progress.collection.insertOne({ _id: userId as never, entries: 2, moodSum: 6, days: [today - 2, today - 1] });
  await recordProgress(progress, userId, 3, today);
  expect(streaksOfRecord(await progress.findById(userId).lean(), today)).toEqual({ current: 3, longest: 3 });
  await forgetProgress(progress, userId, { mood: 3, day: today - 1, dayKeepsOthers: false });
  const kept = await progress.findById(userId).lean();
  expect(daysOfRecord(kept)).toEqual([today - 2, today]);
  expect(streaksOfRecord(kept, today)).toEqual({ current: 1, longest: 1 });
});
