/**
 * The outbox relay against the embedded database and the real Kafka: concurrent writers racing the
 * relay, two relays on one backlog, a poisoned entity beside healthy ones, a deletion, the sweep.
 */
import { decodeEvent, topicOf, type NewEvent } from '@haven/proto';
import type { Consumer, Kafka } from 'kafkajs';
import mongoose, { Schema, type Model } from 'mongoose';
import pino from 'pino';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import {
  appendEvents,
  createConsumer,
  createKafka,
  createLogger,
  deleteKeepingEvents,
  ensureTopics,
  limitOutboxBacklog,
  outboxCollections,
  outboxPlugin,
  recordById,
  OutboxRelay,
  partitionOfKey,
  recordEvent,
  topicPartitions,
  type WithOutbox,
} from '../src';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import { testInfra } from '../../../tools/testing/test-env';

interface Account extends WithOutbox {
  counter: number;
  label: string;
}

const topic = topicOf('user');
const quiet = createLogger('outbox-relay-test', 'silent');
let kafka: Kafka;
let connection: mongoose.Connection;
let accounts: Model<Account>;
let reader: Consumer;
const relays: OutboxRelay[] = [];
/**
 * Every message seen on the user topic, in arrival order per key (`note`: the test's mark in the payload;
 * `at`: partition and offset, which tell a second copy on the topic from a second delivery of one copy).
 */
const seen = new Map<string, Array<{ eventId: string; type: string; note: string; at: string }>>();

beforeAll(async () => {
  const infra = testInfra();
  kafka = createKafka('outbox-relay-test', infra.kafkaBrokers, quiet);
  await ensureTopics(kafka, [topic]);
  connection = await mongoose
    .createConnection(infra.mongoUrl, { dbName: `relay_${randomBytes(4).toString('hex')}` })
    .asPromise();
  const schema = new Schema<Account>(
    { _id: { type: String, required: true }, counter: { type: Number, default: 0 }, label: String },
    { collection: 'accounts' },
  );
  schema.plugin(outboxPlugin);
  accounts = connection.model<Account>('Account', schema);
  await accounts.init();
  reader = createConsumer(kafka, { groupId: `relay-test-${randomBytes(4).toString('hex')}` });
  await reader.connect();
  await reader.subscribe({ topic, fromBeginning: true });
  await reader.run({
    eachMessage: async ({ partition, message }) => {
      const key = message.key?.toString() ?? '';
      let event;
      try {
        event = decodeEvent(message.value!);
      } catch {
        return; // other test files put non-events and unknown types on the same topic
      }
      const list = seen.get(key) ?? [];
      const note = (event.payload as { firstName?: string }).firstName ?? '';
      list.push({ eventId: event.envelope.eventId, type: event.type, note, at: `${partition}:${message.offset}` });
      seen.set(key, list);
    },
  });
});

afterAll(async () => {
  await Promise.all(relays.map((relay) => relay.stop()));
  await reader?.disconnect();
  await connection?.close();
});

function newRelay(options: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}) {
  const relay = new OutboxRelay({ kafka, models: [accounts], topics: [topic], log: quiet, ...options });
  relays.push(relay);
  return relay;
}

async function stopRelays() {
  await Promise.all(relays.splice(0).map((relay) => relay.stop()));
}

function verificationRequested(userId: string, note = ''): NewEvent<'user.email_verification_requested'> {
  return {
    type: 'user.email_verification_requested',
    producer: 'user',
    subjectId: userId,
    correlationId: 'relay-test',
    payload: { userId, email: `${userId}@example.com`, firstName: note },
  };
}

async function newAccount(events = 1): Promise<string> {
  const id = randomUUID();
  const account = new accounts({ _id: id, counter: 0, label: 'new' });
  for (let n = 0; n < events; n += 1) recordEvent(account, verificationRequested(id, `created ${n}`));
  await account.save();
  return id;
}

async function newAccounts(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) ids.push(await newAccount());
  return ids;
}

/** The ids of the unpublished events an entity's document holds, in log order. */
async function logOf(id: string): Promise<string[]> {
  const raw = await accounts.collection.findOne({ _id: id as never });
  return ((raw?.outbox ?? []) as Array<{ eventId: string }>).map((entry) => entry.eventId);
}

/** Published event ids for a key, first delivery of each, in arrival order. */
function publishedFor(id: string): string[] {
  return [...new Set((seen.get(id) ?? []).map((entry) => entry.eventId))];
}

/** The notes of the events published for a key, first delivery of each, in arrival order. */
function notesPublishedFor(id: string): string[] {
  const first = new Map<string, string>();
  for (const entry of seen.get(id) ?? []) if (!first.has(entry.eventId)) first.set(entry.eventId, entry.note);
  return [...first.values()];
}

it('loses no event and no field when writers race the relay for hundreds of rounds', async () => {
  const relay = newRelay();
  const ids = await Promise.all(Array.from({ length: 10 }, () => newAccount()));
  const rounds = 300;
  for (let round = 0; round < rounds; round += 1) {
    const id = ids[round % ids.length]!;
    await Promise.all([
      // Two writers on one entity, each appending an event and changing fields in the same write.
      appendEvents(accounts, { _id: id }, [verificationRequested(id, `a${round}`)], {
        $inc: { counter: 1 },
        $set: { label: `round ${round}` },
      }),
      appendEvents(accounts, { _id: id }, [verificationRequested(id, `b${round}`)], { $inc: { counter: 1 } }),
      // A third through mongoose's load-change-save, the way resolvers write.
      (async () => {
        const account = await accounts.findById(id).select('+outbox');
        recordEvent(account!, verificationRequested(id, `c${round}`));
        await account!.save();
      })(),
      relay.flushOnce(),
    ]);
  }
  for (const id of ids) {
    const account = await accounts.findById(id).lean();
    expect(account!.counter).toBe((rounds / ids.length) * 2);
    expect(account!.outboxVersion).toBe(1 + (rounds / ids.length) * 3);
  }
  expect(await accounts.findById(ids[ids.length - 1]).lean()).toMatchObject({ label: `round ${rounds - 1}` });
  relay.start();
  for (const [index, id] of ids.entries()) {
    const itsRounds = Array.from({ length: rounds }, (_, round) => round).filter(
      (round) => round % ids.length === index,
    );
    const expected = ['created 0', ...itsRounds.flatMap((round) => [`a${round}`, `b${round}`, `c${round}`])];
    await eventuallyExpect(`every event of ${id} published, and gone from its document`, async () => {
      expect(await logOf(id)).toEqual([]);
      expect([...notesPublishedFor(id)].sort()).toEqual([...expected].sort());
    });
    // Log order: a round's events all come after the round before (its writes finished before the next began).
    const roundsInOrder = notesPublishedFor(id)
      .slice(1)
      .map((note) => Number(note.slice(1)));
    expect(notesPublishedFor(id)[0]).toBe('created 0');
    expect(roundsInOrder).toEqual([...roundsInOrder].sort((a, b) => a - b));
  }
  await stopRelays();
});

it('publishes a backlog once, in each user’s order, when two relays share it', async () => {
  const ids: string[] = [];
  for (let n = 0; n < 50; n += 1) ids.push(await newAccount(4));
  const logs = new Map<string, string[]>();
  for (const id of ids) logs.set(id, await logOf(id));
  const first = newRelay({ idleIntervalMs: 50 });
  const second = newRelay({ idleIntervalMs: 50 });
  first.start();
  second.start();
  for (const id of ids) {
    const expected = logs.get(id)!;
    await eventuallyExpect(`the backlog of ${id} published in order`, () => expect(publishedFor(id)).toEqual(expected));
  }
  // One active relay: each event went out once, not once per replica.
  const messages = ids.reduce((total, id) => total + (seen.get(id)?.length ?? 0), 0);
  expect(messages).toBe(ids.length * 4);
  expect([first.metrics.isLeader, second.metrics.isLeader].sort()).toEqual([false, true]);
  await stopRelays();
});

it('parks an entity whose events Kafka refuses, reports it, and publishes the others', async () => {
  const errors: Array<{ msg: string; entityId?: string }> = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString()) as { level: number; msg: string; entityId?: string };
      if (line.level >= 50) errors.push(line);
      done();
    },
  });
  const relay = newRelay({ log: pino({ level: 'error' }, capture), parkAfterFailures: 2, idleIntervalMs: 50 });
  const before = await newAccounts(5);
  // Over the broker's message size limit: Kafka refuses it every time.
  const poisoned = randomUUID();
  const huge = new accounts({ _id: poisoned, label: 'huge' });
  recordEvent(huge, verificationRequested(poisoned, 'x'.repeat(1_200_000)));
  await huge.save();
  const after = await newAccounts(5);
  relay.start();
  for (const id of [...before, ...after]) {
    await eventually(`the healthy account ${id} published`, () => publishedFor(id).length === 1);
  }
  const marks = connection.collection(outboxCollections.marks);
  const mark = await eventually('the poisoned account parked', () =>
    marks.findOne({ _id: `accounts:${poisoned}` as never, state: 'parked' }),
  );
  expect(mark.lastError).toEqual(expect.any(String));
  expect(relay.metrics.parked).toBe(1);
  expect(errors.some((line) => line.entityId === poisoned && /parked/.test(line.msg))).toBe(true);
  expect(publishedFor(poisoned)).toEqual([]);
  // Writes after it still go out: the relay is not stuck behind the parked entity.
  const later = await newAccount();
  await eventually('an account written after the parking published', () => publishedFor(later).length === 1);
  await stopRelays();
});

it('puts every other event on its topic exactly once when the broker refuses one partition of a batch', async () => {
  const partitions = (await topicPartitions(kafka, [topic])).get(topic)!;
  expect(partitions.length).toBeGreaterThan(1);
  const partitionOf = (id: string) => partitionOfKey(topic, id, partitions);
  const idsOn = (wanted: (partition: number) => boolean, count: number) => {
    const ids: string[] = [];
    while (ids.length < count) {
      const id = randomUUID();
      if (wanted(partitionOf(id))) ids.push(id);
    }
    return ids;
  };
  const poisoned = randomUUID();
  const refusedPartition = partitionOf(poisoned);
  // Healthy accounts on the refused partition (refused with it, then sent alone) and on every other one.
  const beside = idsOn((partition) => partition === refusedPartition, 8);
  const elsewhere = idsOn((partition) => partition !== refusedPartition, 16);
  const healthy = [...beside.slice(0, 4), ...elsewhere.slice(0, 8), ...beside.slice(4), ...elsewhere.slice(8)];
  for (const id of healthy.slice(0, 12)) {
    const account = new accounts({ _id: id, label: 'healthy' });
    recordEvent(account, verificationRequested(id, 'first'));
    recordEvent(account, verificationRequested(id, 'second'));
    await account.save();
  }
  // Over the broker's message size limit: the broker refuses its partition's records in the same request.
  const huge = new accounts({ _id: poisoned, label: 'huge' });
  recordEvent(huge, verificationRequested(poisoned, 'x'.repeat(1_200_000)));
  await huge.save();
  for (const id of healthy.slice(12)) {
    const account = new accounts({ _id: id, label: 'healthy' });
    recordEvent(account, verificationRequested(id, 'first'));
    recordEvent(account, verificationRequested(id, 'second'));
    await account.save();
  }
  const logs = new Map<string, string[]>();
  for (const id of healthy) logs.set(id, await logOf(id));

  // Everything above is pending before the relay starts, so its first pass sends it all as one batch.
  const relay = newRelay({ parkAfterFailures: 1, idleIntervalMs: 50 });
  relay.start();
  const marks = connection.collection(outboxCollections.marks);
  await eventually('the poisoned account parked', () =>
    marks.findOne({ _id: `accounts:${poisoned}` as never, state: 'parked' }),
  );
  for (const id of healthy) {
    await eventuallyExpect(`both events of ${id} published, in order`, () =>
      expect(publishedFor(id)).toEqual(logs.get(id)),
    );
  }
  // One account more on each partition, written after the batch: once each has arrived, the reader has read
  // every partition past anything the batch's pass could have written twice.
  const closers = partitions.map(({ partitionId }) => idsOn((partition) => partition === partitionId, 1)[0]!);
  for (const id of closers) {
    const account = new accounts({ _id: id, label: 'closer' });
    recordEvent(account, verificationRequested(id, 'closer'));
    await account.save();
  }
  for (const id of closers) {
    await eventually(`the closing account ${id} published`, () => publishedFor(id).length === 1);
  }
  for (const id of healthy) {
    for (const eventId of logs.get(id)!) {
      const copies = new Set((seen.get(id) ?? []).filter((entry) => entry.eventId === eventId).map((e) => e.at));
      expect({ account: id, eventId, copies: copies.size }).toEqual({ account: id, eventId, copies: 1 });
    }
  }
  expect(publishedFor(poisoned)).toEqual([]);
  await stopRelays();
});

it('publishes a deletion event, and the entity is gone for readers at once', async () => {
  const id = await newAccount();
  expect(
    await deleteKeepingEvents(
      accounts,
      id,
      {
        type: 'user.user_data_purged',
        producer: 'user',
        subjectId: id,
        correlationId: 'relay-test',
        payload: { requestId: id, service: 'user' },
      },
      ['label'],
    ),
  ).toBe(true);
  expect(await accounts.findById(id)).toBeNull();
  expect(await recordById(accounts, id)).toBeNull();
  expect(await accounts.countDocuments({ _id: id })).toBe(0);
  const relay = newRelay({ idleIntervalMs: 50 });
  relay.start();
  await eventuallyExpect('the registration and the deletion published', () =>
    expect((seen.get(id) ?? []).map((entry) => entry.type)).toEqual([
      'user.email_verification_requested',
      'user.user_data_purged',
    ]),
  );
  await eventually('the tombstone removed once published', async () =>
    (await accounts.collection.countDocuments({ _id: id as never })) === 0 ? true : null,
  );
  await stopRelays();
});

it('removes events a stopped pass had published without sending them again', async () => {
  const id = await newAccount(3);
  const third = (await logOf(id))[2]!;
  // As after a pass that Kafka acknowledged and that raised the mark past two events, then stopped before removing them.
  await connection
    .collection(outboxCollections.marks)
    .insertOne({ _id: `accounts:${id}` as never, publishedUpTo: 2, state: 'ok', failures: 0 });
  const relay = newRelay();
  expect(await relay.flushOnce()).toBe(1);
  await eventually('the third event published', () => publishedFor(id).includes(third));
  expect(publishedFor(id)).toEqual([third]);
  expect(await logOf(id)).toEqual([]);
  // The next appended event is version 4: the mark's arithmetic holds with the log emptied.
  await appendEvents(accounts, { _id: id }, [verificationRequested(id, 'fourth')]);
  expect(await relay.flushOnce()).toBe(1);
  expect(await accounts.findById(id).lean()).toMatchObject({ outboxVersion: 4 });
  expect(
    await connection.collection(outboxCollections.marks).findOne({ _id: `accounts:${id}` as never }),
  ).toMatchObject({ publishedUpTo: 4 });
  expect(await logOf(id)).toEqual([]);
  await stopRelays();
});

it('refuses an append past the backlog bound with a 429, storing nothing, until the relay catches up', async () => {
  limitOutboxBacklog(connection, 3);
  try {
    const id = await newAccount(1);
    expect(await appendEvents(accounts, { _id: id }, [verificationRequested(id), verificationRequested(id)])).toBe(
      true,
    );
    const refusal = { extensions: { code: 'TOO_MANY_REQUESTS' } };
    await expect(
      appendEvents(accounts, { _id: id }, [verificationRequested(id)], { $set: { label: 'refused' } }),
    ).rejects.toMatchObject(refusal);
    const loaded = await accounts.findById(id).select('+outbox');
    loaded!.label = 'refused too';
    recordEvent(loaded!, verificationRequested(id));
    await expect(loaded!.save()).rejects.toMatchObject(refusal);
    expect(await accounts.findById(id).lean()).toMatchObject({ label: 'new', outboxVersion: 3 });
    expect(await logOf(id)).toHaveLength(3);
    // No entity matched: false, not a refusal.
    expect(await appendEvents(accounts, { _id: randomUUID() }, [verificationRequested(id)])).toBe(false);

    const relay = newRelay();
    await relay.flushOnce();
    expect(await logOf(id)).toEqual([]);
    expect(await appendEvents(accounts, { _id: id }, [verificationRequested(id)], { $set: { label: 'later' } })).toBe(
      true,
    );
    expect(await accounts.findById(id).lean()).toMatchObject({ label: 'later', outboxVersion: 4 });
  } finally {
    limitOutboxBacklog(connection, 50);
    await stopRelays();
  }
});

it('finds events whose writer crashed before marking them pending (the sweep)', async () => {
  const relay = newRelay();
  // What earlier tests left pending goes first, so the passes below count this test's entity only.
  while ((await relay.flushOnce()) > 0);
  const id = randomUUID();
  const orphan = new accounts({ _id: id, label: 'orphan' });
  recordEvent(orphan, verificationRequested(id));
  // Written straight to the collection: no pending mark, as if the process died after the entity write.
  await accounts.collection.insertOne(orphan.toObject() as never);
  expect(await relay.flushOnce()).toBe(0);
  expect(await relay.sweepOnce()).toBe(1);
  await relay.flushOnce();
  await eventually('the orphaned event published', () => publishedFor(id).length === 1);
  await stopRelays();
});

it('says so when its database is unreachable, instead of blaming Kafka', async () => {
  const lines: Array<{ msg: string }> = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { msg: string });
      done();
    },
  });
  // A loopback port where nothing listens: every database call fails at once.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const unreachable = mongoose.createConnection(`mongodb://127.0.0.1:${port}/relay_unreachable`, {
    serverSelectionTimeoutMS: 200,
    bufferCommands: false,
  });
  unreachable.on('error', () => undefined);
  const schema = new Schema<Account>({ _id: { type: String, required: true } }, { collection: 'accounts' });
  schema.plugin(outboxPlugin);
  const relay = newRelay({
    models: [unreachable.model<Account>('Account', schema)],
    log: pino({ level: 'debug' }, capture),
    idleIntervalMs: 50,
    maxBackoffMs: 100,
  });
  relay.start();
  try {
    await eventually(
      'two database errors reported',
      () => lines.filter((line) => line.msg === 'outbox relay cannot read or write its database').length >= 2,
    );
    expect(lines.filter((line) => /cannot publish yet/.test(line.msg))).toEqual([]);
  } finally {
    await stopRelays();
    await unreachable.close().catch(() => undefined);
  }
});
