import type mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { dayNumber, foldsRemembered } from '../src/domain/progress';
import { checkInModel } from '../src/model/check-in';
import {
  daysOfRecord,
  forgetProgress,
  progressModel,
  recordMissingProgress,
  recordProgress,
  streaksOfRecord,
} from '../src/model/progress';
import { useOwnDatabase } from '../../../tools/testing/own-database';

let connection: mongoose.Connection;

useOwnDatabase('progress', (opened) => (connection = opened));

it('folds in twenty check-ins of one user made at once, every one of them', async () => {
  const progress = progressModel(connection);
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const day = dayNumber(new Date(), 'UTC');
  await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      recordProgress(progress, userId, { id: `c${index}`, mood: 1 + (index % 5), day }),
    ),
  );
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
  await Promise.all(
    days.flatMap((day) => [1, 2, 3].map((n) => recordProgress(progress, userId, { id: `c${day}-${n}`, mood: 3, day }))),
  );
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
  await recordProgress(progress, userId, { id: 'today', mood: 3, day: today });
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
  await Promise.all(days.map((day) => recordProgress(progress, userId, { id: `c${day}`, mood: 4, day })));
  expect(daysOfRecord(await progress.findById(userId).lean())).toEqual(days);
  await forgetProgress(progress, userId, { id: `c${first + 1}`, mood: 4, day: first + 1, dayKeepsOthers: false });
  await forgetProgress(progress, userId, { id: `c${first + 2}`, mood: 4, day: first + 2, dayKeepsOthers: true });
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
  await recordProgress(progress, userId, { id: 'today', mood: 3, day: today });
  expect(streaksOfRecord(await progress.findById(userId).lean(), today)).toEqual({ current: 3, longest: 3 });
  await forgetProgress(progress, userId, { id: 'yesterday', mood: 3, day: today - 1, dayKeepsOthers: false });
  const kept = await progress.findById(userId).lean();
  expect(daysOfRecord(kept)).toEqual([today - 2, today]);
  expect(streaksOfRecord(kept, today)).toEqual({ current: 1, longest: 1 });
});

it('folds in the same check-in once, however often and at once it comes, even as the first of its user', async () => {
  const progress = progressModel(connection);
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const today = dayNumber(new Date(), 'UTC');
  const checkIn = { id: 'first', mood: 4, day: today };
  await Promise.all([1, 2, 3].map(() => recordProgress(progress, userId, checkIn)));
  await recordProgress(progress, userId, checkIn);
  await recordProgress(progress, userId, { id: 'second', mood: 2, day: today });
  expect(await progress.findById(userId).lean()).toMatchObject({ entries: 2, moodSum: 6, folded: ['first', 'second'] });
});

it('remembers only the latest folds, and a deleted check-in leaves them so its key can be folded in afresh', async () => {
  const progress = progressModel(connection);
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const today = dayNumber(new Date(), 'UTC');
  const ids = Array.from({ length: foldsRemembered + 6 }, (_, index) => `c${index}`);
  for (const id of ids) await recordProgress(progress, userId, { id, mood: 3, day: today });
  expect((await progress.findById(userId).lean())?.folded).toEqual(ids.slice(-foldsRemembered));

  const latest = ids.at(-1)!;
  await forgetProgress(progress, userId, { id: latest, mood: 3, day: today, dayKeepsOthers: true });
  await recordProgress(progress, userId, { id: latest, mood: 5, day: today });
  const kept = await progress.findById(userId).lean();
  expect(kept).toMatchObject({ entries: ids.length, moodSum: 3 * (ids.length - 1) + 5 });
  expect(kept?.folded?.at(-1)).toBe(latest);
});

describe('a stored check-in whose fold is missing', () => {
  const stored = async (userId: string, id: string, createdAt: Date) => {
    const ratings = { stressLevel: 3, confidenceLevel: 3, motivationLevel: 3, anxietyLevel: 3, hopeForFuture: 3 };
    await checkInModel(connection).collection.insertOne({ _id: id as never, userId, ...ratings, createdAt });
    return { id, mood: 3, day: dayNumber(createdAt, 'UTC'), createdAt };
  };

  it('is folded in by its repeat, once', async () => {
    const progress = progressModel(connection);
    const checkIns = checkInModel(connection);
    const userId = `u-${randomBytes(4).toString('hex')}`;
    const now = Date.now();
    const folded = await stored(userId, 'folded', new Date(now - 2_000));
    const missing = await stored(userId, 'missing', new Date(now - 1_000));
    const later = await stored(userId, 'later', new Date(now));
    await recordProgress(progress, userId, folded);
    await recordProgress(progress, userId, later);

    await recordMissingProgress(progress, checkIns, userId, missing);
    await recordMissingProgress(progress, checkIns, userId, missing);
    await recordMissingProgress(progress, checkIns, userId, folded);
    expect(await progress.findById(userId).lean()).toMatchObject({ entries: 3, moodSum: 9 });
  });

  it('is folded in as the first of its user', async () => {
    const progress = progressModel(connection);
    const userId = `u-${randomBytes(4).toString('hex')}`;
    const first = await stored(userId, 'first', new Date());
    await recordMissingProgress(progress, checkInModel(connection), userId, first);
    expect(await progress.findById(userId).lean()).toMatchObject({ entries: 1, folded: ['first'] });
  });

  it('is taken as folded in when the record kept no memory of its folds then', async () => {
    const progress = progressModel(connection);
    const userId = `u-${randomBytes(4).toString('hex')}`;
    const earlier = await stored(userId, 'before-memory', new Date(Date.now() - 1_000));
    await progress.collection.insertOne({ _id: userId as never, entries: 5, moodSum: 15 });
    await recordProgress(progress, userId, await stored(userId, 'after-memory', new Date()));
    await recordMissingProgress(progress, checkInModel(connection), userId, earlier);
    expect(await progress.findById(userId).lean()).toMatchObject({ entries: 6, moodSum: 18 });
  });
});
