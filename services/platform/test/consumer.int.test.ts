import { create, toBinary } from '@bufbuild/protobuf';
import { deadLetterTopicOf, encodeEvent, EnvelopeSchema, topicOf } from '@haven/proto';
import type { Kafka, Producer } from 'kafkajs';
import mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createKafka,
  createLogger,
  createProducer,
  EventConsumer,
  ensureTopics,
  processedEventsCollection,
  type EventHandlers,
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

async function startConsumer(handlers: EventHandlers, options: { maxAttempts?: number } = {}) {
  const groupId = `test-${randomBytes(4).toString('hex')}`;
  const consumer = new EventConsumer({
    kafka,
    connection,
    log,
    spec: { groupId, topics: [topic], handlers },
    maxAttempts: options.maxAttempts ?? 3,
    initialBackoffMs: 20,
  });
  consumers.push(consumer);
  consumer.supervise();
  await consumer.ready;
  return groupId;
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

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('handles a redelivered event once', async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const seen: string[] = [];
  await startConsumer({
    'user.registered': async (event) => {
      if (event.userId === userId) seen.push(event.userId);
    },
  });
  const event = registeredEvent(userId);
  const message = { key: event.key, value: Buffer.from(event.value) };
  await producer.send({ topic, messages: [message] });
  await producer.send({ topic, messages: [message] }); // the same event id again, as after a relay crash
  await waitFor(() => seen.length >= 1);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(seen).toEqual([userId]);
});

it('retries a failing handler with back-off, then parks the message on the dead-letter topic', async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  let attempts = 0;
  const groupId = await startConsumer(
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
  const reader = kafka.consumer({ groupId: `${groupId}-reader` });
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
    await waitFor(() => parked.some((entry) => entry.key === userId), 30_000);
    expect(attempts).toBe(3);
    expect(parked.find((entry) => entry.key === userId)?.error).toBe('mail server on fire');
  } finally {
    await reader.disconnect();
  }
});

it('parks a message that is not an event envelope instead of blocking the partition', async () => {
  const key = `garbage-${randomBytes(4).toString('hex')}`;
  const handled: string[] = [];
  const groupId = await startConsumer({ 'user.registered': async (event) => void handled.push(event.userId) });
  const dlt = deadLetterTopicOf(groupId);
  const parked: string[] = [];
  const reader = kafka.consumer({ groupId: `${groupId}-reader` });
  await reader.connect();
  await reader.subscribe({ topic: dlt, fromBeginning: true });
  await reader.run({ eachMessage: async ({ message }) => void parked.push(message.key?.toString() ?? '') });
  try {
    await producer.send({ topic, messages: [{ key, value: Buffer.from([0xff, 0x01, 0x02]) }] });
    const after = registeredEvent(`u-after-${key}`);
    await producer.send({ topic, messages: [{ key, value: Buffer.from(after.value) }] });
    await waitFor(() => parked.includes(key) && handled.includes(`u-after-${key}`), 30_000);
  } finally {
    await reader.disconnect();
  }
});

it('handles a message redriven from the dead-letter topic once its cause is fixed', async () => {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  let fixed = false;
  const handled: string[] = [];
  const groupId = await startConsumer(
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
  const reader = kafka.consumer({ groupId: `${groupId}-reader` });
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
  const groupId = await startConsumer({ 'user.registered': async (event) => void handled.push(event.userId) });
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
  const reader = kafka.consumer({ groupId: `${groupId}-reader` });
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
  const consumer = new EventConsumer({
    kafka,
    connection,
    log,
    spec: { groupId, topics: [topic], handlers: {} },
    processedRetentionMs: 14 * 24 * 60 * 60 * 1000,
  });
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
  expect(await consumer.sweepProcessed(now)).toBe(1);
  expect((await processed.find().toArray()).map((doc) => doc._id)).toEqual(['new']);
});
