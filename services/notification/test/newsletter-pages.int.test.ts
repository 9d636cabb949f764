/**
 * The fan-out's page events against the real database, Kafka and SMTP servers of the test's own: each
 * copy goes once although the page is delivered twice and two replicas share the group, and while a
 * second member joins the group mid-send and leaves it again; a copy the server refuses for now goes on a
 * later try (the consumer's back-off); a page whose copy keeps being refused for now is dead-lettered
 * after the last try, its other copies sent once; someone who unsubscribed in between gets nothing; a
 * page out of time hands the rest to a new event; a copy for a mail server that cannot be reached waits
 * for a later try, then goes once.
 */
import { encodeEvent, topicOf } from '@haven/proto';
import { createKafka, createLogger, createProducer, ensureTopics, processedEventsCollection } from '@haven/platform';
import type { Kafka, Producer } from 'kafkajs';
import mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startNotificationReplica, testMailer } from './support';
import { type DeliveryRequest } from '../src/providers/mailer';
import { campaignModel } from '../src/model/campaign';
import { deliveryModel } from '../src/model/delivery';
import { subscriberModel } from '../src/model/subscriber';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import { testInfra } from '../../../tools/testing/test-env';

const log = createLogger('newsletter-pages-test', 'silent');
let kafka: Kafka;
let producer: Producer;
/** Each test's own database: the topic is shared, so another test's replicas find no campaign of this one. */
let connection: mongoose.Connection;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  kafka = createKafka('newsletter-pages-test', testInfra().kafkaBrokers, log);
  await ensureTopics(kafka, [topicOf('notification')]);
  producer = createProducer(kafka);
  await producer.connect();
});

beforeEach(async () => {
  connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `pages_${randomBytes(4).toString('hex')}` })
    .asPromise();
  const current = connection;
  cleanups.push(() => current.close());
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

afterAll(async () => {
  await producer?.disconnect();
});

/**
 * An SMTP server that counts copies per recipient; `later(address, tries)` answers 451 ("not now"); each
 * message takes `delayMs` to accept (a slower server, so a send lasts long enough to be disturbed).
 */
async function startSmtp(later: (address: string, tries: number) => boolean = () => false, delayMs = 0) {
  const copies = new Map<string, number>();
  const tries = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const tried = (tries.get(address.address) ?? 0) + 1;
      tries.set(address.address, tried);
      if (later(address.address, tried)) {
        callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        setTimeout(() => {
          for (const to of session.envelope.rcptTo) copies.set(to.address, (copies.get(to.address) ?? 0) + 1);
          callback();
        }, delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as AddressInfo).port, copies, tries };
}

/** One replica of the fan-out's consumer group, wired as the service wires it. */
async function startReplica(groupId: string, smtpPort: number, now?: () => number) {
  const replica = await startNotificationReplica({
    kafka,
    connection,
    log,
    serviceGroup: 'notification-newsletter',
    groupId,
    smtpPort,
    ...(now ? { now } : {}),
  });
  cleanups.push(replica.stop);
  return replica;
}

/** Subscribers and a campaign in the test's database; returns the subscribers' ids and addresses. */
async function seed(prefix: string, statuses: Array<'active' | 'unsubscribed'>) {
  const now = new Date();
  const people = statuses.map((status, index) => ({
    _id: randomUUID(),
    email: `${prefix}-${index}-${randomBytes(3).toString('hex')}@example.com`,
    status,
  }));
  await subscriberModel(connection).insertMany(
    people.map((person) => ({
      ...person,
      userId: null,
      source: 'test',
      createdAt: now,
      confirmedAt: now,
      unsubscribedAt: person.status === 'unsubscribed' ? now : null,
    })),
  );
  const campaignId = randomUUID();
  await campaignModel(connection).create({
    _id: campaignId,
    subject: `Pages ${prefix}`,
    html: '<p>One copy each.</p>',
    recipients: people.length,
    createdBy: 'admin',
    createdAt: now,
  });
  return { campaignId, people };
}

/** Publishes one page event (as an expansion does) and returns its event id. */
async function publishPage(campaignId: string, subscriberIds: string[]): Promise<string> {
  const event = encodeEvent({
    type: 'notification.newsletter_page_requested',
    producer: 'notification',
    subjectId: subscriberIds[0]!,
    correlationId: 'pages-test',
    payload: { campaignId, subscriberIds },
  });
  await producer.send({
    topic: event.topic,
    acks: -1,
    messages: [{ key: event.key, value: Buffer.from(event.value) }],
  });
  return event.eventId;
}

const deliveries = () => deliveryModel(connection);

it('sends each copy once though the page comes twice to two replicas, and a copy refused for now later', async () => {
  const { campaignId, people } = await seed('twice', [...Array<'active'>(60).fill('active'), 'unsubscribed']);
  const busy = people[7]!.email;
  const smtp = await startSmtp((address, tries) => address === busy && tries <= 2);
  const groupId = `pages-${randomBytes(4).toString('hex')}`;
  await startReplica(groupId, smtp.port);
  await startReplica(groupId, smtp.port);
  const ids = people.map((person) => person._id);
  await publishPage(campaignId, ids);
  await publishPage(campaignId, ids); // an expansion done twice (a crash before its cursor moved)

  const active = people.filter((person) => person.status === 'active');
  await eventuallyExpect('every active subscriber’s copy recorded as sent', async () =>
    expect(await deliveries().countDocuments({ eventId: campaignId, status: 'sent' })).toBe(active.length),
  );
  expect(active.filter((person) => smtp.copies.get(person.email) !== 1)).toEqual([]);
  expect(smtp.copies.has(people.at(-1)!.email)).toBe(false); // unsubscribed before the page ran
  expect(await deliveries().findOne({ eventId: campaignId, to: busy }).lean()).toMatchObject({
    status: 'sent',
    attempts: 3,
  });
  expect(await deliveries().countDocuments({ eventId: campaignId, status: { $ne: 'sent' } })).toBe(0);
});

it('sends every copy once while a second member joins the group mid-send and then leaves it', async () => {
  const { campaignId, people } = await seed('rebalance', Array<'active'>(2_000).fill('active'));
  const smtp = await startSmtp(undefined, 50);
  const total = () => [...smtp.copies.values()].reduce((sum, count) => sum + count, 0);
  const groupId = `pages-${randomBytes(4).toString('hex')}`;
  await startReplica(groupId, smtp.port);
  const ids = people.map((person) => person._id);
  for (let start = 0; start < ids.length; start += 100) await publishPage(campaignId, ids.slice(start, start + 100));

  await eventually('the first copies out', () => total() >= 100, { timeoutMs: 120_000 });
  const second = await startReplica(groupId, smtp.port); // the group rebalances to let it in
  const atJoin = total();
  await eventually('more copies out after the join', () => total() >= atJoin + 100, { timeoutMs: 120_000 });
  await second.stop(); // and rebalances again as it leaves
  const atLeave = total();

  await eventuallyExpect(
    'every copy recorded as sent',
    async () => expect(await deliveries().countDocuments({ eventId: campaignId, status: 'sent' })).toBe(2_000),
    { timeoutMs: 180_000 },
  );
  // Both rebalances happened mid-send.
  expect(atJoin).toBeLessThan(2_000);
  expect(atLeave).toBeLessThan(2_000);
  expect(people.filter((person) => smtp.copies.get(person.email) !== 1)).toEqual([]);
}, 420_000);

it('dead-letters a page after its last try when a copy keeps being refused for now; the others go once', async () => {
  const { campaignId, people } = await seed('stuck', Array<'active'>(10).fill('active'));
  const stuck = people[3]!.email;
  const smtp = await startSmtp((address) => address === stuck);
  const groupId = `pages-${randomBytes(4).toString('hex')}`;
  await startReplica(groupId, smtp.port);
  const eventId = await publishPage(
    campaignId,
    people.map((person) => person._id),
  );

  const processed = connection.collection(processedEventsCollection(groupId));
  await eventually('the page dead-lettered', () =>
    processed.findOne({ _id: eventId as never, outcome: 'dead-lettered' }),
  );
  expect(people.filter((person) => person.email !== stuck && smtp.copies.get(person.email) !== 1)).toEqual([]);
  expect(smtp.copies.has(stuck)).toBe(false);
  // Five tries, each a new claim of a copy that was never handed over; a redrive could still send it.
  expect(smtp.tries.get(stuck)).toBe(5);
  expect(await deliveries().findOne({ eventId: campaignId, to: stuck }).lean()).toMatchObject({
    status: 'retryable',
    attempts: 5,
  });
});

it('hands the rest of a page to a new event when its time runs out, each copy still going once', async () => {
  const { campaignId, people } = await seed('budget', Array<'active'>(100).fill('active'));
  const smtp = await startSmtp();
  const groupId = `pages-${randomBytes(4).toString('hex')}`;
  // Every look at the clock is ten seconds later: each page event gets through one chunk only.
  let clock = 0;
  await startReplica(groupId, smtp.port, () => (clock += 10_000));
  await publishPage(
    campaignId,
    people.map((person) => person._id),
  );

  await eventuallyExpect('every copy recorded as sent', async () =>
    expect(await deliveries().countDocuments({ eventId: campaignId, status: 'sent' })).toBe(people.length),
  );
  expect(people.filter((person) => smtp.copies.get(person.email) !== 1)).toEqual([]);
  const pages = await connection
    .collection(processedEventsCollection(groupId))
    .countDocuments({ type: 'notification.newsletter_page_requested', outcome: 'handled' });
  expect(pages).toBeGreaterThan(1);
});

it('leaves a copy to try again when the mail server cannot be reached, and sends it once when it can', async () => {
  const closedPort = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const request: DeliveryRequest = {
    eventId: randomUUID(),
    kind: 'newsletter',
    userId: randomUUID(),
    to: `unreachable-${randomBytes(3).toString('hex')}@example.com`,
    email: { subject: 'Once', text: 'One copy.', html: '<p>One copy.</p>' },
  };
  const away = testMailer({ port: closedPort, deliveries: deliveries(), log });
  cleanups.push(async () => away.close());
  expect(await away.deliverMany([request])).toEqual(['retryable']);
  expect(await deliveries().findOne({ to: request.to }).lean()).toMatchObject({ status: 'retryable', attempts: 1 });

  const smtp = await startSmtp();
  const back = testMailer({ port: smtp.port, deliveries: deliveries(), log });
  cleanups.push(async () => back.close());
  // Two at once (two replicas' retries): one copy.
  const [first, second] = await Promise.all([back.deliverMany([request]), back.deliverMany([request])]);
  expect([...first, ...second].sort()).toEqual(['already-claimed', 'sent']);
  expect(smtp.copies.get(request.to)).toBe(1);
  expect(await deliveries().findOne({ to: request.to }).lean()).toMatchObject({ status: 'sent', attempts: 2 });
});
