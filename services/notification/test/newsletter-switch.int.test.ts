/**
 * The newsletter switch turned on in Settings before the account reached this service (the switch is stored at
 * once, the account comes by event): when its `user.registered` arrives, the list follows the switch. Against the
 * real database and mail server of the test's own world; the account's handler is called as the consumer calls it.
 * Two such changes at the same moment mail one link, and it is the one that works.
 */
import { createKafka, createLogger, mailTokenKey, mailTokenSealer } from '@haven/platform';
import { decodeEvent, type DecodedEvent } from '@haven/proto';
import mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { notificationConsumers } from '../src/events/consumers';
import { newsletterFanOut } from '../src/events/newsletter-fanout';
import { hashToken } from '../src/domain/newsletter';
import { subscribe } from '../src/model/newsletter';
import { campaignModel } from '../src/model/campaign';
import { deliveryModel } from '../src/model/delivery';
import { knownUserModel } from '../src/model/known-user';
import { preferencesModel } from '../src/model/preferences';
import { forgetStoredUnsubscribeTokens, subscriberModel } from '../src/model/subscriber';
import { weeklyCheckInsModel } from '../src/model/weekly-check-ins';
import { uniqueEmail } from '../../../tools/testing/http';
import { testInfra } from '../../../tools/testing/test-env';
import { testMailer, testLinks } from './support';

const mailTokens = mailTokenSealer(mailTokenKey({}));

const log = createLogger('newsletter-switch-test', 'silent');
let connection: mongoose.Connection;
let closeMailer: () => void;
let registered: (payload: Record<string, unknown>) => Promise<void>;
let models: { subscribers: ReturnType<typeof subscriberModel>; preferences: ReturnType<typeof preferencesModel> };

beforeAll(async () => {
  const infra = testInfra();
  connection = await mongoose
    .createConnection(infra.mongoUrl, { dbName: `switch_${randomBytes(4).toString('hex')}` })
    .asPromise();
  const mailer = testMailer({ host: infra.smtpHost, port: infra.smtpPort, deliveries: deliveryModel(connection), log });
  closeMailer = () => mailer.close();
  models = { subscribers: subscriberModel(connection), preferences: preferencesModel(connection) };
  const store = { ...models, publishSoon: () => undefined, mailTokens };
  const [account] = notificationConsumers({
    mailer,
    appUrl: 'http://localhost:4000',
    productName: 'Haven',
    store,
    knownUsers: knownUserModel(connection),
    tallies: weeklyCheckInsModel(connection),
    fanOut: newsletterFanOut({
      kafka: createKafka('newsletter-switch-test', infra.kafkaBrokers, log),
      campaigns: campaignModel(connection),
      subscribers: models.subscribers,
      deliveries: deliveryModel(connection),
      mailer,
      ...testLinks,
      log,
    }),
  });
  const handler = account!.handlers['user.registered']!;
  registered = (payload) =>
    handler(payload as never, { eventId: randomUUID(), correlationId: randomUUID(), occurredAt: new Date(), log });
});

afterAll(async () => {
  closeMailer?.();
  await connection?.close();
});

/** The switches as Settings stores them before the account is known here. */
async function switched(userId: string, newsletter: boolean): Promise<void> {
  await models.preferences.create({
    _id: userId,
    marketingEmails: false,
    productUpdates: true,
    securityNotifications: true,
    newsletter,
    updatedAt: new Date(),
  });
}

it('subscribes a verified sign-up whose switch was already on, at once and only once', async () => {
  const userId = randomUUID();
  const email = uniqueEmail('early-switch');
  await switched(userId, true);
  const event = { userId, email, firstName: 'Ana', authProvider: 'google', timeZone: 'UTC' };
  await registered(event);
  await registered({ ...event }); // a redelivery changes nothing
  const listed = await models.subscribers.find({ userId }).lean();
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({ email, status: 'active', source: 'preferences' });
});

it('asks an unverified sign-up to confirm, as the switch would have', async () => {
  const userId = randomUUID();
  const email = uniqueEmail('early-switch');
  await switched(userId, true);
  await registered({
    userId,
    email,
    firstName: 'Ben',
    authProvider: 'email',
    verification: {
      sealedToken: mailTokens.seal(randomBytes(16).toString('hex')),
      expiresAt: new Date(Date.now() + 60_000),
    },
    timeZone: 'UTC',
  });
  const subscriber = await models.subscribers.findOne({ userId }).select('+outbox').lean();
  expect(subscriber).toMatchObject({ email, status: 'pending' });
  expect(subscriber!.outbox.map((entry) => entry.type)).toEqual(['notification.newsletter_confirmation_requested']);
});

it('lists nobody whose switch is off by the time the account arrives', async () => {
  const userId = randomUUID();
  await switched(userId, false);
  await registered({ userId, email: uniqueEmail('early-switch'), firstName: 'Cy', authProvider: 'google' });
  expect(await models.subscribers.countDocuments({ userId })).toBe(0);
});

it('mails one working link when the switch and the account arrive at the same moment', async () => {
  const store = { ...models, publishSoon: () => undefined, mailTokens };
  const addresses = Array.from({ length: 5 }, () => uniqueEmail('racing-switch'));
  // Each address was on the list once and left it; two changes then ask for it at once.
  await models.subscribers.insertMany(
    addresses.map((email) => ({
      _id: randomUUID(),
      email,
      status: 'unsubscribed',
      userId: null,
      source: 'preferences',
      createdAt: new Date(),
      unsubscribedAt: new Date(),
    })),
  );
  const subscribeOnce = (email: string) =>
    subscribe(store, {
      email,
      userId: null,
      source: 'preferences',
      confirmed: false,
      correlationId: 'race',
      keepPending: true,
    });
  await Promise.all(addresses.flatMap((email) => [subscribeOnce(email), subscribeOnce(email)]));

  for (const email of addresses) {
    const subscriber = await models.subscribers.findOne({ email }).select('+outbox').lean();
    expect(subscriber).toMatchObject({ status: 'pending' });
    const mailed = subscriber!.outbox.filter(
      (entry) => entry.type === 'notification.newsletter_confirmation_requested',
    );
    expect(mailed).toHaveLength(1);
    // The one link mailed is the one that works.
    const { payload } = decodeEvent(
      mailed[0]!.value.buffer,
    ) as DecodedEvent<'notification.newsletter_confirmation_requested'>;
    expect(hashToken(mailTokens.open(payload.sealedToken)!)).toBe(subscriber!.confirmTokenHash);
  }
});

it('forgets the unsubscribe tokens an earlier version stored, with their unique index', async () => {
  const legacy = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `legacy_${randomBytes(4).toString('hex')}` })
    .asPromise();
  try {
    const raw = legacy.collection('newsletter_subscribers');
    await raw.createIndex({ unsubscribeToken: 1 }, { unique: true });
    const stored = (email: string) => ({
      _id: randomUUID() as never,
      email,
      status: 'active',
      userId: null,
      source: 'website',
      createdAt: new Date(),
      unsubscribeToken: randomBytes(32).toString('base64url'),
    });
    await raw.insertMany([stored(uniqueEmail('legacy')), stored(uniqueEmail('legacy'))]);
    const subscribers = subscriberModel(legacy);

    await forgetStoredUnsubscribeTokens(subscribers);
    await forgetStoredUnsubscribeTokens(subscribers); // a second start finds nothing left to do

    expect(await raw.countDocuments({ unsubscribeToken: { $exists: true } })).toBe(0);
    expect(await raw.countDocuments()).toBe(2);
    expect((await raw.indexes()).map((index) => index.name)).not.toContain('unsubscribeToken_1');
    // Two new subscribers, neither with a token, no longer collide on the old unique index.
    await raw.insertMany([
      { ...stored(uniqueEmail('new')), unsubscribeToken: undefined },
      { ...stored(uniqueEmail('new')), unsubscribeToken: undefined },
    ]);
  } finally {
    await legacy.dropDatabase();
    await legacy.close();
  }
});
