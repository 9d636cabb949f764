/**
 * The retention sweep, driven with a chosen clock (the embedded database ignores TTL indexes, and the periods are
 * months): delivery records and subscribers just past their period go, those just inside it stay, and nothing
 * the admin or a person sees changes: the last send's counts, the weekly summary already sent this week (not
 * sent again), an old newsletter's unsubscribe link.
 */
import {
  createLogger,
  mailTokenKey,
  mailTokenSealer,
  markPending,
  outboxCollections,
  personKeyring,
} from '@haven/platform';
import mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { unsubscribeByToken } from '../src/model/newsletter';
import { unsubscribeTokenOf } from '../src/domain/newsletter';
import { deliveryRetentionMs, expiredConfirmationRetentionMs, unsubscribedRetentionMs } from '../src/domain/retention';
import { summaryWeekAt } from '../src/domain/weekly-summary';
import { sweepRetention } from '../src/jobs/retention-sweep';
import { settledKeys } from '../src/jobs/scheduled-emails';
import { weeklySummaryKey, weeklySummarySender } from '../src/jobs/weekly-summary';
import { campaignModel, deliveryCountsOf } from '../src/model/campaign';
import { deliveryModel, type DeliveryRecord, type DeliveryStatus } from '../src/model/delivery';
import { knownUserModel } from '../src/model/known-user';
import { preferencesModel } from '../src/model/preferences';
import { subscriberModel } from '../src/model/subscriber';
import { weeklyCheckInsModel } from '../src/model/weekly-check-ins';
import { testLinkKey } from '../../../tools/testing/haven';
import { startCountingSmtp, type CountingSmtp } from '../../../tools/testing/smtp-sink';
import { testInfra } from '../../../tools/testing/test-env';
import { subscriberDocument, testMailer, testLinks } from './support';

const log = createLogger('retention-sweep-test', 'silent');
const from = 'Haven <hello@haven.example>';
const minute = 60_000;
const day = 24 * 60 * minute;
let connection: mongoose.Connection;
let smtp: CountingSmtp;
const closers: Array<() => unknown> = [];

beforeAll(async () => {
  smtp = await startCountingSmtp();
  connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `retention_${randomBytes(4).toString('hex')}` })
    .asPromise();
});

afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  await connection?.dropDatabase();
  await connection?.close();
  await smtp?.close();
});

/** A Sunday at 10:00 UTC: inside the weekly summary's window for a person on UTC. */
const now = new Date('2026-11-29T10:00:00Z');
const at = (offset: number) => new Date(now.getTime() + offset);

function models() {
  return {
    deliveries: deliveryModel(connection),
    campaigns: campaignModel(connection),
    subscribers: subscriberModel(connection),
  };
}

function delivery(
  fields: Pick<DeliveryRecord, 'eventId' | 'kind' | 'at'> & { status?: DeliveryStatus; to?: string; _id?: string },
): DeliveryRecord {
  const to = fields.to ?? `${randomUUID()}@example.com`;
  return {
    _id: fields._id ?? `${fields.eventId}:${fields.kind}:${to}`,
    eventId: fields.eventId,
    userId: randomUUID(),
    kind: fields.kind,
    to,
    status: fields.status ?? 'sent',
    attempts: 1,
    messageId: null,
    error: null,
    at: fields.at,
  };
}

/** A send created at `createdAt`, and its copies logged at `loggedAt`: three sent, one refused, one lost, one to retry. */
async function seedCampaign(createdAt: Date, loggedAt: Date = createdAt): Promise<string> {
  const id = randomUUID();
  await models().campaigns.collection.insertOne({
    _id: id as never,
    subject: `Sunday letter ${id}`,
    html: '<p>Hello</p>',
    recipients: 6,
    createdBy: randomUUID(),
    createdAt,
    cursor: '',
    expandedAt: createdAt,
    completedAt: createdAt,
    outbox: [],
    outboxVersion: 1,
    deliveryCounts: null,
  });
  const statuses: DeliveryStatus[] = ['sent', 'sent', 'sent', 'failed', 'unknown', 'retryable'];
  await models().deliveries.collection.insertMany(
    statuses.map((status) => delivery({ eventId: id, kind: 'newsletter', status, at: loggedAt })) as never[],
  );
  return id;
}

/** What the admin page shows of the newest send (the resolver's query and counts). */
async function lastCampaignAsShown() {
  const { campaigns, deliveries } = models();
  const last = await campaigns
    .findOne({}, { subject: 1, recipients: 1, createdAt: 1, deliveryCounts: 1 })
    .sort({ createdAt: -1 })
    .lean();
  return { id: last!._id, recipients: last!.recipients, ...(await deliveryCountsOf({ campaigns, deliveries }, last!)) };
}

describe('the delivery log', () => {
  it('deletes the records older than the period, keeps the younger ones, and the last send’s counts stay', async () => {
    const { deliveries, campaigns } = models();
    const cutoff = at(-deliveryRetentionMs);
    // Security and billing e-mails on either side of the cutoff.
    const oldMail = delivery({
      eventId: randomUUID(),
      kind: 'password-changed',
      at: new Date(cutoff.getTime() - minute),
    });
    const youngMail = delivery({
      eventId: randomUUID(),
      kind: 'billing-receipt',
      at: new Date(cutoff.getTime() + minute),
    });
    await deliveries.collection.insertMany([oldMail, youngMail] as never[]);
    // Sends: one long past, and the newest (the one the admin page shows) a day past the period.
    const ancient = await seedCampaign(at(-200 * day));
    // Stored before campaigns kept counts: no field at all.
    await campaigns.updateOne({ _id: ancient }, { $unset: { deliveryCounts: '' } });
    const newest = await seedCampaign(at(-deliveryRetentionMs - day));
    const shownBefore = await lastCampaignAsShown();
    expect(shownBefore).toEqual({ id: newest, recipients: 6, sent: 3, failed: 2 });

    expect(await sweepRetention(models(), now)).toMatchObject({ deliveries: 1 + 6 + 6, campaignsCounted: 2 });

    expect(await deliveries.exists({ _id: oldMail._id })).toBeNull();
    expect(await deliveries.exists({ _id: youngMail._id })).not.toBeNull();
    expect(await deliveries.countDocuments({ eventId: { $in: [ancient, newest] } })).toBe(0);
    // The admin page shows the same numbers, now kept in the campaign.
    expect(await lastCampaignAsShown()).toEqual(shownBefore);
    expect((await campaigns.findById(ancient).lean())?.deliveryCounts).toEqual({ sent: 3, failed: 2 });
  });

  it('keeps the copies of a send inside the period, even those a clock a little behind logged outside it', async () => {
    const { deliveries, campaigns } = models();
    const cutoff = at(-deliveryRetentionMs);
    const skewed = await seedCampaign(new Date(cutoff.getTime() + 1_000), new Date(cutoff.getTime() - minute));
    const yesterdays = await seedCampaign(at(-day));
    const shownBefore = await lastCampaignAsShown();
    expect(shownBefore).toEqual({ id: yesterdays, recipients: 6, sent: 3, failed: 2 });

    expect(await sweepRetention(models(), now)).toMatchObject({ deliveries: 0, campaignsCounted: 0 });
    expect(await deliveries.countDocuments({ eventId: skewed })).toBe(6);
    expect(await deliveries.countDocuments({ eventId: yesterdays })).toBe(6);
    expect(await lastCampaignAsShown()).toEqual(shownBefore);
    expect((await campaigns.findById(yesterdays).lean())?.deliveryCounts).toBeNull();

    // Two seconds on, the skewed send is past the period: counted first, then its copies go; a sweep with nothing
    // left to do changes nothing.
    const later = at(2_000);
    expect(await sweepRetention(models(), later)).toMatchObject({ deliveries: 6, campaignsCounted: 1 });
    expect((await campaigns.findById(skewed).lean())?.deliveryCounts).toEqual({ sent: 3, failed: 2 });
    expect(await sweepRetention(models(), later)).toMatchObject({ deliveries: 0, campaignsCounted: 0 });
    expect(await deliveries.countDocuments({ eventId: yesterdays })).toBe(6);
  });

  it('keeps this week’s weekly summary settled: the next pass in the window sends no second copy', async () => {
    const { deliveries } = models();
    const tallies = weeklyCheckInsModel(connection);
    const knownUsers = knownUserModel(connection);
    const preferences = preferencesModel(connection);
    const week = summaryWeekAt(now, 'UTC')!;
    const [alreadySent, notYet] = [randomUUID(), randomUUID()];
    const address = (userId: string) => `summary-${userId}@example.com`;
    for (const userId of [alreadySent, notYet]) {
      await knownUsers.create({
        _id: userId,
        email: address(userId),
        emailVerified: true,
        timeZone: 'UTC',
        updatedAt: now,
      });
      await preferences.create({
        _id: userId,
        marketingEmails: false,
        productUpdates: false,
        securityNotifications: true,
        newsletter: false,
        weeklySummary: true,
        updatedAt: now,
      });
      await tallies.create({
        _id: userId,
        days: [{ day: week.firstDay + 3, checkIns: 1, moodSum: 4 }],
        recentQuoteIds: [],
        streak: { lastDay: week.firstDay + 3, run: 1, longest: 1 },
        revision: 1,
        updatedAt: now,
      });
    }
    // This week's summary went out an hour ago (an earlier pass); the one of a week beyond the period too.
    const thisWeek = weeklySummaryKey(alreadySent, week);
    const longAgo = weeklySummaryKey(alreadySent, { id: '2026-08-16' });
    await deliveries.collection.insertMany([
      delivery({
        _id: thisWeek,
        eventId: `weekly-summary:${week.id}`,
        kind: 'weekly-summary',
        to: address(alreadySent),
        at: at(-60 * minute),
      }),
      delivery({
        _id: longAgo,
        eventId: 'weekly-summary:2026-08-16',
        kind: 'weekly-summary',
        to: address(alreadySent),
        at: at(-deliveryRetentionMs - day),
      }),
    ] as never[]);

    await sweepRetention(models(), now);

    expect(await deliveries.exists({ _id: longAgo })).toBeNull();
    expect(await settledKeys(deliveries, [thisWeek])).toEqual(new Set([thisWeek]));
    const mailer = testMailer({ port: smtp.port, from, deliveries, log });
    closers.push(() => mailer.close());
    const sender = weeklySummarySender({
      tallies,
      // The tallies here are stored as kept before their days were sealed: read as they are, no key needed.
      keyring: personKeyring(async () => null),
      knownUsers,
      preferences,
      deliveries,
      mailer,
      ...testLinks,
      log,
    });
    // Only the person whose summary had not gone yet gets one.
    expect(await sender.sendDue(at(5 * minute))).toBe(1);
    expect(smtp.copies('Your week with Haven')).toEqual(new Map([[address(notYet), 1]]));
  });
});

describe('newsletter subscribers', () => {
  const subscriber = (status: 'active' | 'pending' | 'unsubscribed', changes: Record<string, unknown>) => ({
    ...subscriberDocument(`${status}-${randomUUID()}@example.com`, status, { at: at(-400 * day) }),
    ...changes,
  });

  it('deletes the unsubscribed a month on and the never-confirmed a week after their link expired, with their outbox marks', async () => {
    const { subscribers } = models();
    const unsubscribedCutoff = at(-unsubscribedRetentionMs);
    const expiredCutoff = at(-expiredConfirmationRetentionMs);
    const seeded = {
      unsubscribedLongAgo: subscriber('unsubscribed', {
        unsubscribedAt: new Date(unsubscribedCutoff.getTime() - minute),
      }),
      unsubscribedLately: subscriber('unsubscribed', {
        unsubscribedAt: new Date(unsubscribedCutoff.getTime() + minute),
      }),
      expiredLongAgo: subscriber('pending', {
        confirmTokenHash: randomBytes(32).toString('hex'),
        confirmExpiresAt: new Date(expiredCutoff.getTime() - minute),
      }),
      expiredLately: subscriber('pending', {
        confirmTokenHash: randomBytes(32).toString('hex'),
        confirmExpiresAt: new Date(expiredCutoff.getTime() + minute),
      }),
      waiting: subscriber('pending', { confirmTokenHash: randomBytes(32).toString('hex'), confirmExpiresAt: at(day) }),
      activeForYears: subscriber('active', {}),
    };
    await subscribers.collection.insertMany(Object.values(seeded) as never[]);
    const idOf = (name: keyof typeof seeded) => seeded[name]._id as string;
    const outboxKey = (id: string) => `${subscribers.collection.collectionName}:${id}`;
    // What the outbox relay keeps of a subscriber whose events it published, or has yet to.
    for (const name of ['unsubscribedLongAgo', 'expiredLongAgo', 'unsubscribedLately', 'expiredLately'] as const) {
      await markPending(connection, subscribers.collection.collectionName, idOf(name));
      await connection
        .collection<{ _id: string }>(outboxCollections.marks)
        .insertOne({ _id: outboxKey(idOf(name)), publishedUpTo: 1, state: 'ok', failures: 0 } as never);
    }

    expect(await sweepRetention(models(), now)).toMatchObject({ unsubscribed: 1, pending: 1 });

    const left = (
      await subscribers.collection
        .find({ _id: { $in: Object.values(seeded).map((each) => each._id) as never[] } })
        .toArray()
    ).map((found) => String(found._id));
    expect(left.sort()).toEqual(
      (['unsubscribedLately', 'expiredLately', 'waiting', 'activeForYears'] as const).map(idOf).sort(),
    );
    for (const [name, kept] of [
      ['unsubscribedLongAgo', false],
      ['expiredLongAgo', false],
      ['unsubscribedLately', true],
      ['expiredLately', true],
    ] as const) {
      const key = outboxKey(idOf(name));
      expect(await connection.collection(outboxCollections.pending).countDocuments({ entityId: idOf(name) })).toBe(
        kept ? 1 : 0,
      );
      expect(await connection.collection<{ _id: string }>(outboxCollections.marks).countDocuments({ _id: key })).toBe(
        kept ? 1 : 0,
      );
    }

    // A day later the rest of those past the period go; the waiting and active subscribers stay.
    expect(await sweepRetention(models(), at(day))).toMatchObject({ unsubscribed: 1, pending: 1 });
    expect(await sweepRetention(models(), at(day))).toMatchObject({ unsubscribed: 0, pending: 0 });
    expect(
      await subscribers.collection.countDocuments({
        _id: { $in: [idOf('waiting'), idOf('activeForYears')] as never[] },
      }),
    ).toBe(2);
  });

  it('answers an old newsletter’s unsubscribe link as before once its subscriber is gone', async () => {
    const { subscribers } = models();
    const gone = subscriber('unsubscribed', { unsubscribedAt: at(-unsubscribedRetentionMs - day) });
    await subscribers.collection.insertOne(gone as never);
    await sweepRetention(models(), now);
    expect(await subscribers.collection.countDocuments({ _id: gone._id as never })).toBe(0);

    const store = {
      subscribers,
      preferences: preferencesModel(connection),
      publishSoon: () => undefined,
      mailTokens: mailTokenSealer(mailTokenKey({})),
    };
    const link = unsubscribeTokenOf(testLinkKey, gone._id as string);
    expect(await unsubscribeByToken(store, testLinkKey, link)).toBe(true);
    // Nothing comes back for it, and a link this service never signed is still refused.
    expect(await subscribers.collection.countDocuments({ _id: gone._id as never })).toBe(0);
    expect(await unsubscribeByToken(store, randomBytes(32), link)).toBe(false);
  });
});
