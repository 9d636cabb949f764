/**
 * The lease against the real (embedded) database: one holder at a time, taken over only once it has expired or
 * been released, and renewed by a busy holder at most once per third of its length.
 */
import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { createLease, leasesCollection } from '../src';
import { testInfra } from '../../../tools/testing/test-env';

let connection: mongoose.Connection;

beforeAll(async () => {
  connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `t${randomBytes(4).toString('hex')}_lease` })
    .asPromise();
});

afterAll(async () => {
  await connection.dropDatabase().catch(() => undefined);
  await connection.close();
});

it('keeps one holder, renews it at most once a third of the lease, and hands it over on expiry or release', async () => {
  let now = 1_800_000_000_000;
  const clock = () => now;
  const ms = 15_000;
  const first = createLease(connection, 'job', { ms, clock });
  const second = createLease(connection, 'job', { ms, clock });
  const expiry = async () =>
    (await connection.collection(leasesCollection).findOne({ _id: 'job' as never }))?.expiresAt as Date;

  expect(await first.hold()).toBe(true);
  expect(await second.hold()).toBe(false);
  expect((await expiry()).getTime()).toBe(now + ms);

  // Passes within a third of the lease leave it as it is: two thirds of it are still the holder's.
  const renewed = now;
  now += ms / 3 - 1;
  expect(await first.hold()).toBe(true);
  expect((await expiry()).getTime()).toBe(renewed + ms);
  expect(await second.hold()).toBe(false);

  // Past a third it is written again.
  now += 1;
  expect(await first.hold()).toBe(true);
  expect((await expiry()).getTime()).toBe(now + ms);

  // A holder that stops renewing loses it once it has expired, and learns so on its next renewal.
  now += ms;
  expect(await second.hold()).toBe(true);
  expect(await first.hold()).toBe(false);

  // Released, it is free at once; the former holder no longer counts itself as holding it.
  await second.release();
  expect(await first.hold()).toBe(true);
  expect(await second.hold()).toBe(false);
});
