/**
 * The outbox relay's part of `make bench` (see docs/events.md): against the bench's own embedded
 * database and Kafka,
 * - the idle poll's cost (one relay pass with nothing pending) with 1,000, 10,000 and 50,000 users
 *   whose events are all published — it should stay flat, the poll reads only the pending marks;
 * - the full sweep's cost at the same sizes (the backstop, which does scan every user), and at 200,000;
 * - publishing latency (one event at a time, write to the broker's acknowledgement) at 50,000 and 200,000 users,
 *   while sweeps run back to back, as a ratio to the same figure with no sweep: the sweep must not show in it;
 * - events/s from write to broker: writers append events to users while the relay publishes them,
 *   timed from the first write to the broker's acknowledgement of the last event; with the topic's 3 partitions,
 *   then grown to 6 (the relay sends one request per partition, all at once).
 */
import { topicOf, type NewEvent } from '@haven/proto';
import type { Kafka } from 'kafkajs';
import mongoose, { Schema, type Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import {
  appendEvents,
  createKafka,
  createLogger,
  outboxCollections,
  outboxPlugin,
  OutboxRelay,
  topicPartitions,
  type WithOutbox,
} from '../../services/platform/src';
import { summarizeLatencies } from './report';
import { runStandalone } from './standalone';

export interface RelayBenchResult {
  idlePoll: Array<{ users: number; passes: number; meanMs: number; p50Ms: number; p99Ms: number; sweepMs: number }>;
  duringSweep: Array<{
    users: number;
    idle: { events: number; p50Ms: number; p99Ms: number };
    sweeping: { events: number; p50Ms: number; p99Ms: number; sweeps: number };
  }>;
  /** Write → broker with the topic's partitions as created (3), then with twice as many. */
  throughput: Array<{ partitions: number; events: number; writers: number; seconds: number; eventsPerSec: number }>;
}

interface BenchUser extends WithOutbox {
  email: string;
}

const sizes = [1_000, 10_000, 50_000, 200_000];
/** The sizes at which the idle poll is timed (the sweep is timed at every size). */
const idlePollSizes = new Set([1_000, 10_000, 50_000]);
/** The sizes at which publishing latency is timed with and without sweeps. */
const sweepLatencySizes = new Set([50_000, 200_000]);
const idlePasses = 50;
/** Events timed one at a time for each latency figure, within a bound on the time it may take. */
const latencyEvents = 40;
const latencyBoundMs = 60_000;
/** The write → broker figure: events, writers, and the topic's partitions in each run. */
const events = 2_000;
const writers = 10;
const throughputPartitions = [3, 6];

function requested(userId: string): NewEvent<'user.email_verification_requested'> {
  return {
    type: 'user.email_verification_requested',
    producer: 'user',
    subjectId: userId,
    correlationId: 'bench',
    payload: { userId, email: `${userId}@example.com`, firstName: 'Bench' },
  };
}

/** Adds users whose one event is already published (a mark at 1, nothing pending): the idle steady state. */
async function growTo(users: Model<BenchUser>, connection: mongoose.Connection, from: number, to: number) {
  const marks = connection.collection(outboxCollections.marks);
  for (let start = from; start < to; start += 1_000) {
    const docs = Array.from({ length: Math.min(1_000, to - start) }, () => {
      const user = new users({ _id: randomUUID(), email: `${randomUUID()}@example.com` });
      user.outbox.push({
        eventId: randomUUID(),
        type: 'user.registered',
        topic: 'unused',
        key: user._id,
        value: Buffer.alloc(8),
      });
      user.outboxVersion = 1;
      return user.toObject();
    });
    await users.collection.insertMany(docs as never[]);
    await marks.insertMany(
      docs.map((doc) => ({ _id: `bench_users:${doc._id}`, publishedUpTo: 1, state: 'ok', failures: 0 }) as never),
    );
  }
}

/**
 * Publishing latency as a person's write sees it: one event appended, the relay nudged, timed until the broker
 * acknowledged it; `latencyEvents` of them, one after another, or as many as fit in `latencyBoundMs`.
 */
async function publishLatencies(relay: OutboxRelay, users: Model<BenchUser>, ids: string[]): Promise<number[]> {
  const timings: number[] = [];
  const bound = Date.now() + latencyBoundMs;
  // The first event also connects the relay's producer and reads the topic's partitions: not timed.
  for (let n = -1; n < latencyEvents && Date.now() < bound; n += 1) {
    const id = ids[(n + ids.length) % ids.length]!;
    const before = relay.metrics.published;
    const started = process.hrtime.bigint();
    await appendEvents(users, { _id: id }, [requested(id)]);
    relay.nudge();
    const deadline = Date.now() + 300_000;
    while (relay.metrics.published === before) {
      if (Date.now() > deadline) throw new Error('the relay did not publish an event within 5 minutes');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    if (n >= 0) timings.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return timings;
}

/** Grows the topic to `partitions` (never shrinks it; a topic made by the relay starts with 3). */
async function growTopic(kafka: Kafka, topic: string, partitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const current = (await topicPartitions(kafka, [topic])).get(topic)?.length ?? 0;
    if (current < partitions) await admin.createPartitions({ topicPartitions: [{ topic, count: partitions }] });
  } finally {
    await admin.disconnect();
  }
}

async function waitUntilLeader(relay: OutboxRelay): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!relay.metrics.isLeader) {
    if (Date.now() > deadline) throw new Error('the relay did not take the lease within a minute');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function benchRelay(
  infra: { mongoUrl: string; kafkaBrokers: string[] },
  log: (line: string) => void,
): Promise<RelayBenchResult> {
  const quiet = createLogger('bench-relay', 'silent');
  const connection = await mongoose.createConnection(infra.mongoUrl, { dbName: 'bench_relay' }).asPromise();
  const schema = new Schema<BenchUser>({ _id: String, email: String }, { collection: 'bench_users' });
  schema.plugin(outboxPlugin);
  const users = connection.model<BenchUser>('BenchUser', schema);
  const kafka = createKafka('bench-relay', infra.kafkaBrokers, quiet);
  const newRelay = (sweepIntervalMs: number) =>
    new OutboxRelay({
      kafka,
      models: [users],
      topics: [topicOf('user')],
      log: quiet,
      idleIntervalMs: 50,
      sweepIntervalMs,
    });
  // The sweep is measured on its own below; it must not run inside the other figures.
  const relay = newRelay(24 * 60 * 60_000);
  try {
    await connection.dropDatabase();

    const idlePoll: RelayBenchResult['idlePoll'] = [];
    const duringSweep: RelayBenchResult['duringSweep'] = [];
    let count = 0;
    for (const size of sizes) {
      log(`relay: growing to ${size} users`);
      await growTo(users, connection, count, size);
      count = size;
      await relay.flushOnce(); // takes the lease, as the active relay would hold it
      const timings: number[] = [];
      for (let pass = 0; pass < (idlePollSizes.has(size) ? idlePasses : 0); pass += 1) {
        const started = process.hrtime.bigint();
        const published = await relay.flushOnce();
        timings.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (published !== 0) throw new Error(`an idle pass published ${published} events`);
      }
      const sweepStarted = process.hrtime.bigint();
      await relay.sweepOnce();
      const sweepMs = Number(process.hrtime.bigint() - sweepStarted) / 1e6;
      if (timings.length > 0) {
        const summary = summarizeLatencies(timings);
        idlePoll.push({
          users: size,
          passes: idlePasses,
          meanMs: summary.mean,
          p50Ms: summary.p50,
          p99Ms: summary.p99,
          sweepMs,
        });
      } else {
        idlePoll.push({ users: size, passes: 0, meanMs: NaN, p50Ms: NaN, p99Ms: NaN, sweepMs });
      }
      if (sweepLatencySizes.has(size)) {
        log(`relay: publishing latency at ${size} users, without and with sweeps running`);
        const ids = (await users.find({}, { _id: 1 }).limit(100).lean()).map((user) => user._id);
        const quietRelay = newRelay(24 * 60 * 60_000);
        quietRelay.start();
        await waitUntilLeader(quietRelay);
        const idle = await publishLatencies(quietRelay, users, ids);
        await quietRelay.stop();
        // Sweeps back to back, each started by the relay's own loop, as its interval would start one.
        const sweepingRelay = newRelay(0);
        sweepingRelay.start();
        await waitUntilLeader(sweepingRelay);
        const sweeping = await publishLatencies(sweepingRelay, users, ids);
        const sweeps = sweepingRelay.metrics.sweeps;
        await sweepingRelay.stop();
        await relay.flushOnce(); // the lease back to the relay the other figures use
        const idleSummary = summarizeLatencies(idle);
        const sweepingSummary = summarizeLatencies(sweeping);
        duringSweep.push({
          users: size,
          idle: { events: idle.length, p50Ms: idleSummary.p50, p99Ms: idleSummary.p99 },
          sweeping: { events: sweeping.length, p50Ms: sweepingSummary.p50, p99Ms: sweepingSummary.p99, sweeps },
        });
      }
    }

    await relay.stop();
    const throughput: RelayBenchResult['throughput'] = [];
    const ids = (await users.find({}, { _id: 1 }).limit(500).lean()).map((user) => user._id);
    for (const partitions of throughputPartitions) {
      await growTopic(kafka, topicOf('user'), partitions);
      log(`relay: ${writers} writers append ${events} events while the relay publishes (${partitions} partitions)`);
      const publisher = newRelay(24 * 60 * 60_000);
      try {
        const started = process.hrtime.bigint();
        publisher.start();
        let next = 0;
        await Promise.all(
          Array.from({ length: writers }, async () => {
            while (next < events) {
              const id = ids[next++ % ids.length]!;
              await appendEvents(users, { _id: id }, [requested(id)]);
              publisher.nudge();
            }
          }),
        );
        const deadline = Date.now() + 300_000;
        while (publisher.metrics.published < events) {
          if (Date.now() > deadline) throw new Error('the relay did not publish the benchmark events within 5 minutes');
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        throughput.push({ partitions, events, writers, seconds, eventsPerSec: events / seconds });
      } finally {
        await publisher.stop();
      }
    }
    return { idlePoll, duringSweep, throughput };
  } finally {
    await relay.stop();
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
  }
}

export function formatRelayResult(result: RelayBenchResult): string {
  const lines = [
    'Outbox relay',
    '  users    idle poll mean   p50      p99      full sweep',
    ...result.idlePoll.map((row) =>
      row.passes > 0
        ? `  ${String(row.users).padEnd(8)} ${row.meanMs.toFixed(2).padStart(8)} ms   ${row.p50Ms.toFixed(2).padStart(6)}   ${row.p99Ms.toFixed(2).padStart(6)}   ${row.sweepMs.toFixed(0).padStart(6)} ms`
        : `  ${String(row.users).padEnd(8)} ${'—'.padStart(8)}      ${'—'.padStart(6)}   ${'—'.padStart(6)}   ${row.sweepMs.toFixed(0).padStart(6)} ms`,
    ),
    '  publishing latency, one event at a time (write → broker), without sweeps and with sweeps back to back',
    '  users    no sweep p50   p99        sweeping p50   p99        ratio p50   p99    sweeps done',
    ...result.duringSweep.map(
      (row) =>
        `  ${String(row.users).padEnd(8)} ${row.idle.p50Ms.toFixed(1).padStart(8)} ms ${row.idle.p99Ms.toFixed(1).padStart(7)} ms ` +
        `${row.sweeping.p50Ms.toFixed(1).padStart(10)} ms ${row.sweeping.p99Ms.toFixed(1).padStart(7)} ms ` +
        `${(row.sweeping.p50Ms / row.idle.p50Ms).toFixed(2).padStart(8)}× ${(row.sweeping.p99Ms / row.idle.p99Ms).toFixed(2).padStart(6)}× ` +
        `${String(row.sweeping.sweeps).padStart(8)} (${row.sweeping.events} events)`,
    ),
    ...result.throughput.map(
      (run) =>
        `  write → broker, ${run.partitions} partitions: ${run.events} events from ${run.writers} writers in ` +
        `${run.seconds.toFixed(1)} s = ${run.eventsPerSec.toFixed(0)} events/s`,
    ),
  ];
  return lines.join('\n');
}

/** `npx tsx tools/bench/relay.ts`: the relay's figures alone, on servers of their own. */
if (require.main === module) {
  runStandalone('relay', async (infra, say) => formatRelayResult(await benchRelay(infra, say)));
}
