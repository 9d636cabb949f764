import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { testInfra } from '../../../tools/testing/test-env';
import { dayNumber } from '../src/domain/progress';
import { progressModel, recordProgress } from '../src/model/progress';

let connection: mongoose.Connection;

beforeAll(async () => {
  connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `progress_${randomBytes(4).toString('hex')}` })
    .asPromise();
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

it('folds in twenty check-ins of one user made at once, every one of them', async () => {
  const progress = progressModel(connection);
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const day = dayNumber(new Date(), 'UTC');
  await Promise.all(Array.from({ length: 20 }, (_, index) => recordProgress(progress, userId, 1 + (index % 5), day)));
  // Moods 1 to 5, four times each: 60.
  expect(await progress.findById(userId).lean()).toMatchObject({ entries: 20, moodSum: 60, streak: { run: 1 } });
});
