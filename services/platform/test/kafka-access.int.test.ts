/**
 * On the suite's own broker, where the services under test sign in and may do only what their ACLs allow (as in
 * Kubernetes), a service's principal publishes on its own topic and is refused on any other: the user service cannot
 * put an `account.deletion_requested` on compliance's topic, which every service would act on. The restore's user
 * may move the erasure groups back and do nothing else.
 */
import { encodeEvent, producerServices, topicOf, type ProducerService } from '@haven/proto';
import type { Kafka, Producer } from 'kafkajs';
import {
  commitGroupPositions,
  createKafka,
  createLogger,
  erasureGroupOf,
  kafkaPrincipalOf,
  kafkaUserNameOf,
  replayErasuresSince,
  restorePrincipal,
} from '@haven/platform';
import { testInfra } from '../../../tools/testing/test-env';

const quiet = createLogger('kafka-access-test', 'silent');
const producers: Producer[] = [];

afterAll(async () => {
  await Promise.all(producers.map((producer) => producer.disconnect().catch(() => undefined)));
});

/** A client signed in, on the listener the services use, as a principal's Kafka user. */
function kafkaAs(principal: string): Kafka {
  const signIn = testInfra().kafkaSignIn;
  if (!signIn) throw new Error('this world’s broker signs no one in (the local test worlds do)');
  const username = kafkaUserNameOf(principal);
  return createKafka(`acl-test-${username}`, signIn.brokers, quiet, {
    username,
    password: signIn.passwords[username]!,
  });
}

async function producerFor(kafka: Kafka): Promise<Producer> {
  const producer = kafka.producer({ retry: { retries: 1 } });
  producers.push(producer);
  await producer.connect();
  return producer;
}

/** A producer signed in as the service's own Kafka user. */
const producerOf = (service: ProducerService) => producerFor(kafkaAs(kafkaPrincipalOf(service)));

it("publishes on the service's own topic, and the broker refuses it another service's", async () => {
  const user = await producerOf('user');
  await expect(
    user.send({ topic: topicOf('user'), messages: [{ key: 'someone', value: 'not an event: no consumer reads it' }] }),
  ).resolves.toHaveLength(1);

  const forged = encodeEvent({
    type: 'account.deletion_requested',
    producer: 'compliance',
    subjectId: 'someone-else',
    correlationId: 'acl-test',
    payload: {},
  });
  const refused = user.send({ topic: forged.topic, messages: [{ key: forged.key, value: Buffer.from(forged.value) }] });
  await expect(refused).rejects.toThrow(/authoriz/i);
  await expect(
    user.send({ topic: topicOf('billing'), messages: [{ key: 'someone', value: 'not the user service’s to say' }] }),
  ).rejects.toThrow(/authoriz/i);

  // Compliance, whose topic it is, may publish there.
  const compliance = await producerOf('compliance');
  await expect(
    compliance.send({ topic: topicOf('compliance'), messages: [{ key: 'someone', value: 'not an event' }] }),
  ).resolves.toHaveLength(1);
});

it("lets the restore's user move every erasure group back to a backup's time, and nothing more", async () => {
  const since = new Date();
  const compliance = await producerOf('compliance');
  const [written] = await compliance.send({
    topic: topicOf('compliance'),
    messages: [{ key: 'erased-since', value: 'not an event: a stand-in for a deletion request after the backup' }],
  });

  const restore = kafkaAs(restorePrincipal);
  // Every erasure group has read all there is, as a running Haven's have.
  const tooling = createKafka('acl-test-tooling', testInfra().kafkaBrokers, quiet);
  const admin = tooling.admin();
  await admin.connect();
  try {
    const ends = (await admin.fetchTopicOffsets(topicOf('compliance'))).map(({ partition, high }) => ({
      topic: topicOf('compliance'),
      partition,
      offset: Number(high),
    }));
    for (const service of producerServices) await commitGroupPositions(tooling, erasureGroupOf(service), ends);

    const replay = await replayErasuresSince(restore, since);
    expect(replay.records).toBeGreaterThanOrEqual(1);
    for (const groupId of replay.groups) {
      const [standing] = await admin.fetchOffsets({ groupId, topics: [topicOf('compliance')] });
      const there = standing!.partitions.find(({ partition }) => partition === written!.partition);
      expect({ groupId, offset: there?.offset }).toEqual({ groupId, offset: written!.baseOffset });
    }
    expect(replay.groups).toContain(erasureGroupOf('compliance'));
  } finally {
    await admin.disconnect();
  }

  const restoreProducer = await producerFor(restore);
  await expect(
    restoreProducer.send({ topic: topicOf('compliance'), messages: [{ key: 'x', value: 'not the restore’s to say' }] }),
  ).rejects.toThrow(/authoriz/i);
});
