/**
 * The same three parts as Docker containers, for machines with a Docker engine.
 *
 * HAVEN_CONTAINER_IMAGES picks the images: `local` (the default) uses the ones `make images` builds
 * without a registry (tools/containers/images.ts); `public` pulls mongo:7, apache/kafka and
 * maildev/maildev where a registry is reachable. Testcontainers' resource reaper is an image from
 * Docker Hub too: run with TESTCONTAINERS_RYUK_DISABLED=true (the container stage does) and the
 * global teardown stops the containers itself.
 */
import { MongoDBContainer } from '@testcontainers/mongodb';
import {
  GenericContainer,
  ImageName,
  Wait,
  getContainerRuntimeClient,
  type StartedTestContainer,
} from 'testcontainers';
import { images } from '../containers/images';
import { freePorts } from '../infra/index';

export type ContainerImages = 'local' | 'public';

export function containerImages(): ContainerImages {
  const chosen = process.env.HAVEN_CONTAINER_IMAGES || 'local';
  if (chosen !== 'local' && chosen !== 'public')
    throw new Error(`HAVEN_CONTAINER_IMAGES=${chosen}: use 'local' (built by make images) or 'public' (a registry)`);
  return chosen;
}

const publicImages = {
  mongo: 'mongo:7',
  /** Same 3.9 line as the local broker (tools/infra/kafka/pom.xml). */
  kafka: 'apache/kafka:3.9.1',
  maildev: 'maildev/maildev:2.2.1',
};

function imageFor(part: 'mongo' | 'kafka' | 'maildev'): string {
  if (containerImages() === 'public') return publicImages[part];
  return { mongo: images.mongoServer(), kafka: images.kafka(), maildev: images.maildev() }[part];
}

const MONGO_PORT = 27017;

/** The data-plane images this run would use that the engine does not have (local images are never pulled). */
export async function missingImages(): Promise<string[]> {
  if (containerImages() === 'public') return [];
  const runtime = await getContainerRuntimeClient();
  const wanted = (['mongo', 'kafka', 'maildev'] as const).map(imageFor);
  const present = await Promise.all(
    wanted.map((image) => runtime.image.exists(ImageName.fromString(image)).catch(() => false)),
  );
  return wanted.filter((_, index) => !present[index]);
}
const KAFKA_CONTROLLER_PORT = 9093;
const MAILDEV_SMTP_PORT = 1025;
const MAILDEV_WEB_PORT = 1080;

export interface StartedContainers {
  containers: StartedTestContainer[];
  kafkaContainerId: string;
  mongoUrl: string;
  kafkaBrokers: string[];
  smtpHost: string;
  smtpPort: number;
  mailWebUrl: string;
}

/**
 * Kafka listens inside the container on the same port number the host maps to it, and advertises
 * that host:port. A fixed binding (not a random one) is what lets a test `docker stop` and
 * `docker start` the broker and find it at the same address, with its data, afterwards.
 */
async function startKafkaContainer(): Promise<StartedTestContainer> {
  const [brokerPort] = await freePorts(1);
  if (brokerPort === undefined) throw new Error('no free port for Kafka');
  const runtime = await getContainerRuntimeClient();
  const advertisedHost = runtime.info.containerRuntime.host;
  return new GenericContainer(imageFor('kafka'))
    .withExposedPorts({ container: brokerPort, host: brokerPort })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: `PLAINTEXT://0.0.0.0:${brokerPort},CONTROLLER://localhost:${KAFKA_CONTROLLER_PORT}`,
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${advertisedHost}:${brokerPort}`,
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: `1@localhost:${KAFKA_CONTROLLER_PORT}`,
      KAFKA_INTER_BROKER_LISTENER_NAME: 'PLAINTEXT',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'true',
      KAFKA_NUM_PARTITIONS: '3',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '3',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_HEAP_OPTS: '-Xms256m -Xmx512m',
    })
    .withWaitStrategy(Wait.forLogMessage('Kafka Server started'))
    .withStartupTimeout(180_000)
    .start();
}

function startMongoContainer(): Promise<StartedTestContainer> {
  if (containerImages() === 'public')
    return new MongoDBContainer(publicImages.mongo).withStartupTimeout(180_000).start();
  // The embedded server's image has no mongosh (what MongoDBContainer waits with); its HEALTHCHECK does.
  return new GenericContainer(imageFor('mongo'))
    .withExposedPorts(MONGO_PORT)
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(180_000)
    .start();
}

function startMaildevContainer(): Promise<StartedTestContainer> {
  return new GenericContainer(imageFor('maildev'))
    .withExposedPorts(MAILDEV_SMTP_PORT, MAILDEV_WEB_PORT)
    .withWaitStrategy(Wait.forHttp('/healthz', MAILDEV_WEB_PORT))
    .withStartupTimeout(120_000)
    .start();
}

/** Starts all three in parallel; if one fails, the others are stopped before the error is thrown. */
export async function startContainers(): Promise<StartedContainers> {
  const results = await Promise.allSettled([startMongoContainer(), startKafkaContainer(), startMaildevContainer()]);
  const [mongo, kafka, maildev] = results;
  if (mongo?.status !== 'fulfilled' || kafka?.status !== 'fulfilled' || maildev?.status !== 'fulfilled') {
    const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    await Promise.allSettled(started.map((container) => container.stop()));
    const reasons = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    throw new Error(`test containers did not start:\n${reasons.join('\n')}`);
  }
  const kafkaPort = kafka.value.getFirstMappedPort();
  return {
    containers: [mongo.value, kafka.value, maildev.value],
    kafkaContainerId: kafka.value.getId(),
    // The mongo:7 container is a one-member replica set advertising its container hostname: connect directly.
    mongoUrl: `mongodb://${mongo.value.getHost()}:${mongo.value.getMappedPort(MONGO_PORT)}/?directConnection=true`,
    kafkaBrokers: [`${kafka.value.getHost()}:${kafkaPort}`],
    smtpHost: maildev.value.getHost(),
    smtpPort: maildev.value.getMappedPort(MAILDEV_SMTP_PORT),
    mailWebUrl: `http://${maildev.value.getHost()}:${maildev.value.getMappedPort(MAILDEV_WEB_PORT)}`,
  };
}

export async function stopContainers(containers: StartedTestContainer[]): Promise<void> {
  await Promise.allSettled(containers.map((container) => container.stop({ timeout: 10_000 })));
}
