import {
  ConfigResourceTypes,
  ConfigSource,
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type ITopicConfig,
  type PartitionMetadata,
  type Producer,
  type ProducerConfig,
  type Consumer,
  type ConsumerConfig,
} from 'kafkajs';
import { ConfigError } from './config';
import type { Logger } from './logger';

/** A Kafka user's name and password (SASL SCRAM-SHA-512). */
export interface KafkaCredentials {
  username: string;
  password: string;
}

/** The service's Kafka credentials from its configuration: both or neither (without them the client signs in as no one). */
export function kafkaCredentialsOf(config: {
  KAFKA_SASL_USERNAME?: string;
  KAFKA_SASL_PASSWORD?: string;
}): KafkaCredentials | undefined {
  const { KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password } = config;
  if (!username && !password) return undefined;
  if (!username || !password) {
    throw new ConfigError(
      'Invalid configuration:\n  KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD: set both, or neither',
    );
  }
  return { username, password };
}

export function createKafka(clientId: string, brokers: string[], log: Logger, credentials?: KafkaCredentials): Kafka {
  return new Kafka({
    clientId,
    brokers,
    ...(credentials ? { sasl: { mechanism: 'scram-sha-512' as const, ...credentials } } : {}),
    connectionTimeout: 3_000,
    // The outbox relay and consumers own the retry loops; kafkajs retries briefly underneath.
    retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2_000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }) => {
        const { message, ...rest } = entry;
        const method = level <= logLevel.ERROR ? 'error' : 'warn';
        log[method]({ kafka: rest }, `kafka: ${message}`);
      },
  });
}

/** Kafka's own default, made explicit: events (and what they carry about people) go after a week. */
export const defaultTopicRetentionMs = 7 * 24 * 60 * 60 * 1000;

export interface TopicPolicy {
  partitions?: number;
  /** `retention.ms` of every topic named (KAFKA_RETENTION_MS): created with it, corrected when it differs. */
  retentionMs?: number;
}

/** The longest a log segment stays open: Kafka deletes only closed segments, so this bounds how late retention acts. */
const segmentMsMax = 24 * 60 * 60 * 1000;

/**
 * The settings Haven holds every topic to: `retention.ms`, and `segment.ms` so that retention acts in time (on a
 * quiet topic, Kafka's default week-long segment would keep a record up to a week past its retention).
 */
function managedTopicSettings(policy: TopicPolicy): Record<string, string> {
  const retentionMs = policy.retentionMs ?? defaultTopicRetentionMs;
  return { 'retention.ms': String(retentionMs), 'segment.ms': String(Math.min(retentionMs, segmentMsMax)) };
}

/**
 * Creates the topics that are missing and holds every one of them to the retention bound: a topic made
 * earlier (by an older version, by hand, with other settings) is set to it. Personal data in events lasts
 * no longer than that bound and a day (docs/decisions/privacy-and-erasure/personal-data-outside-collections.md).
 */
export async function ensureTopics(kafka: Kafka, topics: string[], policy: TopicPolicy = {}): Promise<void> {
  const managed = managedTopicSettings(policy);
  const managedEntries = Object.entries(managed).map(([name, value]) => ({ name, value }));
  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing: ITopicConfig[] = topics
      .filter((topic) => !existing.has(topic))
      .map((topic) => ({ topic, numPartitions: policy.partitions ?? 3, configEntries: managedEntries }));
    if (missing.length > 0) await admin.createTopics({ topics: missing, waitForLeaders: true });
    const present = [...new Set(topics.filter((topic) => existing.has(topic)))];
    if (present.length === 0) return;
    // Every setting of each topic: AlterConfigs replaces a topic's whole set, so the ones an operator gave
    // the topic (a size limit, a compaction policy) are sent again beside Haven's own.
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: present.map((name) => ({ type: ConfigResourceTypes.TOPIC, name })),
    });
    const changes = described.resources.flatMap((resource) => {
      const entries = resource.configEntries;
      const held = Object.entries(managed).every(([name, value]) =>
        entries.some((entry) => entry.configName === name && !entry.isDefault && entry.configValue === value),
      );
      if (held) return [];
      const kept = entries
        .filter((entry) => !(entry.configName in managed) && !entry.readOnly && !entry.isDefault)
        .filter((entry) => entry.configSource === undefined || entry.configSource === ConfigSource.TOPIC_CONFIG)
        .map((entry) => ({ name: entry.configName, value: entry.configValue }));
      return [
        { type: ConfigResourceTypes.TOPIC, name: resource.resourceName, configEntries: [...kept, ...managedEntries] },
      ];
    });
    if (changes.length > 0) await admin.alterConfigs({ validateOnly: false, resources: changes });
  } finally {
    await admin.disconnect();
  }
}

/**
 * The one way Haven makes a producer. Messages are keyed by user id and the partitioner is chosen
 * explicitly: Java-compatible murmur2 of the key, so one user's events land on one partition, in order,
 * whichever client (KafkaJS or a JVM tool) writes them. Leaving it implicit makes KafkaJS warn at start.
 */
export function createProducer(kafka: Kafka, config: ProducerConfig = {}): Producer {
  return kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, ...config });
}

const keyPartitioner = Partitioners.DefaultPartitioner();

/** The partition createProducer's partitioner gives a keyed message: for senders that address partitions themselves. */
export function partitionOfKey(topic: string, key: string, partitions: PartitionMetadata[]): number {
  return keyPartitioner({ topic, partitionMetadata: partitions, message: { key, value: null } });
}

/** Each topic's partitions as the cluster describes them now. */
export async function topicPartitions(kafka: Kafka, topics: string[]): Promise<Map<string, PartitionMetadata[]>> {
  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    const { topics: described } = await admin.fetchTopicMetadata({ topics });
    return new Map(described.map((topic) => [topic.name, topic.partitions]));
  } finally {
    await admin.disconnect();
  }
}

/**
 * The one way Haven makes a consumer. An idle fetch is held by the broker for at most two seconds: often enough
 * that a disconnect (a deploy, a test's end), which waits for the fetch in flight, waits about a second; rarely
 * enough that an idle consumer costs the broker and the process little. Events still arrive as soon as they are
 * written.
 */
export function createConsumer(kafka: Kafka, config: ConsumerConfig): Consumer {
  return kafka.consumer({ maxWaitTimeInMs: 2_000, ...config });
}

/** A consumer group's position on one partition: the offset of the next record it reads. */
export interface GroupPosition {
  topic: string;
  partition: number;
  offset: number;
}

/**
 * Commits `positions` as `groupId`'s offsets, the way KafkaJS's `admin.setOffsets` does (a member that joins, seeks
 * and leaves), but with a short idle fetch: `setOffsets` waits out KafkaJS's five-second one for every topic. The
 * group must have no members.
 */
export async function commitGroupPositions(
  kafka: Kafka,
  groupId: string,
  positions: readonly GroupPosition[],
): Promise<void> {
  const topics = [...new Set(positions.map(({ topic }) => topic))];
  const consumer = createConsumer(kafka, { groupId, maxWaitTimeInMs: 50 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics });
    await new Promise<void>((resolve, reject) => {
      // The first fetch after joining applies the seeks below, and each seek commits its offset.
      consumer.on(consumer.events.FETCH, () => resolve());
      consumer.run({ eachBatchAutoResolve: false, eachBatch: async () => undefined }).catch(reject);
      consumer.pause(topics.map((topic) => ({ topic })));
      for (const { topic, partition, offset } of positions) consumer.seek({ topic, partition, offset: String(offset) });
    });
  } finally {
    await consumer.disconnect();
  }
}
