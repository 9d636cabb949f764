import { deadLetterTopicOf, encodeEvent, topicOf } from '@haven/proto';
import type { Kafka, Producer } from 'kafkajs';
import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { createKafka, createLogger, EventConsumer, ensureTopics, type EventHandlers } from '../src';
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
  producer = kafka.producer();
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
