/**
 * The platform's erasure helpers against the real broker and database: consumers skip events about erased
 * subjects (but not the erasure's own), erase again when the subject was erased while their handler ran,
 * `eraseOutboxed` takes an entity's unpublished events and marks with it, a standalone event leaves nothing
 * behind once published, and `ensureTopics` holds topics to the retention bound without losing their other
 * settings.
 */
import { decodeEvent, encodeEvent, topicOf, type NewEvent } from '@haven/proto';
import { ConfigResourceTypes, type Kafka, type Producer } from 'kafkajs';
import mongoose, { Schema } from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createConsumer,
  createKafka,
  createLogger,
  createProducer,
  ensureTopics,
  eraseOutboxed,
  erasureGuard,
  erasureKey,
  EventConsumer,
  keyedHash,
  outboxCollections,
  outboxPlugin,
  OutboxRelay,
  recordEvent,
  recordStandaloneEvent,
  standaloneEventModel,
  type EventHandlers,
  type WithOutbox,
} from '../src';
import { eventually } from '../../../tools/testing/eventually';
import { testInfra } from '../../../tools/testing/test-env';

const log = createLogger('erasure-test', 'silent');
const topic = topicOf('user');
let kafka: Kafka;
let producer: Producer;
let connection: mongoose.Connection;
const stops: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  kafka = createKafka('erasure-test', testInfra().kafkaBrokers, log);
  await ensureTopics(kafka, [topic, topicOf('compliance')]);
  producer = createProducer(kafka);
  await producer.connect();
  connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `erasure_${randomBytes(4).toString('hex')}` })
    .asPromise();
});

afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await producer?.disconnect();
  await connection?.close();
});

const guard = () => erasureGuard(connection, erasureKey('test', { ERASURE_HMAC_SECRET: 'a test erasure secret' }));

async function publish(event: NewEvent<'user.profile_updated'> | NewEvent<'account.deletion_requested'>) {
  const encoded = encodeEvent(event);
  await producer.send({
    topic: encoded.topic,
    messages: [{ key: encoded.key, value: Buffer.from(encoded.value), headers: { 'event-type': encoded.type } }],
  });
}

const profileUpdated = (userId: string, timeZone: string): NewEvent<'user.profile_updated'> => ({
  type: 'user.profile_updated',
  producer: 'user',
  subjectId: userId,
  correlationId: 'erasure-test',
  payload: { userId, timeZone },
});

async function consume(handlers: EventHandlers, reErase: (subjectId: string) => Promise<void>, topics = [topic]) {
  const consumer = new EventConsumer({
    kafka,
    connection,
    log,
    spec: { groupId: `erasure-${randomBytes(4).toString('hex')}`, topics, handlers },
    initialBackoffMs: 20,
    erasure: { guard: guard(), reErase: (subjectId) => reErase(subjectId) },
  });
  stops.push(() => consumer.stop());
  consumer.supervise();
  await consumer.ready;
}

it('keys its records with the service’s secret: the same id hashes apart per service and per secret', () => {
  const id = randomUUID();
  const quote = erasureKey('quote', { ERASURE_HMAC_SECRET: 'one secret of enough length' });
  expect(keyedHash(quote, id)).toMatch(/^[0-9a-f]{64}$/);
  expect(keyedHash(quote, id)).not.toContain(id);
  expect(keyedHash(quote, id)).toBe(
    keyedHash(erasureKey('quote', { ERASURE_HMAC_SECRET: 'one secret of enough length' }), id),
  );
  expect(keyedHash(quote, id)).not.toBe(
    keyedHash(erasureKey('billing', { ERASURE_HMAC_SECRET: 'one secret of enough length' }), id),
  );
  expect(keyedHash(quote, id)).not.toBe(
    keyedHash(erasureKey('quote', { ERASURE_HMAC_SECRET: 'another secret of length' }), id),
  );
  // Without its own secret, the subgraph secret keys it.
  expect(keyedHash(erasureKey('quote', { SUBGRAPH_SECRET: 'subgraph secret of length' }), id)).not.toBe(
    keyedHash(quote, id),
  );
});

it('skips events about an erased subject, and lets the erasure’s own through', async () => {
  const erased = randomUUID();
  const alive = randomUUID();
  await guard().markErased([erased]);
  const seen: string[] = [];
  await consume(
    {
      'user.profile_updated': async (event) => {
        if (event.userId === erased || event.userId === alive) seen.push(event.userId);
      },
      'account.deletion_requested': async (event) => {
        if (event.userId === erased) seen.push(`deletion:${event.userId}`);
      },
    },
    async () => undefined,
    [topic, topicOf('compliance')],
  );
  await publish(profileUpdated(erased, 'Europe/Paris'));
  await publish(profileUpdated(alive, 'Europe/Paris'));
  await publish({
    type: 'account.deletion_requested',
    producer: 'compliance',
    subjectId: erased,
    correlationId: 'erasure-test',
    payload: { requestId: randomUUID(), userId: erased },
  });
  await eventually(
    'the living user’s event and the deletion request handled',
    () => seen.includes(alive) && seen.includes(`deletion:${erased}`),
  );
  expect(seen).not.toContain(erased);
});

it('erases again when the subject was erased while the handler wrote', async () => {
  const userId = randomUUID();
  const rows = connection.collection<{ _id: string; timeZone: string }>('zones');
  const erasedAgain: string[] = [];
  await consume(
    {
      'user.profile_updated': async (event) => {
        if (event.userId !== userId) return;
        // The erasure happens between the guard's check and this handler's write.
        await guard().markErased([userId]);
        await rows.deleteMany({ _id: userId });
        await rows.updateOne({ _id: userId }, { $set: { timeZone: event.timeZone } }, { upsert: true });
      },
    },
    async (subjectId) => {
      await rows.deleteMany({ _id: subjectId });
      // Counted once done: the test reads the rows as soon as it sees the subject here.
      erasedAgain.push(subjectId);
    },
  );
  await publish(profileUpdated(userId, 'Asia/Tokyo'));
  await eventually('the racing write erased again', () => erasedAgain.includes(userId));
  expect(await rows.findOne({ _id: userId })).toBeNull();
});

interface Thing extends WithOutbox {
  label: string;
}
const thingSchema = new Schema<Thing>(
  { _id: { type: String, required: true }, label: String },
  { collection: 'things' },
);
thingSchema.plugin(outboxPlugin);

it('erases an entity with its unpublished events and its marks; a standalone event leaves nothing once out', async () => {
  const things = connection.model<Thing>('Thing', thingSchema);
  const events = standaloneEventModel(connection);
  const id = randomUUID();
  const thing = new things({ _id: id, label: 'personal' });
  recordEvent(thing, profileUpdated(id, 'Europe/Rome'));
  await thing.save();
  const pending = connection.collection(outboxCollections.pending);
  expect(await pending.countDocuments({ _id: `things:${id}` as never })).toBe(1);
  expect(await eraseOutboxed(things, { _id: id })).toBe(1);
  expect(await things.collection.countDocuments({ _id: id as never })).toBe(0);
  expect(await pending.countDocuments({ _id: `things:${id}` as never })).toBe(0);

  const seen = new Set<string>();
  const watcher = createConsumer(kafka, { groupId: `erasure-watch-${randomBytes(4).toString('hex')}` });
  stops.push(() => watcher.disconnect());
  await watcher.connect();
  await watcher.subscribe({ topics: [topic], fromBeginning: false });
  await watcher.run({
    eachMessage: async ({ message }) => {
      if (message.key) seen.add(`${message.key.toString()}:${decodeEvent(message.value!).type}`);
    },
  });
  const standaloneId = randomUUID();
  await recordStandaloneEvent(events, profileUpdated(standaloneId, 'Europe/Oslo'));
  const relay = new OutboxRelay({ kafka, models: [things, events], topics: [topic], log, idleIntervalMs: 50 });
  stops.push(() => relay.stop());
  relay.start();
  await eventually('the standalone event published', () => seen.has(`${standaloneId}:user.profile_updated`));
  expect(seen.has(`${id}:user.profile_updated`)).toBe(false);
  await eventually(
    'the standalone event’s document and marks gone',
    async () =>
      (await events.collection.countDocuments({})) === 0 &&
      (await connection.collection(outboxCollections.marks).countDocuments({})) === 0 &&
      (await pending.countDocuments({})) === 0,
  );
});

it('holds topics to the retention bound and a day-long segment, new and old, and keeps their other settings', async () => {
  const fresh = `haven.erasure-test-${randomBytes(3).toString('hex')}.events`;
  const older = `haven.erasure-test-${randomBytes(3).toString('hex')}.dlt`;
  const admin = kafka.admin();
  await admin.connect();
  stops.push(() => admin.disconnect());
  await admin.createTopics({
    waitForLeaders: true,
    topics: [{ topic: older, numPartitions: 1, configEntries: [{ name: 'max.message.bytes', value: '2048' }] }],
  });
  await ensureTopics(kafka, [fresh, older], { retentionMs: 2 * 24 * 60 * 60 * 1000 });
  // The broker applies a changed setting through its metadata log: a busy broker answers with it a moment later.
  const setting = async (name: string, config: string) => {
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name }],
    });
    return described.resources[0]?.configEntries.find((entry) => entry.configName === config)?.configValue;
  };
  const twoDays = String(2 * 24 * 60 * 60 * 1000);
  // A segment closes within a day, so retention deletes a record at most a day late, not a week.
  const oneDay = String(24 * 60 * 60 * 1000);
  expect(await setting(fresh, 'retention.ms')).toBe(twoDays);
  expect(await setting(fresh, 'segment.ms')).toBe(oneDay);
  await eventually('the older topic held to the retention bound', async () =>
    (await setting(older, 'retention.ms')) === twoDays && (await setting(older, 'segment.ms')) === oneDay ? true : null,
  );
  expect(await setting(older, 'max.message.bytes')).toBe('2048');
});
