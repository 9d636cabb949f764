/**
 * The local stack end to end: the embedded MongoDB-compatible server, Kafka (KRaft) and maildev started in a temporary state
 * folder on free ports, each used through the client the services use, Kafka restarted on the
 * same ports and data, and nothing left running afterwards.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, Partitioners, logLevel, type Consumer } from 'kafkajs';
import mongoose from 'mongoose';
import nodemailer from 'nodemailer';
import { eventually } from '../../testing/eventually';
import { mailbox } from '../../testing/infra-control';
import {
  freePorts,
  infraStatus,
  provision,
  startInfra,
  startKafka,
  startMongoServer,
  stopInfra,
  stopKafka,
  stopMongoServer,
  type InfraEndpoints,
  type InfraPorts,
} from '../index';
import { PART_NAMES, partPaths } from '../paths';
import { findRunningPart, isProcessAlive } from '../process';

const stateDir = mkdtempSync(join(tmpdir(), 'haven-infra-test-'));
let ports: InfraPorts;
let endpoints: InfraEndpoints;

function kafkaClient(): Kafka {
  return new Kafka({ clientId: 'haven-infra-test', brokers: endpoints.kafkaBrokers, logLevel: logLevel.NOTHING });
}

async function produce(topic: string, values: string[]): Promise<void> {
  const producer = kafkaClient().producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  try {
    await producer.send({ topic, messages: values.map((value) => ({ key: 'user-1', value })) });
  } finally {
    await producer.disconnect();
  }
}

/** Reads the topic from the beginning in a fresh group until every expected value has arrived. */
async function consumeUntil(topic: string, expected: string[]): Promise<string[]> {
  const consumer: Consumer = kafkaClient().consumer({ groupId: `infra-test-${Date.now()}` });
  const received: string[] = [];
  let consumeFailure: unknown;
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    consumer
      .run({
        eachMessage: async ({ message }) => {
          received.push(message.value?.toString() ?? '');
        },
      })
      .catch((error: unknown) => {
        consumeFailure = error;
      });
    await eventually(`${JSON.stringify(expected)} read back from ${topic}`, () => {
      if (consumeFailure) throw consumeFailure;
      // Thrown, not false, so a timeout reports what did arrive.
      if (!expected.every((value) => received.includes(value))) throw new Error(`got ${JSON.stringify(received)}`);
      return true;
    });
  } finally {
    await consumer.disconnect();
  }
  return received;
}

beforeAll(async () => {
  await provision(() => undefined);
  const [mongo, kafka, kafkaController, smtp, mailWeb] = await freePorts(5);
  if (!mongo || !kafka || !kafkaController || !smtp || !mailWeb) throw new Error('no free ports');
  ports = { mongo, kafka, kafkaController, smtp, mailWeb };
  endpoints = await startInfra(stateDir, ports);
}, 300_000);

afterAll(async () => {
  await stopInfra(stateDir);
  rmSync(stateDir, { recursive: true, force: true });
}, 60_000);

test('all three parts report healthy, and a second start is a no-op', async () => {
  expect(await infraStatus(stateDir)).toEqual({ mongo: 'healthy', kafka: 'healthy', maildev: 'healthy' });
  const pidsBefore = PART_NAMES.map((part) => findRunningPart(stateDir, part));
  await startInfra(stateDir, ports);
  expect(PART_NAMES.map((part) => findRunningPart(stateDir, part))).toEqual(pidsBefore);
}, 30_000);

test('the database: insert then find through the MongoDB driver', async () => {
  expect(endpoints.mongoUrl).toBe(`mongodb://127.0.0.1:${ports.mongo}`);
  const connection = await mongoose
    .createConnection(endpoints.mongoUrl, { dbName: 'infra_test', serverSelectionTimeoutMS: 5_000 })
    .asPromise();
  try {
    const checkIns = connection.collection<{ userId: string; mood: number }>('checkins');
    await checkIns.insertOne({ userId: 'user-1', mood: 4 });
    const found = await checkIns.findOne({ userId: 'user-1' });
    expect(found?.mood).toBe(4);
  } finally {
    await connection.close();
  }
}, 30_000);

test('Kafka: produce then consume through kafkajs', async () => {
  const admin = kafkaClient().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'infra-test', numPartitions: 3 }], waitForLeaders: true });
  await admin.disconnect();
  await produce('infra-test', ['before-restart']);
  expect(await consumeUntil('infra-test', ['before-restart'])).toContain('before-restart');
}, 60_000);

test('maildev: a message sent over SMTP shows up on GET /email', async () => {
  const inbox = mailbox(endpoints.mailWebUrl);
  await inbox.deleteAllEmails();
  const transport = nodemailer.createTransport({
    host: endpoints.smtpHost,
    port: endpoints.smtpPort,
    secure: false,
    ignoreTLS: true,
  });
  await transport.sendMail({
    from: 'Haven <hello@haven.test>',
    to: 'someone@example.test',
    subject: 'Verify your e-mail',
    text: 'Hello from Haven',
  });
  transport.close();
  const email = await inbox.waitForEmail((caught) => caught.subject === 'Verify your e-mail', {
    what: 'the e-mail "Verify your e-mail" sent over SMTP',
  });
  expect(email.to[0]?.address).toBe('someone@example.test');
  expect(email.text?.trim()).toBe('Hello from Haven');
  await inbox.deleteAllEmails();
  expect(await inbox.listEmails()).toEqual([]);
}, 60_000);

test('Kafka: stops, restarts on the same ports and data, and takes messages again', async () => {
  const pidBefore = findRunningPart(stateDir, 'kafka');
  await stopKafka(stateDir);
  expect(pidBefore !== undefined && isProcessAlive(pidBefore)).toBe(false);
  expect((await infraStatus(stateDir)).kafka).toBe('stopped');

  await startKafka(stateDir);
  expect((await infraStatus(stateDir)).kafka).toBe('healthy');
  await produce('infra-test', ['after-restart']);
  // A fresh group reads from the beginning: the message from before the restart is still there.
  const received = await consumeUntil('infra-test', ['before-restart', 'after-restart']);
  expect(received).toEqual(expect.arrayContaining(['before-restart', 'after-restart']));
}, 120_000);

test('the database: stops, restarts on its data file, and answers by its indexes as before', async () => {
  const connect = () =>
    mongoose
      .createConnection(endpoints.mongoUrl, { dbName: 'infra_restart', serverSelectionTimeoutMS: 5_000 })
      .asPromise();
  const before = await connect();
  const quotes = before.collection<{ _id: string; userId: string; day: number }>('quotes');
  await quotes.createIndex({ userId: 1, day: -1 });
  await quotes.createIndex({ userId: 1, day: 1 }, { unique: true, name: 'one_per_day' });
  await quotes.insertMany(Array.from({ length: 30 }, (_, n) => ({ _id: `q${n}`, userId: `u${n % 3}`, day: n })));
  await before.close();

  await stopMongoServer(stateDir);
  await startMongoServer(stateDir, ports.mongo);
  const after = await connect();
  try {
    const reopened = after.collection<{ _id: string; userId: string; day: number }>('quotes');
    const days = (await reopened.find({ userId: 'u1' }).sort({ day: -1 }).toArray()).map((quote) => quote.day);
    expect(days).toEqual([28, 25, 22, 19, 16, 13, 10, 7, 4, 1]);
    // The ordered view of the rebuilt index: a page in index order, and a count on its entries.
    const page = await reopened.find({}).sort({ userId: 1, day: -1 }).skip(5).limit(5).toArray();
    expect(page.map((quote) => quote._id)).toEqual(['q12', 'q9', 'q6', 'q3', 'q0']);
    expect(await reopened.countDocuments({ userId: 'u2', day: { $gte: 10 } })).toBe(7);
    expect(await reopened.findOne({ _id: 'q4', userId: 'u1' })).toMatchObject({ day: 4 });
    // The unique indexes, rebuilt from the documents: a taken pair, and a taken id, are refused as before.
    await expect(reopened.insertOne({ _id: 'again', userId: 'u1', day: 4 })).rejects.toMatchObject({ code: 11000 });
    await expect(reopened.insertOne({ _id: 'q4', userId: 'u9', day: 99 })).rejects.toMatchObject({ code: 11000 });
    expect(await reopened.countDocuments({})).toBe(30);
  } finally {
    await after.close();
  }
}, 120_000);

test('a stale pid file (its process gone) reads as stopped and is removed', async () => {
  const fakeState = mkdtempSync(join(tmpdir(), 'haven-infra-stale-'));
  try {
    const { pidFile } = partPaths(fakeState, 'maildev');
    writeFileSync(pidFile, '999999\n');
    expect((await infraStatus(fakeState)).maildev).toBe('stopped');
    expect(existsSync(pidFile)).toBe(false);
  } finally {
    rmSync(fakeState, { recursive: true, force: true });
  }
});

test('stopInfra leaves no process behind', async () => {
  const pids = PART_NAMES.map((part) => findRunningPart(stateDir, part));
  expect(pids.every((pid) => pid !== undefined)).toBe(true);
  await stopInfra(stateDir);
  for (const pid of pids) expect(pid !== undefined && isProcessAlive(pid)).toBe(false);
  for (const part of PART_NAMES) expect(existsSync(partPaths(stateDir, part).pidFile)).toBe(false);
  expect(await infraStatus(stateDir)).toEqual({ mongo: 'stopped', kafka: 'stopped', maildev: 'stopped' });
}, 60_000);
