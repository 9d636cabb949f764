/**
 * On a broker where every client signs in and may do only what its ACLs allow (as Kubernetes runs Kafka), a
 * service's principal, with the ACLs kafka-access.ts gives it, publishes on its own topic and is refused on any
 * other: the user service cannot put an `account.deletion_requested` on compliance's topic, which every service
 * would act on. The restore's user may move the erasure groups back and do nothing else. The broker here is this
 * file's own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeEvent, topicOf, type ProducerService } from '@haven/proto';
import type { Kafka, Producer } from 'kafkajs';
import {
  createKafka,
  createLogger,
  erasureGroupOf,
  kafkaAclsOf,
  kafkaPrincipalOf,
  replayErasuresSince,
  restoreAcls,
  restorePrincipal,
} from '@haven/platform';
import { freePorts, startKafkaBroker, stopKafkaBroker, type SecuredKafka } from '../../../tools/infra';

const stateDir = mkdtempSync(join(tmpdir(), 'haven-kafka-acl-'));
const services: ProducerService[] = ['user', 'billing', 'compliance'];
const secured: SecuredKafka = {
  adminPassword: randomBytes(12).toString('hex'),
  users: Object.fromEntries(
    [...services.map((service) => `haven-${service}`), 'haven-restore'].map((user) => [
      user,
      randomBytes(12).toString('hex'),
    ]),
  ),
};
const quiet = createLogger('kafka-access-test', 'silent');
let brokers: string[];
const producers: Producer[] = [];

beforeAll(async () => {
  const [broker, controller] = await freePorts(2);
  await startKafkaBroker(stateDir, { broker: broker!, controller: controller! }, { secured });
  brokers = [`127.0.0.1:${broker}`];
  const admin = createKafka('acl-test-admin', brokers, quiet, {
    username: 'admin',
    password: secured.adminPassword,
  }).admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: services.map((service) => ({ topic: topicOf(service), numPartitions: 1 })),
      waitForLeaders: true,
    });
    await admin.createAcls({ acl: [...services.flatMap((service) => kafkaAclsOf(service)), ...restoreAcls()] });
  } finally {
    await admin.disconnect();
  }
}, 180_000);

afterAll(async () => {
  await Promise.all(producers.map((producer) => producer.disconnect().catch(() => undefined)));
  await stopKafkaBroker(stateDir);
  rmSync(stateDir, { recursive: true, force: true });
}, 60_000);

/** A client signed in as a principal's Kafka user. */
function kafkaAs(principal: string): Kafka {
  const username = principal.replace(/^User:/, '');
  return createKafka(`acl-test-${username}`, brokers, quiet, { username, password: secured.users[username]! });
}

/** A producer signed in as the service's own Kafka user. */
async function producerOf(service: ProducerService): Promise<Producer> {
  return producerFor(kafkaAs(kafkaPrincipalOf(service)));
}

async function producerFor(kafka: Kafka): Promise<Producer> {
  const producer = kafka.producer({ retry: { retries: 1 } });
  producers.push(producer);
  await producer.connect();
  return producer;
}

it("publishes on the service's own topic, and the broker refuses it another service's", async () => {
  const user = await producerOf('user');
  await expect(
    user.send({ topic: topicOf('user'), messages: [{ key: 'someone', value: 'an event of the user service' }] }),
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

  // Compliance, whose topic it is, publishes the same event.
  const compliance = await producerOf('compliance');
  await expect(
    compliance.send({ topic: forged.topic, messages: [{ key: forged.key, value: Buffer.from(forged.value) }] }),
  ).resolves.toHaveLength(1);
}, 120_000);

it("lets the restore's user move every erasure group back to a backup's time, and nothing more", async () => {
  const since = new Date();
  const compliance = await producerOf('compliance');
  const [written] = await compliance.send({
    topic: topicOf('compliance'),
    messages: [{ key: 'erased-since', value: 'a deletion request made after the backup' }],
  });

  const restore = kafkaAs(restorePrincipal);
  const replay = await replayErasuresSince(restore, since);
  expect(replay.records).toBeGreaterThanOrEqual(1);
  const admin = createKafka('acl-test-reader', brokers, quiet, {
    username: 'admin',
    password: secured.adminPassword,
  }).admin();
  await admin.connect();
  try {
    for (const service of services) {
      const [standing] = await admin.fetchOffsets({
        groupId: erasureGroupOf(service),
        topics: [topicOf('compliance')],
      });
      expect(standing!.partitions).toEqual([{ partition: 0, offset: written!.baseOffset, metadata: null }]);
    }
  } finally {
    await admin.disconnect();
  }

  const restoreProducer = await producerFor(restore);
  await expect(
    restoreProducer.send({ topic: topicOf('compliance'), messages: [{ key: 'x', value: 'not the restore’s to say' }] }),
  ).rejects.toThrow(/authoriz/i);
}, 120_000);
