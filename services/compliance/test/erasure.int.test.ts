/**
 * Account deletion as a user lives it, against the real stack: a fully used account deletes itself; the
 * account closes at once (sessions refused, sign-in fails as for an unknown address, the subscription
 * cancelled at the provider before the answer), every service erases its part and confirms, and afterwards
 * no collection of any service holds the person's address, names, notes or id (only keyed hashes in the
 * erasure's own records) — also after Kafka delivered every event about them again. What they wrote, and their
 * address and names in events, were sealed under their own key while the account lived, and the key is destroyed
 * with it: a copy of the sealed content, wherever it lies, never opens again.
 */
import { openForPerson } from '@haven/platform';
import { decodeEvent, erasureEventTypes, topicOf, type DecodedEvent } from '@haven/proto';
import { dimensions, type Ratings } from '../../quote/src/domain/assessment';
import { emotionalStateOf, emotionalStateRatings } from '../../quote/src/domain/progress';
import { decodeRatings } from '../../quote/src/domain/rating-codes';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import {
  anotherSessionCookie,
  consumersCaughtUp,
  deletionProgress,
  forgetProcessedEvents,
  fullyUsedAccount,
  needlesOf,
  redeliverEventsOf,
  tracesOf,
  type UsedAccount,
} from '../../../tools/testing/erasure';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { mailbox } from '../../../tools/testing/infra-control';
import { kafkaEnds, messagesSince, type KafkaEnds } from '../../../tools/testing/kafka-messages';
import { personKeyOf } from '../../../tools/testing/person-keys';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
  await Promise.all(Object.values(haven.services).map((service) => service.eventsReady));
});

afterAll(async () => {
  await haven?.stop();
});

const progressOf = (requestId: string) => deletionProgress(haven, requestId);

describe('a user deletes their account', () => {
  let account: UsedAccount;
  let requestId: string;
  let otherSession: string;
  let subscriptionId: string;
  let kafkaMark: KafkaEnds;
  /** What the person wrote as storage holds it, read raw before the deletion: sealed, with the text it seals. */
  let sealed: Array<{ stored: string; text: string }>;
  let dataKey: Buffer;
  let wrappedKey: string;
  /** The check-ins and quotes as the quote service's database holds them, read raw before the deletion. */
  let storedCheckIns: Array<Record<string, unknown>>;
  let storedQuotes: Array<Record<string, unknown>>;

  beforeAll(async () => {
    kafkaMark = await kafkaEnds();
    account = await fullyUsedAccount(haven);
    const checkIns = await (
      await haven.collection('quote', 'check_ins')
    )
      .find({ userId: account.userId })
      .sort({ createdAt: 1 })
      .toArray();
    const quotes = await (await haven.collection('quote', 'quotes')).find({ userId: account.userId }).toArray();
    storedCheckIns = checkIns;
    storedQuotes = quotes;
    const plan = await (await haven.collection('user', 'safety_plans')).findOne({ _id: account.userId as never });
    const replies = await account.client.get<{ quotes: Array<{ id: string; text: string }> }>('/api/quotes/recent');
    const replyText = new Map(replies.body.quotes.map((quote) => [quote.id, quote.text]));
    sealed = [
      ...account.notes.map((note, index) => ({ stored: String(checkIns[index]?.notes), text: note })),
      ...quotes.map((quote) => ({ stored: String(quote.text), text: replyText.get(String(quote._id))! })),
      { stored: String(plan?.warningSigns), text: account.safetyPlanWarningSigns },
    ];
    dataKey = (await personKeyOf(haven, account.userId))!;
    wrappedKey = String(
      (await (await haven.collection('user', 'person_keys')).findOne({ _id: account.userId as never }))?.wrappedKey,
    );
    otherSession = await anotherSessionCookie(haven, account.email);
    const subscription = await (await haven.collection('billing', 'subscriptions')).findOne({ _id: account.userId });
    subscriptionId = String(subscription?.subscriptionId);
    // Everything about the account is there before the deletion (the scan finds what it should).
    const before = await tracesOf(haven, needlesOf(account));
    expect(new Set(before.map((trace) => trace.service))).toEqual(
      new Set(['user', 'quote', 'billing', 'notification', 'compliance']),
    );
  });

  it('keeps what the person writes sealed under their own key while the account lives', async () => {
    // Neither the notes, nor the messages, nor the safety plan are readable in any database or Kafka message.
    const texts = sealed.map((each) => each.text);
    expect(texts.every(Boolean)).toBe(true);
    expect(await tracesOf(haven, texts)).toEqual([]);
    // Kafka never held them, nor the person's address or names: events carry those sealed under the same key.
    const published = await messagesSince(kafkaMark);
    const identifying = [...texts, account.email, account.firstName, account.lastName].map((text) =>
      text.toLowerCase(),
    );
    const readable = published.filter((message) =>
      identifying.some((text) => message.text.toLowerCase().includes(text)),
    );
    expect(readable.map((message) => message.topic)).toEqual([]);
    expect(published.filter((message) => message.topic === 'haven.user.events').length).toBeGreaterThan(0);
    // Each stored value opens with the person's key to exactly what they wrote (or were sent).
    expect(sealed.map((each) => openForPerson(dataKey, account.userId, each.stored))).toEqual(texts);

    // Their ratings too: no check-in or quote holds one in clear. Each check-in of fullyUsedAccount rated stress
    // 4 and sleep 2, the rest as the sliders start.
    const given = {
      ...Object.fromEntries(dimensions.map((dimension) => [dimension, 3])),
      stressLevel: 4,
      sleepQuality: 2,
    };
    const opened = (stored: unknown) => openForPerson(dataKey, account.userId, String(stored)) ?? '';
    expect(storedCheckIns).toHaveLength(account.notes.length);
    for (const checkIn of storedCheckIns) {
      expect(Object.keys(checkIn).filter((field) => (dimensions as readonly string[]).includes(field))).toEqual([]);
      expect(checkIn.ratings).toMatch(/^hp1\./);
      expect(decodeRatings(dimensions, opened(checkIn.ratings))).toEqual(given);
    }
    expect(storedQuotes).toHaveLength(account.quoteIds.length);
    for (const quote of storedQuotes) {
      expect(quote.emotionalState).toMatch(/^hp1\./);
      expect(decodeRatings(emotionalStateRatings, opened(quote.emotionalState))).toEqual(
        emotionalStateOf(given as Ratings),
      );
    }
    // The quote service's events carry the moods and ratings only sealed, opening to the same numbers.
    const quoteEvents = published
      .filter((message) => message.topic === topicOf('quote') && message.value)
      .map((message) => decodeEvent(message.value!))
      .filter((event): event is DecodedEvent<'quote.generated'> => event.type === 'quote.generated')
      .filter((event) => event.envelope.subjectId === account.userId);
    expect(quoteEvents).toHaveLength(account.quoteIds.length);
    for (const event of quoteEvents) {
      expect(event.payload).toMatchObject({ moodScore: 0 });
      expect(event.payload).not.toHaveProperty('ratings.stressLevel');
      const personal = JSON.parse(opened(event.payload.sealedPersonal)) as { moodScore: number; ratings: Ratings };
      expect(personal.moodScore).toBeCloseTo(17 / 6, 5);
      expect(personal.ratings).toMatchObject(given);
    }
    // The weekly summary's copy of their moods, in the notification service, is sealed the same way.
    const tallies = await haven.collection('notification', 'weekly_check_ins');
    const tally = await eventually('every check-in in the weekly tally', async () => {
      const found = await tallies.findOne({ _id: account.userId as never });
      return (found?.recentQuoteIds as string[] | undefined)?.length === account.quoteIds.length ? found : null;
    });
    expect(tally.days).toMatch(/^hp1\./);
    const days = JSON.parse(opened(tally.days)) as Array<{ checkIns: number; moodSum: number }>;
    expect(days.reduce((sum, day) => sum + day.checkIns, 0)).toBe(account.quoteIds.length);
  });

  it('closes the account at once and says so', async () => {
    const answer = await account.client.request<{ message: string; requestId: string; status: string }>(
      'DELETE',
      '/api/user/delete-account',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'pending', requestId: expect.any(String) });
    expect(answer.body.message).toMatch(/closed/);
    requestId = answer.body.requestId;
    // The answer cleared this browser's cookie.
    expect(answer.headers.get('set-cookie')).toMatch(/haven_session=;.*Max-Age=0/);
    expect(account.client.hasSession).toBe(false);
  });

  it('refuses the account’s other session at once', async () => {
    const me = await fetch(`${haven.gatewayUrl}/api/user`, { headers: { cookie: otherSession } });
    expect(me.status).toBe(401);
    const graphql = await fetch(`${haven.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { cookie: otherSession, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(((await graphql.json()) as { data: { me: unknown } }).data.me).toBeNull();
  });

  it('signs nobody in with the address, exactly as for an unknown one', async () => {
    const login = (email: string) =>
      new ApiClient(haven.gatewayUrl).post('/api/auth/login', { email, password: 'a password for erasure' });
    const deleted = await login(account.email);
    const unknown = await login(uniqueEmail('never'));
    expect(deleted.status).toBe(401);
    expect({ status: deleted.status, body: deleted.body }).toEqual({ status: unknown.status, body: unknown.body });
  });

  it('cancelled the subscription at the provider before it answered', async () => {
    const atProvider = await (
      await haven.collection('billing', 'local_subscriptions')
    ).findOne({ _id: subscriptionId });
    expect(atProvider).toMatchObject({ status: 'canceled', customerId: null });
  });

  it('shows the deletion as pending until every service confirmed, then completed', async () => {
    await eventuallyExpect('every service confirming the erasure', async () => {
      const progress = await progressOf(requestId);
      expect(progress.status).toBe('completed');
      expect(progress.services.map((each) => each.service).sort()).toEqual([
        'billing',
        'compliance',
        'notification',
        'quote',
        'user',
      ]);
      expect(progress.services.every((each) => each.erased)).toBe(true);
    });
  });

  it('leaves nothing of the person in any collection of any service', async () => {
    expect(await tracesOf(haven, needlesOf(account))).toEqual([]);
    // The erasure's own records hold a keyed hash instead of the id.
    const erasedRecords = await (await haven.collection('quote', 'erased_subjects')).countDocuments();
    expect(erasedRecords).toBeGreaterThan(0);
    const saga = await (await haven.collection('compliance', 'account_deletions')).findOne({ _id: requestId });
    expect(saga).toMatchObject({
      state: 'completed',
      userId: null,
      subjectKey: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const retained = await (await haven.collection('billing', 'retained_billing_records')).find({}).toArray();
    expect(retained).toEqual([
      expect.objectContaining({ _id: expect.stringMatching(/^[0-9a-f]{64}$/), statusAtDeletion: 'canceled' }),
    ]);
  });

  it('brings nothing back when Kafka delivers every event about the person again', async () => {
    const inbox = mailbox();
    const mailBefore = (await inbox.listEmails({ to: account.email })).length;
    // As if the 14-day sweep had forgotten them: the consumers cannot skip the events as already handled.
    await forgetProcessedEvents(haven);
    // First every event but the erasure's own (a repeated erasure would tidy up after a consumer that wrote).
    const subjects = [account.userId, account.subscriberId, requestId];
    const redelivered = await redeliverEventsOf(subjects, (type) => !erasureEventTypes.has(type));
    expect(redelivered).toEqual(
      expect.arrayContaining([
        'user.registered',
        'user.email_verified',
        'billing.trial_started',
        'quote.generated',
        'notification.newsletter_confirmation_requested',
      ]),
    );
    await consumersCaughtUp();
    expect(await tracesOf(haven, needlesOf(account))).toEqual([]);
    // Then the erasure's own events: every service erases again (nothing left) and confirms again.
    const repeated = await redeliverEventsOf(subjects, (type) => erasureEventTypes.has(type));
    expect(repeated).toEqual(expect.arrayContaining(['account.deletion_requested', 'quote.user_data_purged']));
    await consumersCaughtUp();
    expect(await tracesOf(haven, needlesOf(account))).toEqual([]);
    const mailAfter = (await inbox.listEmails({ to: account.email })).length;
    expect(mailAfter).toBe(mailBefore);
    // The repeated request was confirmed again and the completed deletion stays completed.
    await eventually('the deletion still completed', async () => (await progressOf(requestId)).status === 'completed');
  });

  it('destroys the person’s key: what was sealed under it never opens again, wherever a copy lies', async () => {
    // Haven's services can no longer reach a key for the person, and none was issued again by the redelivery.
    expect(await personKeyOf(haven, account.userId)).toBeNull();
    // The key is in no database document and no Kafka message, wrapped or bare, in any encoding.
    const keyWritings = [
      wrappedKey,
      dataKey.toString('base64'),
      dataKey.toString('base64url'),
      dataKey.toString('hex'),
    ];
    expect(await tracesOf(haven, keyWritings)).toEqual([]);
    const published = await messagesSince(kafkaMark);
    expect(published.length).toBeGreaterThan(0);
    expect(published.filter((message) => keyWritings.some((writing) => message.text.includes(writing)))).toEqual([]);
    // Every topic, the dead-letter topics included, read raw: nothing names the person.
    const identifying = [account.email, account.firstName, account.lastName, ...sealed.map((each) => each.text)];
    const naming = published.filter((message) =>
      identifying.some((text) => message.text.toLowerCase().includes(text.toLowerCase())),
    );
    expect(naming.map((message) => message.topic)).toEqual([]);
    // A copy of the sealed content taken before (a backup) opened then; it opens with no other key.
    expect(sealed.map((each) => openForPerson(Buffer.alloc(32), account.userId, each.stored))).toEqual(
      sealed.map(() => null),
    );
  });
});
