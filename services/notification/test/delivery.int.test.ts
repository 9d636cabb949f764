/**
 * E-mail delivery against a real SMTP server (the `smtp-server` package, made slow or refusing on
 * purpose), the real Kafka and the embedded database: once per event and recipient, whatever the
 * timing, and a refused address never holds up the e-mails behind it.
 */
import { encodeEvent, timestampFromDate, topicOf } from '@haven/proto';
import { createKafka, createLogger, createProducer, ensureTopics, type Logger } from '@haven/platform';
import type { Kafka, Producer } from 'kafkajs';
import mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { replicaMailTokens, startNotificationReplica } from './support';
import { deliveryModel, recipientDigest, type DeliveryRecord } from '../src/model/delivery';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { capturedLog } from '../../../tools/testing/captured-log';
import { skipEarlierFilesEvents } from '../../../tools/testing/consumer-groups';
import { startTestHaven } from '../../../tools/testing/haven';
import { testInfra } from '../../../tools/testing/test-env';

const log = createLogger('delivery-test', 'silent');
const topic = topicOf('user');
let kafka: Kafka;
let producer: Producer;
let connection: mongoose.Connection;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  const infra = testInfra();
  kafka = createKafka('delivery-test', infra.kafkaBrokers, log);
  await ensureTopics(kafka, [topic]);
  producer = createProducer(kafka);
  await producer.connect();
  connection = await mongoose
    .createConnection(infra.mongoUrl, { dbName: `delivery_${randomBytes(4).toString('hex')}` })
    .asPromise();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await producer?.disconnect();
  await connection?.close();
});

interface TestSmtp {
  port: number;
  /** Recipients of each message the server accepted, in order. */
  accepted: string[][];
  /** Every RCPT TO the server saw, refused or not, in order. */
  recipientsTried: string[];
}

/**
 * A real SMTP server; `refuse` answers 550 to a recipient, `slow` picks recipients whose RCPT and DATA
 * replies take `delayMs` each (only the test's own: the topic also holds other test files' sign-ups).
 */
async function startSmtp(
  options: { refuse?: (address: string) => boolean; slow?: (address: string) => boolean; delayMs?: number } = {},
) {
  const smtp: TestSmtp = { port: 0, accepted: [], recipientsTried: [] };
  const wait = (address: string) =>
    new Promise((resolve) => setTimeout(resolve, options.slow?.(address) ? (options.delayMs ?? 0) : 0));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      smtp.recipientsTried.push(address.address);
      if (options.refuse?.(address.address)) {
        // As real servers do, the refusal quotes the address.
        callback(Object.assign(new Error(`<${address.address}>: No such mailbox here`), { responseCode: 550 }));
        return;
      }
      void wait(address.address).then(() => callback());
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        const recipients = session.envelope.rcptTo.map((to) => to.address);
        smtp.accepted.push(recipients);
        void wait(recipients[0] ?? '').then(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  smtp.port = (server.server.address() as AddressInfo).port;
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return smtp;
}

function registered(email: string) {
  const userId = randomUUID();
  const event = encodeEvent({
    type: 'user.registered',
    producer: 'user',
    subjectId: userId,
    correlationId: 'delivery-test',
    payload: {
      userId,
      email,
      firstName: 'Ada',
      authProvider: 'email',
      verification: {
        sealedToken: replicaMailTokens.seal(randomUUID()),
        expiresAt: timestampFromDate(new Date(Date.now() + 86_400_000)),
      },
    },
  });
  return { userId, event, message: { key: event.key, value: Buffer.from(event.value) } };
}

/** One notification consumer replica, wired as the service wires it, with its own group and SMTP server. */
async function startReplica(
  groupId: string,
  smtpPort: number,
  deliveries = deliveryModel(connection),
  replicaLog: Logger = log,
) {
  // A new group reads from the topic's end, not through every earlier file's user events.
  await skipEarlierFilesEvents(testInfra().kafkaBrokers, { [groupId]: [topic] });
  const replica = await startNotificationReplica({
    kafka,
    connection,
    log: replicaLog,
    serviceGroup: 'notification',
    groupId,
    smtpPort,
    deliveries,
  });
  cleanups.push(replica.stop);
  return replica.consumer;
}

/** Resolves once the group has committed past `offset` on `partition`: no replica will handle it again. */
async function committedPast(groupId: string, partition: number, offset: string) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await eventually(`group ${groupId} committing past offset ${offset}`, async () => {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      const committed = offsets?.partitions.find((entry) => entry.partition === partition)?.offset ?? '-1';
      return BigInt(committed) > BigInt(offset);
    });
  } finally {
    await admin.disconnect();
  }
}

async function send(message: { key: string; value: Buffer }) {
  const [metadata] = await producer.send({ topic, messages: [message], acks: -1 });
  return { partition: metadata!.partition, offset: metadata!.baseOffset! };
}

it('sends one e-mail when the mail server answers slower than a consumer session, with two replicas', async () => {
  const email = uniqueEmail('slow-smtp');
  const smtp = await startSmtp({ slow: (address) => address === email, delayMs: 6_000 });
  const groupId = `slow-${randomBytes(4).toString('hex')}`;
  await startReplica(groupId, smtp.port);
  await startReplica(groupId, smtp.port);
  const { message } = registered(email);
  const { partition, offset } = await send(message);
  await eventually('the slow e-mail accepted', () => smtp.accepted.some((to) => to.includes(email)));
  await committedPast(groupId, partition, offset);
  const deliveries = deliveryModel(connection);
  await eventually('the slow delivery recorded as sent', () => deliveries.findOne({ to: email, status: 'sent' }));
  expect(smtp.accepted.filter((to) => to.includes(email))).toHaveLength(1);
});

it('sends one e-mail when recording the delivery fails after the send', async () => {
  const smtp = await startSmtp();
  const email = uniqueEmail('flaky-record');
  let failuresLeft = 3;
  const schema = deliveryModel(connection).schema.clone();
  schema.pre('updateOne', function () {
    const update = this.getUpdate() as { $set?: Partial<DeliveryRecord> };
    const isThisDelivery = String((this.getFilter() as { _id?: unknown })._id).endsWith(`:${recipientDigest(email)}`);
    if (isThisDelivery && update.$set?.status === 'sent' && failuresLeft > 0) {
      failuresLeft -= 1;
      throw new Error('the database went away for a moment');
    }
  });
  const flaky = connection.model<DeliveryRecord>('FlakyDelivery', schema, 'deliveries_flaky');
  const groupId = `flaky-${randomBytes(4).toString('hex')}`;
  await startReplica(groupId, smtp.port, flaky);
  const { partition, offset } = await send(registered(email).message);
  const record = await eventually('the delivery recorded as sent after the failures', () =>
    flaky.findOne({ to: email, status: 'sent' }).lean(),
  );
  await committedPast(groupId, partition, offset);
  expect(failuresLeft).toBe(0);
  expect(record.attempts).toBe(1);
  expect(smtp.accepted.filter((to) => to.includes(email))).toHaveLength(1);
});

it('delivers the next verification e-mail while ten refused addresses have not used any retries', async () => {
  const smtp = await startSmtp({ refuse: (address) => address.startsWith('refused-') });
  const haven = await startTestHaven({ env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) } });
  cleanups.push(() => haven.stop());
  await haven.services.notification.eventsReady;
  const api = new ApiClient(haven.gatewayUrl);
  const refused = Array.from({ length: 10 }, (_, n) => uniqueEmail(`refused-${n}`));
  for (const email of refused) {
    expect((await api.post('/api/auth/register', { email, password: 'a long password' })).status).toBe(201);
  }
  const normal = uniqueEmail('after-refused');
  expect((await api.post('/api/auth/register', { email: normal, password: 'a long password' })).status).toBe(201);

  await eventually('the normal verification e-mail accepted', () => smtp.accepted.some((to) => to.includes(normal)));
  // Ordering, not a stopwatch: when it arrived, no refused address had been tried a second time.
  const triesWhenItArrived = refused.map((email) => smtp.recipientsTried.filter((to) => to === email).length);
  expect(Math.max(...triesWhenItArrived)).toBeLessThanOrEqual(1);

  const deliveries = await haven.collection('notification', 'deliveries');
  await eventuallyExpect('each refused address recorded as failed', async () =>
    expect(await deliveries.countDocuments({ to: { $in: refused }, status: 'failed' })).toBe(refused.length),
  );
  // Refused for good is not retried: one try each.
  expect(refused.map((email) => smtp.recipientsTried.filter((to) => to === email).length)).toEqual(
    refused.map(() => 1),
  );
});

it('keeps the words of a refusing mail server, which quote the address, out of the logs and the delivery log', async () => {
  const email = uniqueEmail('refused-quoted');
  const smtp = await startSmtp({ refuse: (address) => address === email });
  const captured = capturedLog('debug');
  // A delivery log of its own: the earlier tests' replicas, still running, would claim this e-mail in the shared one.
  const deliveries = connection.model<DeliveryRecord>(
    'QuotedRefusalDelivery',
    deliveryModel(connection).schema,
    'deliveries_quoted_refusal',
  );
  const groupId = `refused-${randomBytes(4).toString('hex')}`;
  await startReplica(groupId, smtp.port, deliveries, captured.log);
  const { partition, offset } = await send(registered(email).message);
  const record = await eventually('the refusal recorded', () =>
    deliveries.findOne({ to: email, status: 'failed' }).lean(),
  );
  await committedPast(groupId, partition, offset);
  expect(record.error).toMatch(/^SMTP 550\b/);
  const refusal = captured.withMessage('the mail server refused the e-mail for good; not retried');
  expect(refusal).toHaveLength(1);
  expect(refusal[0]).toMatchObject({ smtp: expect.stringMatching(/^SMTP 550\b/), kind: 'verify-email' });
  const [localPart] = email.split('@');
  for (const written of [captured.text(), JSON.stringify(record.error), String(record._id)]) {
    expect(written).not.toContain(localPart);
  }
});
