import { create, toBinary } from '@bufbuild/protobuf';
import { deadLetterTopicOf, encodeEvent, EnvelopeSchema, topicOf } from '@haven/proto';
import { ConfigResourceTypes, type Kafka, type Producer } from 'kafkajs';
import mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import {
  createConsumer,
  createKafka,
  createLogger,
  createProducer,
  EventConsumer,
  ensureTopics,
  processedEventsCollection,
  sweepProcessedEvents,
  type EventHandlers,
  type Logger,
} from '../src';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import { testInfra } from '../../../tools/testing/test-env';

const log = createLogger('consumer-test', 'silent');
let kafka: Kafka;
let producer: Producer;
let connection: mongoose.Connection;
const consumers: EventConsumer[] = [];
const topic = topicOf('user');

beforeAll(async () => {
  const infra = testInfra();
  kafka = createKafka('consumer-test', infra.kafkaBrokers, log);
  await ensureTopics(kafka, [topic]);
  producer = createProducer(kafka);
  await producer.connect();
  connection = await mongoose
    .createConnection(infra.mongoUrl, { dbName: `consumer_${randomBytes(4).toString('hex')}` })
    .asPromise();
});

afterAll(async () => {
  await Promise.all(consumers.map((consumer) => consumer.stop()));
  await producer?.disconnect();
  await connection?.close();
});

interface ConsumerOptions {
  maxAttempts?: number;
  groupId?: string;
  log?: Logger;
  kafka?: Kafka;
  connection?: mongoose.Connection;
  /** Resolve on start instead of waiting until the group is joined. */
  noWait?: boolean;
  startTimeoutMs?: number;
  /** The progress watch's bounds (EventConsumerOptions). */
  stallAfterMs?: number;
  watchIntervalMs?: number;
  attemptTimeoutMs?: number;
}

async function startConsumer(handlers: EventHandlers, options: ConsumerOptions = {}) {
  const groupId = options.groupId ?? `test-${randomBytes(4).toString('hex')}`;
  const consumer = new EventConsumer({
    kafka: options.kafka ?? kafka,
    connection: options.connection ?? connection,
    log: options.log ?? log,
    spec: { groupId, topics: [topic], handlers },
    maxAttempts: options.maxAttempts ?? 3,
    initialBackoffMs: 20,
    startTimeoutMs: options.startTimeoutMs,
    stallAfterMs: options.stallAfterMs,
    watchIntervalMs: options.watchIntervalMs,
    attemptTimeoutMs: options.attemptTimeoutMs,
  });
  consumers.push(consumer);
  consumer.supervise();
  if (!options.noWait) await consumer.ready;
  return { groupId, consumer };
}

/** A logger whose lines the test can read (message texts, in order). */
function capturingLog(level: 'info' | 'debug' = 'info') {
  const messages: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) messages.push(JSON.parse(line).msg as string);
      done();
    },
  });
  return { messages, log: pino({ level }, sink) as unknown as Logger };
}

/** The keys on a group's dead-letter topic, read to its end. */
async function deadLetterKeys(groupId: string): Promise<string[]> {
  const dlt = deadLetterTopicOf(groupId);
  const admin = kafka.admin();
  await admin.connect();
  const written = (await admin.fetchTopicOffsets(dlt)).reduce((total, partition) => total + Number(partition.high), 0);
  await admin.disconnect();
  const keys: string[] = [];
  const reader = createConsumer(kafka, { groupId: `${groupId}-reader-${randomBytes(2).toString('hex')}` });
  await reader.connect();
  await reader.subscribe({ topic: dlt, fromBeginning: true });
  await reader.run({ eachMessage: async ({ message }) => void keys.push(message.key?.toString() ?? '') });
  try {
    await eventually('the dead-letter topic read to its end', () => keys.length >= written);
    return keys;
  } finally {
    await reader.disconnect();
  }
}

/** True once the group has committed an offset past `offset` on the partition: that message is done for good. */
async function committedPast(groupId: string, partition: number, offset: string): Promise<boolean> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const committed = offsets?.partitions.find((entry) => entry.partition === partition)?.offset ?? '-1';
    return BigInt(committed) > BigInt(offset);
  } finally {
    await admin.disconnect();
  }
}

/** A TCP path to the database that the test can cut, as when the database host goes away. */
async function cuttableDatabase(target: string) {
  const url = new URL(target);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(url.port), url.hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) socket.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `mongodb://127.0.0.1:${port}${url.pathname}${url.search}`,
    cut() {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

function registeredEvent(userId: string) {
  return encodeEvent({
    type: 'user.registered',
    producer: 'user',
    subjectId: userId,
    correlationId: 'test',
    payload: { userId, email: `${userId}@example.com`, authProvider: 'email' },
  });
}

it('handles a redelivered event once', async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const seen: string[] = [];
  const seenAfter: string[] = [];
  await startConsumer({
    'user.registered': async (event) => {
      if (event.userId === userId) seen.push(event.userId);
      if (event.userId === `${userId}-after`) seenAfter.push(event.userId);
    },
  });
  const event = registeredEvent(userId);
  const message = { key: event.key, value: Buffer.from(event.value) };
  await producer.send({ topic, messages: [message] });
  await producer.send({ topic, messages: [message] }); // the same event id again, as after a relay crash
  // A later event with the same key lands on the same partition: once it is handled, so is the duplicate.
  const marker = registeredEvent(`${userId}-after`);
  await producer.send({ topic, messages: [{ key: event.key, value: Buffer.from(marker.value) }] });
  await eventually('the later event handled', () => seenAfter.includes(`${userId}-after`));
  expect(seen).toEqual([userId]);
});

it('keeps the bookkeeping of events waiting together to a few database calls, not a few per event', async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const waiting = 40;
  const monitored = await mongoose
    .createConnection(testInfra().mongoUrl, {
      dbName: `consumer_calls_${randomBytes(4).toString('hex')}`,
      monitorCommands: true,
    })
    .asPromise();
  const groupId = `test-${randomBytes(4).toString('hex')}`;
  const processed = processedEventsCollection(groupId);
  // One partition's backlog, as after a burst of check-ins: waiting before the consumer starts.
  const events = Array.from({ length: waiting }, (_, index) => registeredEvent(`${userId}-${index}`));
  const ours = new Set(events.map((event) => event.eventId));
  // The database calls about the processed ids that touch this backlog (the topic holds other tests' events too).
  let bookkeepingCalls = 0;
  monitored.getClient().on('commandStarted', (started) => {
    const { command } = started;
    if (command.find !== processed && command.update !== processed) return;
    if ([...JSON.stringify(command).matchAll(/[0-9a-f-]{36}/g)].some(([id]) => ours.has(id))) bookkeepingCalls += 1;
  });
  try {
    const key = events[0]!.key;
    const sent = await producer.send({
      topic,
      messages: events.map((event) => ({ key, value: Buffer.from(event.value) })),
    });
    const seen = new Set<string>();
    await startConsumer(
      { 'user.registered': async (event) => void (event.userId.startsWith(userId) && seen.add(event.userId)) },
      { groupId, connection: monitored },
    );
    await eventually('every waiting event handled', () => seen.size === waiting);
    const last = sent.find((record) => record.errorCode === 0)!;
    await eventually('the backlog done for good', () =>
      committedPast(groupId, last.partition, String(BigInt(last.baseOffset ?? '0') + BigInt(waiting - 1))),
    );
    // Per stretch of up to 50 messages one read of the handled ids and one write of the records, where it was
    // one of each per event: 80 calls for this backlog.
    expect(await monitored.collection<{ _id: string }>(processed).countDocuments({ _id: { $in: [...ours] } })).toBe(
      waiting,
    );
    expect(bookkeepingCalls).toBeGreaterThan(0);
    expect(bookkeepingCalls).toBeLessThanOrEqual(waiting / 4);
  } finally {
    await monitored.close();
  }
});

it('retries a failing handler with back-off, then parks the message on the dead-letter topic', async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  let attempts = 0;
  const { groupId, consumer } = await startConsumer(
    {
      'user.registered': async (event) => {
        if (event.userId !== userId) return;
        attempts += 1;
        throw new Error('mail server on fire');
      },
    },
    { maxAttempts: 3 },
  );
  const dlt = deadLetterTopicOf(groupId);
  const parked: Array<{ key: string; error: string }> = [];
  const reader = createConsumer(kafka, { groupId: `${groupId}-reader` });
  await reader.connect();
  await reader.subscribe({ topic: dlt, fromBeginning: true });
  await reader.run({
    eachMessage: async ({ message }) => {
      parked.push({ key: message.key?.toString() ?? '', error: message.headers?.['dlt-error']?.toString() ?? '' });
    },
  });
  try {
    const event = registeredEvent(userId);
    await producer.send({ topic, messages: [{ key: event.key, value: Buffer.from(event.value) }] });
    await eventually('the failing event on the dead-letter topic', () => parked.some((entry) => entry.key === userId));
    expect(attempts).toBe(3);
    expect(parked.find((entry) => entry.key === userId)?.error).toBe('mail server on fire');
    // What /metrics reports for the group: every failed attempt, and the one dead letter.
    await eventually('the dead letter counted', () => consumer.metrics.deadLettered.get(topic) === 1);
    expect(consumer.metrics.failures.get(topic)).toBe(3);
  } finally {
    await reader.disconnect();
  }
});

it('parks a message that is not an event envelope instead of blocking the partition', async () => {
  const key = `garbage-${randomBytes(4).toString('hex')}`;
  const handled: string[] = [];
  const { groupId } = await startConsumer({ 'user.registered': async (event) => void handled.push(event.userId) });
  const dlt = deadLetterTopicOf(groupId);
  const parked: string[] = [];
  const reader = createConsumer(kafka, { groupId: `${groupId}-reader` });
  await reader.connect();
  await reader.subscribe({ topic: dlt, fromBeginning: true });
  await reader.run({ eachMessage: async ({ message }) => void parked.push(message.key?.toString() ?? '') });
  try {
    await producer.send({ topic, messages: [{ key, value: Buffer.from([0xff, 0x01, 0x02]) }] });
    const after = registeredEvent(`u-after-${key}`);
    await producer.send({ topic, messages: [{ key, value: Buffer.from(after.value) }] });
    await eventually(
      'the garbage parked and the next event handled',
      () => parked.includes(key) && handled.includes(`u-after-${key}`),
    );
  } finally {
    await reader.disconnect();
  }
});

it("dead-letters an event on a topic that is not its producer's, and never acts on it", async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const acted: string[] = [];
  const { groupId } = await startConsumer({
    'account.deletion_requested': async (event) => void acted.push(`erase:${event.userId}`),
    'user.registered': async (event) => void acted.push(`registered:${event.userId}`),
  });
  // A deletion request only the compliance service may publish, written on the user service's topic.
  const forged = encodeEvent({
    type: 'account.deletion_requested',
    producer: 'user',
    subjectId: userId,
    correlationId: 'forged',
    payload: { requestId: randomUUID(), userId },
  });
  const after = registeredEvent(userId);
  await producer.send({
    topic,
    messages: [
      { key: forged.key, value: Buffer.from(forged.value) },
      { key: after.key, value: Buffer.from(after.value) },
    ],
  });
  await eventually('the event after the forged one handled', () => acted.includes(`registered:${userId}`));
  expect(acted).not.toContain(`erase:${userId}`);
  await eventuallyExpect('the forged event on the dead-letter topic', async () =>
    expect(await deadLetterKeys(groupId)).toContain(userId),
  );
});

it('handles a message redriven from the dead-letter topic once its cause is fixed', async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  let fixed = false;
  const handled: string[] = [];
  const { groupId } = await startConsumer(
    {
      'user.registered': async (event) => {
        if (event.userId !== userId) return;
        if (!fixed) throw new Error('template missing');
        handled.push(event.userId);
      },
    },
    { maxAttempts: 2 },
  );
  const parked: Array<{ key: Buffer | null; value: Buffer | null }> = [];
  const reader = createConsumer(kafka, { groupId: `${groupId}-reader` });
  await reader.connect();
  await reader.subscribe({ topic: deadLetterTopicOf(groupId), fromBeginning: true });
  await reader.run({ eachMessage: async ({ message }) => void parked.push(message) });
  try {
    const event = registeredEvent(userId);
    await producer.send({ topic, messages: [{ key: event.key, value: Buffer.from(event.value) }] });
    const dead = await eventually('the failing event dead-lettered', () =>
      parked.find((message) => message.key?.toString() === userId),
    );
    // The operator fixes the cause and re-publishes the dead letter to its source topic.
    fixed = true;
    await producer.send({ topic, messages: [{ key: dead.key, value: dead.value }] });
    await eventuallyExpect('the redriven event handled once', () => expect(handled).toEqual([userId]));
  } finally {
    await reader.disconnect();
  }
});

it('skips an event type it does not know yet instead of dead-lettering it', async () => {
  const key = `future-${randomBytes(4).toString('hex')}`;
  const handled: string[] = [];
  const { groupId } = await startConsumer({ 'user.registered': async (event) => void handled.push(event.userId) });
  const future = toBinary(
    EnvelopeSchema,
    create(EnvelopeSchema, { eventId: randomUUID(), type: 'user.became_famous', producer: 'user', subjectId: key }),
  );
  const after = registeredEvent(key);
  // Same key, same partition: the known event is handled only after the unknown one was passed.
  await producer.send({
    topic,
    messages: [
      { key, value: Buffer.from(future) },
      { key, value: Buffer.from(after.value) },
    ],
  });
  await eventually('the event after the unknown one handled', () => handled.includes(key));
  // Whatever this group dead-lettered before that point is on the topic now: read it all.
  const admin = kafka.admin();
  await admin.connect();
  const written = (await admin.fetchTopicOffsets(deadLetterTopicOf(groupId))).reduce(
    (total, partition) => total + Number(partition.high),
    0,
  );
  await admin.disconnect();
  const parkedKeys: string[] = [];
  const reader = createConsumer(kafka, { groupId: `${groupId}-reader` });
  await reader.connect();
  await reader.subscribe({ topic: deadLetterTopicOf(groupId), fromBeginning: true });
  await reader.run({ eachMessage: async ({ message }) => void parkedKeys.push(message.key?.toString() ?? '') });
  try {
    await eventually('the dead-letter topic read', () => parkedKeys.length >= written);
    expect(parkedKeys).not.toContain(key);
  } finally {
    await reader.disconnect();
  }
});

it('sweeps processed ids older than the retention bound, and keeps newer ones', async () => {
  const groupId = `sweep-${randomBytes(4).toString('hex')}`;
  const processed = connection.collection(processedEventsCollection(groupId));
  const now = new Date();
  await processed.insertMany([
    {
      _id: 'old' as never,
      type: 'user.registered',
      outcome: 'handled',
      processedAt: new Date(now.getTime() - 15 * 86_400_000),
    },
    {
      _id: 'new' as never,
      type: 'user.registered',
      outcome: 'handled',
      processedAt: new Date(now.getTime() - 86_400_000),
    },
  ]);
  expect(await sweepProcessedEvents(connection, now)).toBe(1);
  expect((await processed.find().toArray()).map((doc) => doc._id)).toEqual(['new']);
});

it('retries a refused dead-letter write on its own: the handler is not run again, and the message is parked once', async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const groupId = `test-${randomBytes(4).toString('hex')}`;
  let attempts = 0;
  const admin = kafka.admin();
  await admin.connect();
  try {
    // The dead-letter topic refuses every record until the operator raises its size limit.
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic: deadLetterTopicOf(groupId),
          numPartitions: 1,
          configEntries: [{ name: 'max.message.bytes', value: '16' }],
        },
      ],
    });
    const { messages, log: capturing } = capturingLog();
    await startConsumer(
      {
        'user.registered': async (event) => {
          if (event.userId !== userId) return;
          attempts += 1;
          throw new Error('template missing');
        },
      },
      { groupId, log: capturing, maxAttempts: 3 },
    );
    const event = registeredEvent(userId);
    const [sent] = await producer.send({ topic, messages: [{ key: event.key, value: Buffer.from(event.value) }] });
    await eventually(
      'the dead-letter write refused twice',
      () => messages.filter((message) => message === 'cannot write to the dead-letter topic; retrying').length >= 2,
    );
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: deadLetterTopicOf(groupId),
          configEntries: [{ name: 'max.message.bytes', value: '1048588' }],
        },
      ],
    });
    await eventually('the message done for good', () =>
      committedPast(groupId, sent!.partition, sent!.baseOffset ?? '0'),
    );
    expect((await deadLetterKeys(groupId)).filter((key) => key === userId)).toHaveLength(1);
    expect(attempts).toBe(3);
  } finally {
    await admin.disconnect();
  }
});

it('parks a message once when the database goes away right after the handler’s last attempt', async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const database = await cuttableDatabase(testInfra().mongoUrl);
  const dbName = `consumer_cut_${randomBytes(4).toString('hex')}`;
  // Selection gives up after 300 ms, so the cut shows at once; a loaded machine can take longer over the first
  // selection, so opening is tried again until it succeeds.
  const cutConnection = await eventually('a connection through the cuttable proxy', async () => {
    const connection = mongoose.createConnection(database.url, {
      dbName,
      serverSelectionTimeoutMS: 300,
      bufferCommands: false,
    });
    return connection.asPromise().catch(async (error: unknown) => {
      await connection.close().catch(() => undefined);
      throw error;
    });
  });
  const { messages, log: capturing } = capturingLog();
  let attempts = 0;
  const { groupId, consumer } = await startConsumer(
    {
      'user.registered': async (event) => {
        if (event.userId !== userId) return;
        attempts += 1;
        // The last attempt fails, and then the database is gone: recording the dead-lettering fails.
        if (attempts === 2) database.cut();
        throw new Error('mail server on fire');
      },
    },
    { connection: cutConnection, log: capturing, maxAttempts: 2 },
  );
  try {
    const event = registeredEvent(userId);
    const [sent] = await producer.send({ topic, messages: [{ key: event.key, value: Buffer.from(event.value) }] });
    await eventually('the dead-lettering could not be recorded', () =>
      messages.includes('cannot record the dead-lettering (database error)'),
    );
    await eventually('the message done for good', () =>
      committedPast(groupId, sent!.partition, sent!.baseOffset ?? '0'),
    );
    expect((await deadLetterKeys(groupId)).filter((key) => key === userId)).toHaveLength(1);
    expect(attempts).toBe(2);
  } finally {
    await consumer.stop();
    await cutConnection.close().catch(() => undefined);
  }
});

it('leaves no dead-letter producer behind while it keeps trying to join, and stops cleanly mid-attempt', async () => {
  // A broker address where nothing answers: every start attempt fails and the next one makes a new producer.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const unreachable = createKafka('consumer-test-unreachable', [`127.0.0.1:${port}`], log);
  // Every producer the consumer makes, and whether it was disconnected.
  const made: Array<{ disconnected: boolean }> = [];
  const watched = Object.create(unreachable) as Kafka;
  watched.producer = (config) => {
    const producer = unreachable.producer(config);
    const entry = { disconnected: false };
    made.push(entry);
    const disconnect = producer.disconnect.bind(producer);
    producer.disconnect = async () => {
      entry.disconnected = true;
      await disconnect();
    };
    return producer;
  };
  const { messages, log: capturing } = capturingLog();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const { consumer } = await startConsumer(
    { 'user.registered': async () => undefined },
    { kafka: watched, log: capturing, noWait: true, startTimeoutMs: 1_500 },
  );
  try {
    await eventually(
      'three failed start attempts',
      () => messages.filter((message) => message === 'event consumer cannot start yet').length >= 3,
      { timeoutMs: 60_000 },
    );
  } finally {
    await consumer.stop(); // while the next attempt is under way
    process.off('unhandledRejection', onUnhandled);
  }
  expect(made.length).toBeGreaterThanOrEqual(3);
  expect(made.filter((producer) => !producer.disconnected)).toEqual([]);
  expect(unhandled).toEqual([]);
});

it('reports a consumer that has work and makes no progress as not ready, and recovers once it can go on', async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const handled: string[] = [];
  let release: () => void = () => undefined;
  const stuck = new Promise<void>((resolve) => (release = resolve));
  const { consumer } = await startConsumer(
    {
      'user.registered': async (event) => {
        if (!event.userId.startsWith(userId)) return;
        // The first event holds its partition, as a handler waiting on something that never answers would.
        if (event.userId === userId) await stuck;
        handled.push(event.userId);
      },
    },
    { stallAfterMs: 2_000, watchIntervalMs: 250, attemptTimeoutMs: 600_000 },
  );
  const first = registeredEvent(userId);
  await producer.send({ topic, messages: [{ key: first.key, value: Buffer.from(first.value) }] });
  // Work waiting behind it on the same partition (the same key).
  for (const suffix of ['-a', '-b']) {
    const later = registeredEvent(`${userId}${suffix}`);
    await producer.send({ topic, messages: [{ key: first.key, value: Buffer.from(later.value) }] });
  }

  await eventually('the stalled consumer reported as not joined (readiness not-ready)', () => !consumer.joined, {
    timeoutMs: 60_000,
    intervalMs: 100,
  });
  expect(handled).toEqual([]);

  release();
  await eventually('the consumer back in its group, the waiting events handled', () => {
    return consumer.joined && handled.includes(`${userId}-a`) && handled.includes(`${userId}-b`);
  });
  expect(handled.filter((id) => id === userId)).toHaveLength(1);
});

it('does not take a consumer whose partitions hold no work for a stalled one', async () => {
  const { messages, log: watched } = capturingLog('debug');
  // No handlers: every event on the topic is skipped at once, which is progress; then there is no work.
  const { consumer } = await startConsumer({}, { stallAfterMs: 300, watchIntervalMs: 100, log: watched });
  await eventually('the watch found no work twice after a stall period', () => {
    return messages.filter((message) => message === 'event consumer idle: its partitions hold no work').length >= 2;
  });
  expect(consumer.joined).toBe(true);
  expect(messages).not.toContain('event consumer has work and made no progress; rejoining its group');
});
