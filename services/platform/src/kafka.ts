import { Kafka, logLevel, type Admin, type ITopicConfig } from 'kafkajs';
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
