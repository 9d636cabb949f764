/**
 * What the erasure and export tests share: an account used in every way a person can (check-ins with notes,
 * quotes and a favourite, a trial, a safety plan, privacy settings, a cookie choice, e-mail preferences, the
 * newsletter, e-mails sent), a scan of every collection of every service's database for traces of it, and a
 * redelivery of its events from Kafka.
 */
import { createConsumer, createKafka, createLogger, createProducer, processedEventsCollection } from '@haven/platform';
import { producerServices, topicOf } from '@haven/proto';
import type { Kafka, KafkaMessage } from 'kafkajs';
import mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { havenConsumerGroups } from './consumer-groups';
import { eventually } from './eventually';
import { serviceNames, type ServiceName, type TestHaven } from './haven';
import { ApiClient, uniqueEmail } from './http';
import { mailbox, type CaughtEmail } from './infra-control';
import { startTrial } from './subscription';
import { testInfra } from './test-env';
import { verifyByEmailLink } from './verification';

export const accountPassword = 'a password for erasure';

export interface UsedAccount {
  client: ApiClient;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The notes of its check-ins: words only this account wrote. */
  notes: string[];
  quoteIds: string[];
  favoriteQuoteId: string;
  /** Its newsletter subscription's id (a newsletter e-mail is keyed by it). */
  subscriberId: string;
  /** The warning signs of its safety plan, in words only this account wrote. */
  safetyPlanWarningSigns: string;
}

/** Everything that names the account or that only it wrote: what the scans look for. */
export const needlesOf = (account: UsedAccount): string[] => [
  account.userId,
  account.email,
  account.firstName,
  account.lastName,
  ...account.notes,
  account.safetyPlanWarningSigns,
];

const word = () => randomBytes(5).toString('hex');

/** The cookie choice the account saves (signed in, so it is kept under the account). */
export const cookieChoice = { necessary: true, analytics: true, marketing: false, preferences: true };

/** The token of the first `?token=` link in an e-mail. */
export function tokenIn(caught: CaughtEmail): string {
  const match = /[?&]token=([A-Za-z0-9_-]+)/.exec(caught.text ?? '');
  if (!match?.[1]) throw new Error(`no token link in "${caught.subject}"`);
  return match[1];
}

/**
 * Registers, verifies the address, starts a trial, checks in twice with notes, saves a favourite, writes a
 * safety plan, saves privacy settings and a cookie choice, saves e-mail preferences, subscribes to the newsletter
 * through the public form and confirms it, and waits until the e-mails of all that (verification, welcome,
 * newsletter confirmation) are in the delivery log.
 */
export async function fullyUsedAccount(haven: TestHaven, label = 'erased'): Promise<UsedAccount> {
  const client = new ApiClient(haven.gatewayUrl);
  const email = uniqueEmail(label);
  const firstName = `Wren${word()}`;
  const lastName = `Ash${word()}`;
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email,
    password: accountPassword,
    firstName,
    lastName,
    timeZone: 'Europe/London',
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  const userId = registered.body.user.id;
  await verifyByEmailLink(haven.gatewayUrl, email, client);
  await startTrial(client);

  const notes = [`I walked by the canal ${word()}`, `Slept badly, talked to my sister ${word()}`];
  const quoteIds: string[] = [];
  for (const note of notes) {
    const generated = await client.post<{ quote: { id: string } }>('/api/quotes/generate', {
      stressLevel: 4,
      sleepQuality: 2,
      timeOfDayPreference: 'evening',
      notes: note,
    });
    if (generated.status !== 200) throw new Error(`generate answered ${generated.status}`);
    quoteIds.push(generated.body.quote.id);
  }
  const favoriteQuoteId = quoteIds[0]!;
  const favorite = await client.request('PATCH', `/api/quotes/${favoriteQuoteId}/favorite`, {
    json: { isFavorite: true },
  });
  if (favorite.status !== 200) throw new Error(`favorite answered ${favorite.status}`);

  const safetyPlanWarningSigns = `Not answering messages ${word()}`;
  const plan = await client.graphql(
    'mutation($input: SafetyPlanInput!) { saveSafetyPlan(input: $input) { safetyPlan { updatedAt } } }',
    { input: { warningSigns: safetyPlanWarningSigns, peopleToAsk: 'My sister' } },
  );
  if (plan.status !== 200 || plan.body.errors) throw new Error(`saveSafetyPlan answered ${JSON.stringify(plan.body)}`);

  // Saved as the defaults are, so nothing the account does changes; the records exist all the same.
  const settings = await client.post('/api/user/privacy-settings', { allowInsights: true, keepNotes: true });
  if (settings.status !== 200) throw new Error(`privacy-settings answered ${settings.status}`);
  const consent = await client.post('/api/gdpr/cookie-consent', cookieChoice);
  if (consent.status !== 200) throw new Error(`cookie-consent answered ${consent.status}`);

  const preferences = await client.post('/api/user/email-preferences', {
    userId,
    marketingEmails: 1,
    productUpdates: 1,
    securityNotifications: 1,
    newsletter: 0,
  });
  if (preferences.status !== 200) throw new Error(`email-preferences answered ${preferences.status}`);

  // The public form with the account's address: a pending subscriber and a confirmation e-mail (keyed by it).
  const inbox = mailbox();
  const seen = new Set((await inbox.listEmails({ to: email })).map((caught) => caught.id));
  const subscribed = await client.post('/api/newsletter/subscribe', { email, userId, subscriptionSource: 'website' });
  if (subscribed.status !== 200) throw new Error(`newsletter/subscribe answered ${subscribed.status}`);
  const confirmation = await inbox.waitForEmail(
    (caught) => !seen.has(caught.id) && /newsletter/i.test(caught.subject),
    { to: email, what: `the newsletter confirmation e-mail to ${email}` },
  );
  const confirmed = await client.get(`/api/newsletter/confirm?token=${tokenIn(confirmation)}`);
  if (confirmed.status !== 200) throw new Error(`newsletter/confirm answered ${confirmed.status}`);
  const subscriber = await (await haven.collection('notification', 'newsletter_subscribers')).findOne({ email });
  if (!subscriber) throw new Error('no newsletter subscriber stored');

  const deliveries = await haven.collection('notification', 'deliveries');
  await eventually('the verification, welcome and newsletter confirmation e-mails in the delivery log', async () => {
    const kinds = new Set((await deliveries.find({ to: email, status: 'sent' }).toArray()).map((each) => each.kind));
    return kinds.has('verify-email') && kinds.has('billing-welcome') && kinds.has('newsletter-confirmation');
  });
  return {
    client,
    userId,
    email,
    firstName,
    lastName,
    notes,
    quoteIds,
    favoriteQuoteId,
    subscriberId: subscriber._id,
    safetyPlanWarningSigns,
  };
}

/** Signs in again (another browser) and returns that session's cookie as a browser would send it. */
export async function anotherSessionCookie(haven: TestHaven, email: string): Promise<string> {
  const response = await fetch(`${haven.gatewayUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: accountPassword }),
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (response.status !== 200 || !cookie) throw new Error(`login answered ${response.status}`);
  return cookie;
}

export interface Trace {
  service: ServiceName;
  collection: string;
  id: unknown;
  needle: string;
}

/** Every string in a document, binary fields (an outbox entry's bytes) read as text too. */
function textsOf(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (value instanceof mongoose.mongo.Binary) into.push(Buffer.from(value.buffer).toString('latin1'));
  else if (Buffer.isBuffer(value)) into.push(value.toString('latin1'));
  else if (value instanceof Date || value === null || typeof value !== 'object') return into;
  else if (Array.isArray(value)) value.forEach((each) => textsOf(each, into));
  else {
    for (const [key, each] of Object.entries(value)) {
      into.push(key);
      textsOf(each, into);
    }
  }
  return into;
}

export async function collectionsOf(haven: TestHaven, service: ServiceName): Promise<string[]> {
  const listed = await haven.database(service).listCollections({}, { nameOnly: true }).toArray();
  return listed.map((each) => each.name).sort();
}

/**
 * Every document of every collection of every service's database that holds one of `needles` (an id, an
 * address, a name, a note), case-insensitively, in any field or binary payload.
 */
export async function tracesOf(haven: TestHaven, needles: string[]): Promise<Trace[]> {
  const lowered = needles.filter(Boolean).map((needle) => needle.toLowerCase());
  const traces: Trace[] = [];
  for (const service of serviceNames) {
    for (const name of await collectionsOf(haven, service)) {
      const collection = await haven.collection(service, name);
      for await (const document of collection.find({})) {
        const text = textsOf(document).join('\n').toLowerCase();
        for (const needle of lowered) {
          if (text.includes(needle)) traces.push({ service, collection: name, id: document._id, needle });
        }
      }
    }
  }
  return traces;
}

/** Deletes every consumer group's processed-event ids in every service (as the 14-day sweep would have). */
export async function forgetProcessedEvents(haven: TestHaven): Promise<void> {
  for (const service of serviceNames) {
    for (const name of await collectionsOf(haven, service)) {
      if (name.startsWith(processedEventsCollection(''))) await (await haven.collection(service, name)).deleteMany({});
    }
  }
}

const quietLog = createLogger('erasure-test', 'silent');

function testKafka(): Kafka {
  return createKafka(`erasure-test-${randomBytes(3).toString('hex')}`, testInfra().kafkaBrokers, quietLog);
}

const havenTopics = () => producerServices.map((service) => topicOf(service));

/**
 * Kafka delivers every event about the subjects again: each message keyed by one of them, from the beginning
 * of every Haven topic, is published again (same key, bytes and headers, so the same partition and order).
 * `only` picks the events by type (the relay's `event-type` header). Returns the types that went out again.
 */
export async function redeliverEventsOf(
  subjects: string[],
  only: (type: string) => boolean = () => true,
): Promise<string[]> {
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map<string, number>();
  for (const topic of havenTopics()) {
    for (const { partition, high } of await admin.fetchTopicOffsets(topic))
      ends.set(`${topic}:${partition}`, Number(high));
  }
  await admin.disconnect();
  const wanted = new Set(subjects);
  const found: Array<{ topic: string; message: KafkaMessage }> = [];
  const consumer = createConsumer(kafka, { groupId: `erasure-replay-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topics: havenTopics(), fromBeginning: true });
  const reached = new Set<string>([...ends].filter(([, high]) => high === 0).map(([key]) => key));
  await consumer.run({
    eachMessage: async ({ topic, partition, message }) => {
      const key = `${topic}:${partition}`;
      if (Number(message.offset) >= (ends.get(key) ?? 0)) return;
      const type = message.headers?.['event-type']?.toString() ?? '';
      if (message.key && wanted.has(message.key.toString()) && only(type)) found.push({ topic, message });
      if (Number(message.offset) + 1 >= (ends.get(key) ?? 0)) reached.add(key);
    },
  });
  await eventually('reading every Haven topic to its end', () => reached.size === ends.size, { timeoutMs: 120_000 });
  await consumer.disconnect();
  const producer = createProducer(kafka);
  await producer.connect();
  for (const { topic, message } of found) {
    await producer.send({
      topic,
      messages: [{ key: message.key, value: message.value, headers: message.headers }],
    });
  }
  await producer.disconnect();
  return found.map(({ message }) => message.headers?.['event-type']?.toString() ?? '');
}

/**
 * Waits until every consumer group of Haven's services has committed up to the end of each topic it reads
 * (what was published before the call): the consumers have seen the redelivered events.
 */
export async function consumersCaughtUp(groups: Record<string, string[]> = havenConsumerGroups): Promise<void> {
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends = new Map<string, number>();
    for (const topic of havenTopics()) {
      for (const { partition, high } of await admin.fetchTopicOffsets(topic))
        ends.set(`${topic}:${partition}`, Number(high));
    }
    for (const [groupId, topics] of Object.entries(groups)) {
      await eventually(
        `consumer group ${groupId} reading every event published so far`,
        async () => {
          const committed = await admin.fetchOffsets({ groupId, topics });
          const behind = committed.flatMap(({ topic, partitions }) =>
            partitions.filter(({ partition, offset }) => {
              const end = ends.get(`${topic}:${partition}`) ?? 0;
              return end > 0 && Number(offset) < end;
            }),
          );
          return behind.length === 0;
        },
        { timeoutMs: 120_000, intervalMs: 500 },
      );
    }
  } finally {
    await admin.disconnect();
  }
}

/** A deletion's progress as compliance shows it (`accountDeletion`): pending until every service confirmed. */
export interface DeletionProgress {
  status: string;
  services: Array<{ service: string; erased: boolean }>;
}

export async function deletionProgress(haven: TestHaven, requestId: string): Promise<DeletionProgress> {
  const answer = await new ApiClient(haven.gatewayUrl).graphql<{ accountDeletion: DeletionProgress }>(
    'query($id: ID!) { accountDeletion(requestId: $id) { status services { service erased } } }',
    { id: requestId },
  );
  return answer.body.data!.accountDeletion;
}
