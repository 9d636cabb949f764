/**
 * What Haven published, read from Kafka as a consumer would: an entity's document keeps its events only
 * until the relay has published them, so a test asks the broker which events went out for a subject.
 */
import { createConsumer, createKafka, createLogger } from '@haven/platform';
import { topicOf, type ProducerService } from '@haven/proto';
import type { Consumer } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { eventually } from './eventually';
import { testInfra } from './test-env';

export interface PublishedEvent {
  eventId: string;
  type: string;
  /** The envelope as published (decodeEvent reads it). */
  value: Buffer;
}

export interface PublishedEvents {
  /** The events published so far about `subjectId` (the message key), first delivery of each, in order. */
  of(subjectId: string): PublishedEvent[];
  /** Waits (bounded) until an event of `type` about `subjectId` is published, and returns it. */
  waitFor(subjectId: string, type: string): Promise<PublishedEvent>;
  stop(): Promise<void>;
}

/** Reads the producers' topics from their beginning in a group of its own; stop() it in afterAll. */
export async function watchPublishedEvents(producers: ProducerService[]): Promise<PublishedEvents> {
  const kafka = createKafka('published-events', testInfra().kafkaBrokers, createLogger('published-events', 'silent'));
  const consumer: Consumer = createConsumer(kafka, { groupId: `published-events-${randomBytes(4).toString('hex')}` });
  const bySubject = new Map<string, PublishedEvent[]>();
  const seenIds = new Set<string>();
  await consumer.connect();
  await consumer.subscribe({ topics: producers.map((producer) => topicOf(producer)), fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const eventId = message.headers?.['event-id']?.toString();
      const type = message.headers?.['event-type']?.toString();
      const subjectId = message.key?.toString();
      if (!eventId || !type || !subjectId || !message.value || seenIds.has(eventId)) return;
      seenIds.add(eventId);
      bySubject.set(subjectId, [...(bySubject.get(subjectId) ?? []), { eventId, type, value: message.value }]);
    },
  });
  const of = (subjectId: string) => bySubject.get(subjectId) ?? [];
  return {
    of,
    waitFor: (subjectId, type) =>
      eventually(`${type} published for ${subjectId}`, () => of(subjectId).find((event) => event.type === type), {
        timeoutMs: 60_000,
      }),
    stop: () => consumer.disconnect(),
  };
}
