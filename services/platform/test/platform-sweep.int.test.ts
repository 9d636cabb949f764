/**
 * The platform's sweep against the real (embedded) database, which ignores TTL indexes, driven with a chosen
 * clock: a rate-limit log goes once its window is over, and processed-event ids go after the consumers' period
 * from every group's collection, also one no consumer reads any more. Other collections are not touched.
 */
import type mongoose from 'mongoose';
import {
  MongoRateLimitStore,
  processedEventRetentionMs,
  processedEventsCollection,
  rateLimitLogsCollection,
  sweepPlatformRecords,
} from '../src';
import { useOwnDatabase } from '../../../tools/testing/own-database';

let connection: mongoose.Connection;

useOwnDatabase('platform_sweep', (opened) => (connection = opened));

const minute = 60_000;
const day = 24 * 60 * minute;
// Ahead of the wall clock: on MongoDB the logs' TTL index would otherwise delete them before the sweep does.
const now = new Date('2036-11-28T12:00:00Z');
const at = (offset: number) => new Date(now.getTime() + offset);

it('deletes a rate-limit log once its newest hit has left the window, and keeps one still in it', async () => {
  const logs = connection.collection<{ _id: string; expiresAt: Date }>(rateLimitLogsCollection);
  let clock = at(-2 * minute).getTime();
  const store = new MongoRateLimitStore(connection, () => clock);
  const window = { max: 5, windowMs: minute };
  expect((await store.hit('login:done', 1, window)).allowed).toBe(true);
  clock = at(-30_000).getTime();
  expect((await store.hit('login:live', 1, window)).allowed).toBe(true);

  expect(await sweepPlatformRecords(connection, now)).toEqual({ rateLimitLogs: 1, processedEvents: 0 });
  expect((await logs.find().toArray()).map((log) => log._id)).toEqual(['login:live']);

  // Its window over too, the other goes; a sweep with nothing due deletes nothing.
  expect(await sweepPlatformRecords(connection, at(minute))).toEqual({ rateLimitLogs: 1, processedEvents: 0 });
  expect(await sweepPlatformRecords(connection, at(minute))).toEqual({ rateLimitLogs: 0, processedEvents: 0 });
  expect(await logs.countDocuments()).toBe(0);
});

it('deletes processed-event ids past the period in every group’s collection, a retired group’s included', async () => {
  expect(processedEventRetentionMs).toBe(14 * day);
  const processed = (id: string, processedAt: Date) => ({
    _id: id as never,
    type: 'user.registered',
    outcome: 'handled',
    processedAt,
  });
  // No consumer of this group runs, nor ever will again: nothing else would sweep it.
  const retired = connection.collection(processedEventsCollection('notification-welcome-v1'));
  const live = connection.collection(processedEventsCollection('quote'));
  await retired.insertMany([
    processed('old', at(-processedEventRetentionMs - minute)),
    processed('fresh', at(-processedEventRetentionMs + minute)),
  ]);
  await live.insertMany([processed('old', at(-20 * day)), processed('today', at(-minute))]);
  // Another collection with the same field is left alone.
  const other = connection.collection('processed_webhooks');
  await other.insertOne(processed('old', at(-100 * day)));

  expect(await sweepPlatformRecords(connection, now)).toEqual({ rateLimitLogs: 0, processedEvents: 2 });
  expect((await retired.find().toArray()).map((each) => each._id)).toEqual(['fresh']);
  expect((await live.find().toArray()).map((each) => each._id)).toEqual(['today']);
  expect(await other.countDocuments()).toBe(1);

  // Two minutes on, the fresh one has passed its period too.
  expect(await sweepPlatformRecords(connection, at(2 * minute))).toEqual({ rateLimitLogs: 0, processedEvents: 1 });
  expect(await retired.countDocuments()).toBe(0);
  expect(await live.countDocuments()).toBe(1);
});
