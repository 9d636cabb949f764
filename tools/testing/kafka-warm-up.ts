/**
 * A world's Kafka made ready the way a running Haven leaves it, before any test file: every topic and
 * dead-letter topic exists, and the group coordinator (its offsets topic) is up. Without it the first file of
 * each world creates all of them while its consumers join, and that file's Haven is the slowest to settle.
 * A broker that has just started can answer a topic's metadata before it hosts the topic ("This server does not
 * host this topic-partition"): the warm-up tries again, bounded, as a service's consumer does.
 */
import {
  createConsumer,
  createKafka,
  createLogger,
  ensureTopics,
  havenTopics,
  kafkaAclsOf,
  restoreAcls,
} from '@haven/platform';
import { producerServices } from '@haven/proto';
import { eventually } from './eventually';

/** With `acls` (a secured broker), each service's Kafka user is also given its ACLs, as compose's one-shot does. */
export async function warmUpKafka(brokers: string[], { acls = false }: { acls?: boolean } = {}): Promise<void> {
  const kafka = createKafka('haven-test-warm-up', brokers, createLogger('test-warm-up', 'silent'));
  const topics = havenTopics();
  await eventually(
    `Kafka at ${brokers.join(', ')} warmed up`,
    async () => {
      await ensureTopics(kafka, topics);
      if (acls) await grantHavenAcls(kafka);
      // Finding a group's coordinator makes the broker create and load its offsets topic.
      const consumer = createConsumer(kafka, { groupId: 'haven-test-warm-up' });
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: [topics[0]!] });
        await consumer.run({ eachMessage: async () => undefined });
      } finally {
        await consumer.disconnect();
      }
      return true;
    },
    { timeoutMs: 90_000, intervalMs: 500 },
  );
}

async function grantHavenAcls(kafka: ReturnType<typeof createKafka>): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createAcls({ acl: [...producerServices.flatMap((service) => kafkaAclsOf(service)), ...restoreAcls()] });
  } finally {
    await admin.disconnect();
  }
}
