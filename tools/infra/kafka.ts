import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import {
  assertJava,
  fetchMavenJars,
  fingerprintOf,
  javaCommand,
  jitOptions,
  stampMatches,
  writeStamp,
  type JitTier,
} from './maven';
import { cacheDir, infraSourceDir, partPaths } from './paths';
import {
  assertPortFree,
  ensureDir,
  findRunningPart,
  runCommand,
  spawnDetached,
  stopPart,
  waitForHealthy,
  withFileLock,
} from './process';

/** tools/infra/kafka/pom.xml pins the broker and its runtime jars; it is the single source of the version. */
const pomFile = join(infraSourceDir, 'kafka', 'pom.xml');

export function kafkaVersion(): string {
  const match = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(readFileSync(pomFile, 'utf8'));
  if (!match?.[1]) throw new Error(`no <kafka.version> in ${pomFile}`);
  return match[1].trim();
}

function kafkaHome(): string {
  return join(cacheDir(), `kafka-${kafkaVersion()}`);
}

export function kafkaLibsDir(): string {
  return join(kafkaHome(), 'libs');
}

function stampFile(): string {
  return join(kafkaHome(), 'libs.stamp');
}

export function kafkaProvisioned(): boolean {
  return stampMatches(stampFile(), fingerprintOf([pomFile]));
}

/** Fetches the broker's jars from Maven Central into `<cache>/kafka-<version>/libs` unless already there. */
export async function provisionKafka(log: (line: string) => void): Promise<void> {
  if (kafkaProvisioned()) return;
  await withFileLock(join(cacheDir(), 'locks', 'kafka'), 15 * 60_000, async () => {
    if (kafkaProvisioned()) return;
    const started = Date.now();
    log(`kafka     fetching ${kafkaVersion()} jars from Maven Central (first time only)…`);
    await assertJava('Kafka');
    const jars = await fetchMavenJars(pomFile, kafkaHome(), kafkaLibsDir());
    if (!jars.some((name) => name.startsWith('kafka_2.13-')))
      throw new Error(`Maven fetched no kafka_2.13 jar into ${kafkaLibsDir()}`);
    writeStamp(stampFile(), fingerprintOf([pomFile]));
    log(`kafka     ${jars.length} jars fetched in ${((Date.now() - started) / 1000).toFixed(1)} s → ${kafkaLibsDir()}`);
  });
}

export interface KafkaPorts {
  broker: number;
  controller: number;
  /**
   * A secured broker's second client listener, where clients must sign in; the `broker` port then stays open for
   * the test suite's own tooling (its principal, ANONYMOUS, may do everything), while the services under test sign
   * in here and are held to their ACLs.
   */
  signedIn?: number;
}

interface KafkaFiles {
  home: string;
  dataDir: string;
  serverProperties: string;
  log4jProperties: string;
  clusterIdFile: string;
  /** A secured broker's users, kept so a restart (startKafka after stopKafka) starts it secured again. */
  securedFile: string;
}

function kafkaFiles(stateDir: string): KafkaFiles {
  const { home } = partPaths(stateDir, 'kafka');
  return {
    home,
    dataDir: join(home, 'data'),
    serverProperties: join(home, 'server.properties'),
    log4jProperties: join(home, 'log4j.properties'),
    clusterIdFile: join(home, 'cluster-id'),
    securedFile: join(home, 'secured.json'),
  };
}

/**
 * A broker where every client signs in (SASL SCRAM-SHA-512) and may do only what ACLs allow it, as in Kubernetes
 * (Strimzi's `scram-sha-512` listener and `simple` authorization): `admin` may do everything; the other users are
 * created with the storage, their ACLs given by a test through the admin client.
 */
export interface SecuredKafka {
  adminPassword: string;
  /** SCRAM users besides admin: name → password. */
  users: Record<string, string>;
}

/** Single node, KRaft, combined broker + controller, loopback only. */
function serverProperties(files: KafkaFiles, ports: KafkaPorts, secured?: SecuredKafka): string {
  const signedIn = secured ? `SASL_PLAINTEXT://127.0.0.1:${ports.signedIn ?? ports.broker}` : undefined;
  const open = !secured || ports.signedIn !== undefined ? `PLAINTEXT://127.0.0.1:${ports.broker}` : undefined;
  const clients = [open, signedIn].filter((listener): listener is string => listener !== undefined);
  const protocols = clients.map((listener) => listener.split(':')[0]!);
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${ports.controller}`,
    `listeners=${[...clients, `CONTROLLER://127.0.0.1:${ports.controller}`].join(',')}`,
    `advertised.listeners=${clients.join(',')}`,
    `listener.security.protocol.map=${[...protocols.map((protocol) => `${protocol}:${protocol}`), 'CONTROLLER:PLAINTEXT'].join(',')}`,
    'controller.listener.names=CONTROLLER',
    `inter.broker.listener.name=${protocols[0]}`,
    ...(secured
      ? [
          'sasl.enabled.mechanisms=SCRAM-SHA-512',
          'sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512',
          `listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="${secured.adminPassword}";`,
          'authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer',
          // The controller's listener (and an open client listener) is loopback-only and plaintext: ANONYMOUS.
          'super.users=User:admin;User:ANONYMOUS',
          'allow.everyone.if.no.acl.found=false',
        ]
      : []),
    `log.dirs=${files.dataDir}`,
    'auto.create.topics.enable=true',
    'num.partitions=3',
    'offsets.topic.replication.factor=1',
    // 50 partitions (the default) make the first consumer-group join take seconds on a 2-core machine.
    'offsets.topic.num.partitions=3',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=3',
    'group.initial.rebalance.delay.ms=0',
    'num.network.threads=2',
    'num.io.threads=4',
    'num.recovery.threads.per.data.dir=1',
    '',
  ].join('\n');
}

/** Warnings only, plus the "Kafka Server started" line, so the log stays readable. */
const log4jProperties = [
  'log4j.rootLogger=WARN, stdout',
  'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
  'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
  'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
  'log4j.logger.kafka.server.KafkaRaftServer=INFO',
  '',
].join('\n');

/** Bounded heap: the whole stack shares a small machine. */
const jvmOptions = [
  '-Xms256m',
  '-Xmx512m',
  '-XX:+UseG1GC',
  '-XX:MaxGCPauseMillis=20',
  '-XX:+ExitOnOutOfMemoryError',
  '-Djava.awt.headless=true',
];

/** A KRaft cluster id: 16 random bytes, URL-safe base64 without padding (what `kafka-storage random-uuid` prints). */
function newClusterId(): string {
  // As Kafka's own Uuid.randomUuid: an id starting with '-' is read by kafka-storage as an option.
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** Formats the storage once; later starts reuse the same data and cluster id (and a secured broker's users). */
async function formatStorageOnce(files: KafkaFiles, secured?: SecuredKafka): Promise<void> {
  if (existsSync(join(files.dataDir, 'meta.properties'))) return;
  ensureDir(files.dataDir);
  if (!existsSync(files.clusterIdFile)) writeFileSync(files.clusterIdFile, `${newClusterId()}\n`);
  const clusterId = readFileSync(files.clusterIdFile, 'utf8').trim();
  await runCommand(
    javaCommand(),
    [
      '-Xmx256m',
      `-Dlog4j.configuration=file:${files.log4jProperties}`,
      '-cp',
      `${kafkaLibsDir()}/*`,
      'kafka.tools.StorageTool',
      'format',
      '--cluster-id',
      clusterId,
      '--config',
      files.serverProperties,
      '--ignore-formatted',
      ...(secured
        ? Object.entries({ admin: secured.adminPassword, ...secured.users }).flatMap(([name, password]) => [
            '--add-scram',
            `SCRAM-SHA-512=[name=${name},password=${password}]`,
          ])
        : []),
    ],
    { timeoutMs: 120_000 },
  );
}

/** Healthy means a kafkajs admin can describe the cluster and sees the broker. */
export async function describeKafkaCluster(
  brokers: string[],
  timeoutMs = 3_000,
  secured?: SecuredKafka,
): Promise<void> {
  const admin = new Kafka({
    clientId: 'haven-infra-health',
    brokers,
    ...(secured
      ? { sasl: { mechanism: 'scram-sha-512' as const, username: 'admin', password: secured.adminPassword } }
      : {}),
    connectionTimeout: Math.min(timeoutMs, 1_000),
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    if (cluster.brokers.length === 0) throw new Error('cluster has no broker yet');
  } finally {
    await admin.disconnect();
  }
}

export function kafkaBrokers(port: number): string[] {
  return [`127.0.0.1:${port}`];
}

/** The users of a broker started secured in `stateDir` (kept with its storage), if it was. */
export function securedKafkaOf(stateDir: string): SecuredKafka | undefined {
  const { securedFile } = kafkaFiles(stateDir);
  return existsSync(securedFile) ? (JSON.parse(readFileSync(securedFile, 'utf8')) as SecuredKafka) : undefined;
}

export async function startKafkaBroker(
  stateDir: string,
  ports: KafkaPorts,
  options: { jit?: JitTier; secured?: SecuredKafka } = {},
): Promise<void> {
  const { jit = 'quick-start' } = options;
  const files = kafkaFiles(stateDir);
  // A broker formatted secured keeps its users in its storage: it restarts secured, with the same listeners.
  const secured = options.secured ?? securedKafkaOf(stateDir);
  // With an open listener beside the signed-in one, the health check uses the open one, as the suite's tools do.
  const checkedAs = ports.signedIn === undefined ? secured : undefined;
  const brokers = kafkaBrokers(ports.broker);
  const runningPid = findRunningPart(stateDir, 'kafka');
  if (runningPid !== undefined) {
    await waitForHealthy({
      part: 'kafka',
      stateDir,
      pid: runningPid,
      timeoutMs: 60_000,
      check: () => describeKafkaCluster(brokers, 3_000, checkedAs),
    });
    return;
  }
  if (!kafkaProvisioned())
    throw new Error('kafka jars are not fetched yet: run `npx tsx tools/infra/cli.ts provision`');
  await assertPortFree(ports.broker, 'kafka broker');
  await assertPortFree(ports.controller, 'kafka controller');
  if (ports.signedIn !== undefined) await assertPortFree(ports.signedIn, 'kafka signed-in listener');
  ensureDir(files.home);
  if (secured) {
    // A storage formatted before the broker signed anyone in holds no users: it starts afresh, with them.
    if (!existsSync(files.securedFile)) rmSync(files.dataDir, { recursive: true, force: true });
    writeFileSync(files.securedFile, JSON.stringify(secured), { mode: 0o600 });
  }
  // Regenerated on every start: the ports may differ from the last run, the data stays.
  writeFileSync(files.serverProperties, serverProperties(files, ports, secured));
  writeFileSync(files.log4jProperties, log4jProperties);
  await formatStorageOnce(files, secured);
  const started = await spawnDetached({
    stateDir,
    part: 'kafka',
    command: javaCommand(),
    args: [
      ...jvmOptions,
      ...jitOptions(jit),
      `-Dlog4j.configuration=file:${files.log4jProperties}`,
      '-cp',
      `${kafkaLibsDir()}/*`,
      'kafka.Kafka',
      files.serverProperties,
    ],
  });
  await waitForHealthy({
    part: 'kafka',
    stateDir,
    pid: started.pid,
    logOffset: started.logOffset,
    timeoutMs: 120_000,
    check: () => describeKafkaCluster(brokers, 2_000, checkedAs),
  });
}

/** SIGTERM makes the broker shut down cleanly (seconds); SIGKILL only if it hangs. */
export async function stopKafkaBroker(stateDir: string): Promise<boolean> {
  return stopPart(stateDir, 'kafka', 30_000);
}
