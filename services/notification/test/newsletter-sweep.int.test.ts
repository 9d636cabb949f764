/**
 * The sweep that finishes a newsletter send which stopped making progress, against the real database and a
 * counting SMTP server: what a process killed mid-send leaves (claims still `sending`, page events lost,
 * copies to try again) goes out once, nobody is skipped, copies under way elsewhere and copies already
 * sent are left alone, and a send is marked complete once every copy has its outcome.
 */
import { createKafka, createLogger } from '@haven/platform';
import mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { messageIdOf } from '../src/domain/email-parts';
import { defaultStalledAfterMs, newsletterFanOut } from '../src/events/newsletter-fanout';
import { campaignModel } from '../src/model/campaign';
import { deliveryKey, deliveryModel, type DeliveryStatus } from '../src/model/delivery';
import { subscriberModel } from '../src/model/subscriber';
import { startCountingSmtp, type CountingSmtp } from '../../../tools/testing/smtp-sink';
import { subscriberDocument, testMailer, testLinks } from './support';
import { testInfra } from '../../../tools/testing/test-env';

const log = createLogger('newsletter-sweep-test', 'silent');
const from = 'Haven <hello@haven.example>';
const minutes = (count: number) => count * 60_000;
let smtp: CountingSmtp;
let connection: mongoose.Connection;
const closers: Array<() => unknown> = [];

beforeAll(async () => {
  smtp = await startCountingSmtp();
});

beforeEach(async () => {
  connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `sweep_${randomBytes(4).toString('hex')}` })
    .asPromise();
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await connection.close();
});

afterAll(async () => {
  await smtp?.close();
});

/** The fan-out as main.ts wires it, on this test's database, with the sweep's clock `now`. */
function fanOut(now: () => number = Date.now) {
  const deliveries = deliveryModel(connection);
  const mailer = testMailer({ port: smtp.port, from, deliveries, log });
  closers.push(() => mailer.close());
  return newsletterFanOut({
    kafka: createKafka('newsletter-sweep-test', testInfra().kafkaBrokers, log),
    campaigns: campaignModel(connection),
    subscribers: subscriberModel(connection),
    deliveries,
    mailer,
    ...testLinks,
    log,
    now,
  });
}

interface Seeded {
  id: string;
  email: string;
}

async function seedSubscribers(
  run: string,
  count: number,
  status: 'active' | 'unsubscribed',
  confirmedAt: Date,
  prefix = 's',
): Promise<Seeded[]> {
  const seeded = Array.from({ length: count }, (_, index) => ({
    id: `${prefix}-${run}-${String(index).padStart(4, '0')}`,
    email: `${prefix}-${index}-${run}@example.com`,
  }));
  await connection
    .collection('newsletter_subscribers')
    .insertMany(seeded.map(({ id, email }) => subscriberDocument(email, status, { id, at: confirmedAt }) as never));
  return seeded;
}

async function seedCampaign(subject: string, fields: { createdAt: Date; expandedAt: Date; cursor: string }) {
  const id = randomUUID();
  await connection.collection('newsletter_campaigns').insertOne({
    _id: id as never,
    subject,
    html: '<p>Kind words, once.</p>',
    recipients: 0,
    createdBy: 'admin',
    completedAt: null,
    outbox: [],
    outboxVersion: 0,
    ...fields,
  });
  return id;
}

async function seedDeliveries(campaignId: string, recipients: Seeded[], status: DeliveryStatus, at: Date) {
  if (recipients.length === 0) return;
  await connection.collection('deliveries').insertMany(
    recipients.map(({ email }) => ({
      _id: deliveryKey(campaignId, 'newsletter', email) as never,
      eventId: campaignId,
      userId: 'someone',
      kind: 'newsletter',
      to: email,
      status,
      attempts: 1,
      messageId: null,
      error: null,
      at,
    })),
  );
}

it('finishes a send a killed process left behind: nobody skipped, nothing sent twice, copies under way left alone', async () => {
  const run = randomBytes(3).toString('hex');
  const now = Date.now();
  const subject = `Sweep ${run}`;
  const everyone = await seedSubscribers(run, 300, 'active', new Date(now - minutes(10)));
  // Confirmed after the send was issued, or unsubscribed: not this send's recipients.
  const late = await seedSubscribers(run, 5, 'active', new Date(now - minutes(1)), 'late');
  const gone = await seedSubscribers(run, 5, 'unsubscribed', new Date(now - minutes(10)), 'gone');
  const cursor = [...everyone, ...late, ...gone]
    .map(({ id }) => id)
    .sort()
    .at(-1)!;
  const campaignId = await seedCampaign(subject, {
    createdAt: new Date(now - minutes(8)),
    expandedAt: new Date(now - minutes(7)),
    cursor,
  });
  const sent = everyone.slice(0, 100);
  const lostWithTheirHolder = everyone.slice(100, 150);
  const underWayElsewhere = everyone.slice(150, 170);
  const toTryAgain = everyone.slice(170, 200);
  const neverReached = everyone.slice(200);
  await seedDeliveries(campaignId, sent, 'sent', new Date(now - minutes(3)));
  await seedDeliveries(campaignId, lostWithTheirHolder, 'sending', new Date(now - minutes(6)));
  await seedDeliveries(campaignId, underWayElsewhere, 'sending', new Date(now - 5_000));
  await seedDeliveries(campaignId, toTryAgain, 'retryable', new Date(now - minutes(3)));

  // Each pass runs as if the send had made no progress for a while, so a slow machine's second pass
  // (after the first used its page budget) is not mistaken for progress.
  const sweep = fanOut(() => Date.now() + defaultStalledAfterMs + 1_000);
  const expected = [...lostWithTheirHolder, ...toTryAgain, ...neverReached];
  for (let pass = 0; pass < 20 && smtp.total(subject) < expected.length; pass += 1) await sweep.sweep();

  const copies = smtp.copies(subject);
  expect(expected.filter(({ email }) => copies.get(email) !== 1)).toEqual([]);
  expect([...sent, ...underWayElsewhere, ...late, ...gone].filter(({ email }) => copies.has(email))).toEqual([]);
  expect(smtp.total(subject)).toBe(expected.length);

  // A retaken claim counts its second attempt and keeps the delivery's one Message-ID.
  const retaken = await connection
    .collection('deliveries')
    .findOne({ _id: deliveryKey(campaignId, 'newsletter', lostWithTheirHolder[0]!.email) as never });
  expect(retaken).toMatchObject({ status: 'sent', attempts: 2, messageId: messageIdOf(String(retaken!._id), from) });

  // Not complete while copies are under way elsewhere; complete once they have their outcome.
  const campaigns = connection.collection('newsletter_campaigns');
  expect(await campaigns.findOne({ _id: campaignId as never })).toMatchObject({ completedAt: null });
  await connection
    .collection('deliveries')
    .updateMany({ eventId: campaignId, status: 'sending' }, { $set: { status: 'sent' } });
  await sweep.sweep();
  expect((await campaigns.findOne({ _id: campaignId as never }))?.completedAt).toBeInstanceOf(Date);
  expect(smtp.total(subject)).toBe(expected.length);
});

it('leaves a send that is still moving, and one issued over a day ago, to themselves', async () => {
  const run = randomBytes(3).toString('hex');
  const now = Date.now();
  const everyone = await seedSubscribers(run, 3, 'active', new Date(now - minutes(3 * 24 * 60)));
  const cursor = everyone.at(-1)!.id;
  const moving = await seedCampaign(`Moving ${run}`, {
    createdAt: new Date(now - minutes(2)),
    expandedAt: new Date(now - 5_000),
    cursor,
  });
  const old = await seedCampaign(`Old ${run}`, {
    createdAt: new Date(now - minutes(2 * 24 * 60)),
    expandedAt: new Date(now - minutes(2 * 24 * 60)),
    cursor,
  });
  const done = await seedCampaign(`Done ${run}`, {
    createdAt: new Date(now - minutes(5)),
    expandedAt: new Date(now - minutes(4)),
    cursor,
  });
  await seedDeliveries(done, everyone, 'sent', new Date(now - minutes(3)));

  expect(await fanOut().sweep()).toBe(0);

  for (const subject of [`Moving ${run}`, `Old ${run}`, `Done ${run}`]) expect(smtp.total(subject)).toBe(0);
  const campaigns = connection.collection('newsletter_campaigns');
  expect((await campaigns.findOne({ _id: done as never }))?.completedAt).toBeInstanceOf(Date);
  expect(await campaigns.findOne({ _id: moving as never })).toMatchObject({ completedAt: null });
  expect(await campaigns.findOne({ _id: old as never })).toMatchObject({ completedAt: null });
});
