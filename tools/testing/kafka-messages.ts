/**
 * Kafka read raw, as someone holding a copy of the broker's logs would: every message of every topic (Haven's,
 * the dead-letter topics, anything else on the broker) published after a mark, key, value and headers as bytes.
 */
import { createConsumer, createKafka, createLogger } from '@haven/platform';
import type { Kafka } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { eventually } from './eventually';
import { testInfra } from './test-env';

/** Each topic's partitions and their end offsets ("topic:partition" → next offset). */
export type KafkaEnds = Map<string, number>;

export interface RawMessage {
  topic: string;
  /** Key, value and header values as one text (bytes read as latin1). */
  text: string;
  /** The value's bytes, for a test that decodes the event. */
  value: Buffer | null;
}

const quietLog = createLogger('kafka-messages', 'silent');
const testKafka = (): Kafka =>
  createKafka(`kafka-messages-${randomBytes(3).toString('hex')}`, testInfra().kafkaBrokers, quietLog);

/** Where every topic on the broker ends now. */
export async function kafkaEnds(kafka: Kafka = testKafka()): Promise<KafkaEnds> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends: KafkaEnds = new Map();
    const topics = (await admin.listTopics()).filter((topic) => !topic.startsWith('__'));
    for (const topic of topics) {
      for (const { partition, high } of await admin.fetchTopicOffsets(topic))
        ends.set(`${topic}:${partition}`, Number(high));
    }
    return ends;
  } finally {
    await admin.disconnect();
  }
}

/** Every message published after `since` (topics created since: all of theirs), up to the ends found now. */
export async function messagesSince(since: KafkaEnds): Promise<RawMessage[]> {
  const kafka = testKafka();
  const until = await kafkaEnds(kafka);
  const wanted = [...until].filter(([key, end]) => end > (since.get(key) ?? 0));
  if (wanted.length === 0) return [];
  const topicOfKey = (key: string) => key.slice(0, key.lastIndexOf(':'));
  const topics = [...new Set(wanted.map(([key]) => topicOfKey(key)))];
  const messages: RawMessage[] = [];
  const reached = new Set<string>();
  const consumer = createConsumer(kafka, {
    groupId: `kafka-messages-${randomBytes(4).toString('hex')}`,
    maxWaitTimeInMs: 100,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const key = `${topic}:${partition}`;
        const offset = Number(message.offset);
        const end = until.get(key) ?? 0;
        if (offset < (since.get(key) ?? 0) || offset >= end) return;
        const headers = Object.values(message.headers ?? {}).flatMap((value) =>
          (Array.isArray(value) ? value : [value]).map((each) => (each === undefined ? '' : each.toString())),
        );
        messages.push({
          topic,
          text: [message.key?.toString('latin1') ?? '', message.value?.toString('latin1') ?? '', ...headers].join('\n'),
          value: message.value ?? null,
        });
        if (offset + 1 >= end) reached.add(key);
      },
    });
    // Straight to each partition's mark: nothing before it is read again.
    for (const key of until.keys()) {
      const topic = topicOfKey(key);
      const offset = since.get(key) ?? 0;
      if (topics.includes(topic) && offset > 0) {
        consumer.seek({ topic, partition: Number(key.slice(topic.length + 1)), offset: String(offset) });
      }
    }
    await eventually('every topic read up to its end', () => wanted.every(([key]) => reached.has(key)), {
      timeoutMs: 60_000,
    });
  } finally {
    await consumer.disconnect();
  }
  return messages;
}
