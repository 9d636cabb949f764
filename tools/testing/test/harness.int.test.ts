/**
 * The integration harness itself: what global-setup.ts publishes is reachable, and the
 * infra-control helpers (Kafka stop/start, mailbox, consumer groups) work from inside a test file.
 */
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import mongoose from 'mongoose';
import nodemailer from 'nodemailer';
import { skipEarlierFilesEvents } from '../consumer-groups';
import { mailbox, startTestKafka, stopTestKafka, testInfra } from '../infra-control';

const infra = testInfra();

async function produceOnce(value: string, topic = 'harness-test'): Promise<void> {
  const kafka = new Kafka({ clientId: 'harness-test', brokers: infra.kafkaBrokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  try {
    await producer.send({ topic, messages: [{ key: 'user-1', value }] });
  } finally {
    await producer.disconnect();
  }
}

test('the published MongoDB URL answers a ping', async () => {
  const connection = await mongoose.createConnection(infra.mongoUrl, { serverSelectionTimeoutMS: 5_000 }).asPromise();
  try {
    expect(await connection.db?.admin().ping()).toEqual(expect.objectContaining({ ok: 1 }));
  } finally {
    await connection.close();
  }
});

test('Kafka can be stopped and started again from a test', async () => {
  await produceOnce('before');
  await stopTestKafka();
  await startTestKafka();
  await produceOnce('after');
}, 120_000);

test('mail sent to the published SMTP port is readable through the mailbox helper, one recipient at a time', async () => {
  const inbox = mailbox();
  await inbox.deleteAllEmails();
  const transport = nodemailer.createTransport({
    host: infra.smtpHost,
    port: infra.smtpPort,
    secure: false,
    ignoreTLS: true,
  });
  for (const who of ['one', 'two']) {
    await transport.sendMail({ from: 'hello@haven.test', to: `${who}@example.test`, subject: `to ${who}`, text: 'hi' });
  }
  transport.close();
  const email = await inbox.waitForEmail({ to: 'one@example.test', what: 'the harness e-mail to one@example.test' });
  expect(email.subject).toBe('to one');
  await inbox.waitForEmail({ to: 'two@example.test', what: 'the harness e-mail to two@example.test' });
  expect((await inbox.listEmails()).map((each) => each.subject).sort()).toEqual(['to one', 'to two']);
  expect((await inbox.listEmails({ to: 'two@example.test' })).map((each) => each.subject)).toEqual(['to two']);
  expect((await inbox.listEmails({ subject: 'to one' })).map((each) => each.to[0]?.address)).toEqual([
    'one@example.test',
  ]);
});

test("a test Haven's consumer groups begin after the events earlier files left in their topics", async () => {
  const topic = `harness-offsets-${Date.now().toString(36)}`;
  const groupId = `${topic}-reader`;
  for (const value of ['first', 'second', 'third']) await produceOnce(value, topic);
  await skipEarlierFilesEvents(infra.kafkaBrokers, { [groupId]: [topic] });

  const admin = new Kafka({
    clientId: 'harness-test',
    brokers: infra.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const positions = Object.fromEntries(committed!.partitions.map((each) => [each.partition, each.offset]));
    expect(ends.reduce((sum, each) => sum + Number(each.high), 0)).toBe(3);
    for (const end of ends) expect(positions[end.partition]).toBe(end.high);
  } finally {
    await admin.disconnect();
  }
});
