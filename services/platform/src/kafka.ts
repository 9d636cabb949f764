import {
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type ITopicConfig,
  type Producer,
  type ProducerConfig,
} from 'kafkajs';
import type { Logger } from './logger';

export function createKafka(clientId: string, brokers: string[], log: Logger): Kafka {
  return new Kafka({
    clientId,
    brokers,
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

/** Creates topics that are missing; existing ones are left alone. */
export async function ensureTopics(kafka: Kafka, topics: string[], partitions = 3): Promise<void> {
  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing: ITopicConfig[] = topics
      .filter((topic) => !existing.has(topic))
      .map((topic) => ({ topic, numPartitions: partitions }));
    if (missing.length > 0) await admin.createTopics({ topics: missing, waitForLeaders: true });
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
