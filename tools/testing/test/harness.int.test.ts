/**
 * The integration harness itself: what global-setup.ts publishes is reachable, and the
 * infra-control helpers (Kafka stop/start, mailbox) work from inside a test file.
 */
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import mongoose from 'mongoose';
import nodemailer from 'nodemailer';
import { mailbox, startTestKafka, stopTestKafka, testInfra } from '../infra-control';

const infra = testInfra();

async function produceOnce(value: string): Promise<void> {
  const kafka = new Kafka({ clientId: 'harness-test', brokers: infra.kafkaBrokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  try {
    await producer.send({ topic: 'harness-test', messages: [{ key: 'user-1', value }] });
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

test('mail sent to the published SMTP port is readable through the mailbox helper', async () => {
  const inbox = mailbox();
  await inbox.deleteAllEmails();
  const transport = nodemailer.createTransport({
    host: infra.smtpHost,
    port: infra.smtpPort,
    secure: false,
    ignoreTLS: true,
  });
  await transport.sendMail({ from: 'hello@haven.test', to: 'harness@example.test', subject: 'harness', text: 'hi' });
  transport.close();
  const email = await inbox.waitForEmail((caught) => caught.to.some((to) => to.address === 'harness@example.test'), {
    what: 'the harness e-mail to harness@example.test',
  });
  expect(email.subject).toBe('harness');
});
