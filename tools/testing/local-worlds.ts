/**
 * Where each jest worker's local servers keep their state, and how to stop them all: used by the global
 * setup and teardown, and by the orphan reaper after a jest process that died without its teardown.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { kafkaPrincipalOf, kafkaUserNameOf, restorePrincipal } from '@haven/platform';
import { producerServices } from '@haven/proto';
import {
  endpointsFor,
  freePorts,
  infraStatus,
  readPorts,
  repoRoot,
  securedKafkaOf,
  startInfra,
  stopInfra,
  type InfraEndpoints,
  type InfraPorts,
  type SecuredKafka,
} from '../infra/index';
import { warmUpKafka } from './kafka-warm-up';
import type { TestInfra } from './test-env';

/**
 * Servers kept running between jest runs (`make test-servers`), for a fast inner loop: one area's
 * integration tests run against them (`make test-area`) without starting a world each time.
 */
export const keptServersDir = join(repoRoot, '.haven', 'test-servers');

const worldPattern = /^world-\d+$/;

/** Five free ports, in the order a world uses them. */
export function portsFrom(list: number[]): InfraPorts {
  const [mongo, kafka, kafkaController, smtp, mailWeb] = list;
  if (
    mongo === undefined ||
    kafka === undefined ||
    kafkaController === undefined ||
    smtp === undefined ||
    mailWeb === undefined
  ) {
    throw new Error('could not find five free ports');
  }
  return { mongo, kafka, kafkaController, smtp, mailWeb };
}

/** A world's ports from six free ones: the five of portsFrom, then its broker's signed-in listener. */
export function worldPortsFrom(list: number[]): InfraPorts {
  const kafkaSignedIn = list[5];
  if (kafkaSignedIn === undefined) throw new Error('could not find six free ports');
  return { ...portsFrom(list.slice(0, 5)), kafkaSignedIn };
}

/**
 * A password for the broker's admin, each service's Kafka user (haven-<service>) and the restore's, new for every
 * world.
 */
function securedKafkaForServices(): SecuredKafka {
  const password = () => randomBytes(12).toString('hex');
  const principals = [...producerServices.map(kafkaPrincipalOf), restorePrincipal];
  return {
    adminPassword: password(),
    users: Object.fromEntries(principals.map((principal) => [kafkaUserNameOf(principal), password()])),
  };
}

/** A world as the tests see it, from its servers' endpoints and its broker's users. */
function localWorld(stateDir: string, endpoints: InfraEndpoints, secured: SecuredKafka | undefined): TestInfra {
  const { kafkaSignedInBrokers, ...rest } = endpoints;
  return {
    kind: 'local',
    stateDir,
    ...rest,
    ...(kafkaSignedInBrokers && secured
      ? { kafkaSignIn: { brokers: kafkaSignedInBrokers, passwords: secured.users } }
      : {}),
  };
}

/**
 * Starts a world's servers. Its broker signs the services in, each as its own user held to its ACLs, as in
 * production; the suite's own tooling uses its open loopback listener. Not yet warmed up (kafka-warm-up.ts).
 */
export async function startLocalWorld(stateDir: string, ports: InfraPorts): Promise<TestInfra> {
  // A broker's users live in its storage: a world started before keeps the passwords it was formatted with.
  const secured = securedKafkaOf(stateDir) ?? securedKafkaForServices();
  return localWorld(stateDir, await startInfra(stateDir, ports, { secured }), secured);
}

/** The folder of world `n` (1-based, as JEST_WORKER_ID) inside a run's state folder. */
export function worldDir(stateDir: string, n: number): string {
  return join(stateDir, `world-${n}`);
}

/** Stops the servers of every world in a run's state folder (their data stays until the folder goes). */
export async function stopLocalWorlds(stateDir: string): Promise<void> {
  if (!existsSync(stateDir)) return;
  const worlds = readdirSync(stateDir).filter((name) => worldPattern.test(name));
  const results = await Promise.allSettled(worlds.map((name) => stopInfra(join(stateDir, name))));
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  if (failures.length > 0) throw new Error(failures.join('\n'));
}

/** Starts the kept test servers on free ports (or leaves them running when they already answer). */
export async function startKeptServers(): Promise<TestInfra> {
  const running = await keptServers();
  if (running) return running;
  const world = await startLocalWorld(keptServersDir, worldPortsFrom(await freePorts(6)));
  await warmUpKafka(world.kafkaBrokers, { acls: true });
  return world;
}

/** The kept test servers when all three answer, else undefined. */
export async function keptServers(): Promise<TestInfra | undefined> {
  const ports = readPorts(keptServersDir);
  if (!ports) return undefined;
  const status = await infraStatus(keptServersDir);
  if (Object.values(status).some((part) => part !== 'healthy')) return undefined;
  return localWorld(keptServersDir, endpointsFor(ports), securedKafkaOf(keptServersDir));
}

export async function stopKeptServers(): Promise<void> {
  if (existsSync(keptServersDir)) await stopInfra(keptServersDir);
}
