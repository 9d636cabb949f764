import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  mongoServerLibsDir,
  mongoServerVersion,
  mongoUrl,
  pingMongo,
  provisionMongoServer,
  startMongoServer,
  stopMongoServer,
} from './mongo-server';
import {
  describeKafkaCluster,
  kafkaBrokers,
  kafkaLibsDir,
  kafkaVersion,
  provisionKafka,
  startKafkaBroker,
  stopKafkaBroker,
} from './kafka';
import { checkMaildev, mailWebUrl, maildevCli, maildevVersion, startMaildev, stopMaildev } from './maildev';
import type { JitTier } from './maven';
import { PART_NAMES, portsFile, type PartName } from './paths';
import { ensureDir, errorMessage, findRunningPart } from './process';

export { cacheDir, defaultDevStateDir, repoRoot, type PartName } from './paths';
export { startMongoServer, stopMongoServer } from './mongo-server';
export { securedKafkaOf, startKafkaBroker, stopKafkaBroker, type SecuredKafka } from './kafka';
import type { KafkaPorts, SecuredKafka } from './kafka';
export type { JitTier } from './maven';

export interface InfraPorts {
  mongo: number;
  kafka: number;
  kafkaController: number;
  smtp: number;
  mailWeb: number;
  /** A secured broker's listener where clients sign in (the test suite's services); `kafka` stays open then. */
  kafkaSignedIn?: number;
}

export interface InfraEndpoints {
  mongoUrl: string /* mongodb://127.0.0.1:PORT */;
  kafkaBrokers: string[];
  /** The secured broker's signed-in listener, when it has one. */
  kafkaSignedInBrokers?: string[];
  smtpHost: string;
  smtpPort: number;
  mailWebUrl: string;
}

export type PartStatus = 'healthy' | 'stopped' | 'unhealthy';

/** What `make dev` uses when no ports are given. */
export const DEV_PORTS: InfraPorts = { mongo: 27017, kafka: 9092, kafkaController: 9093, smtp: 1025, mailWeb: 1080 };

export function endpointsFor(ports: InfraPorts): InfraEndpoints {
  return {
    mongoUrl: mongoUrl(ports.mongo),
    kafkaBrokers: kafkaBrokers(ports.kafka),
    ...(ports.kafkaSignedIn === undefined ? {} : { kafkaSignedInBrokers: kafkaBrokers(ports.kafkaSignedIn) }),
    smtpHost: '127.0.0.1',
    smtpPort: ports.smtp,
    mailWebUrl: mailWebUrl(ports.mailWeb),
  };
}

function isInfraPorts(value: unknown): value is InfraPorts {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (['mongo', 'kafka', 'kafkaController', 'smtp', 'mailWeb'] as const).every(
    (key) => typeof record[key] === 'number' && Number.isInteger(record[key]),
  );
}

/** Ports of the last `startInfra` on this state folder, if any. */
export function readPorts(stateDir: string): InfraPorts | undefined {
  const file = portsFile(stateDir);
  if (!existsSync(file)) return undefined;
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!isInfraPorts(parsed)) throw new Error(`${file} is not a valid ports file`);
  return parsed;
}

function writePorts(stateDir: string, ports: InfraPorts): void {
  const file = portsFile(stateDir);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(ports, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/**
 * Idempotent: fetches the embedded MongoDB server's and Kafka's jars into the cache when missing.
 * `log` hears only about work actually done (a build, a download), so warm runs are silent.
 */
export async function provision(log: (line: string) => void = (line) => console.log(line)): Promise<void> {
  maildevCli(); // fails early, with the fix, when `npm install` has not run
  const results = await Promise.allSettled([provisionMongoServer(log), provisionKafka(log)]);
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [errorMessage(result.reason)] : []));
  if (failures.length > 0) throw new Error(`provisioning failed:\n${failures.join('\n\n')}`);
}

/** Where provisioning put each part, for people reading `cli.ts provision`. */
export function provisionedArtifacts(): Record<PartName, string> {
  return {
    mongo: `${mongoServerVersion()} ${mongoServerLibsDir()}`,
    kafka: `${kafkaVersion()} ${kafkaLibsDir()}`,
    maildev: `${maildevVersion()} ${maildevCli()}`,
  };
}

function portsChanged(part: PartName, before: InfraPorts, after: InfraPorts): boolean {
  switch (part) {
    case 'mongo':
      return before.mongo !== after.mongo;
    case 'kafka':
      return (
        before.kafka !== after.kafka ||
        before.kafkaController !== after.kafkaController ||
        before.kafkaSignedIn !== after.kafkaSignedIn
      );
    case 'maildev':
      return before.smtp !== after.smtp || before.mailWeb !== after.mailWeb;
  }
}

const stoppers: Record<PartName, (stateDir: string) => Promise<boolean>> = {
  mongo: stopMongoServer,
  kafka: stopKafkaBroker,
  maildev: stopMaildev,
};

/**
 * Starts the MongoDB-compatible server, Kafka and maildev in parallel and resolves once all three are healthy.
 * Parts already running and healthy are left alone; a part running on other ports is restarted.
 * On failure the parts that did start keep running (inspect them, or call stopInfra).
 */
export async function startInfra(
  stateDir: string,
  ports: InfraPorts,
  options: { jit?: JitTier; secured?: SecuredKafka } = {},
): Promise<InfraEndpoints> {
  const state = resolve(stateDir);
  ensureDir(state);
  const previous = readPorts(state);
  if (previous) {
    for (const part of PART_NAMES) {
      if (portsChanged(part, previous, ports)) await stoppers[part](state);
    }
  }
  writePorts(state, ports);
  const results = await Promise.allSettled([
    startMongoServer(state, ports.mongo, { jit: options.jit }),
    startKafkaBroker(state, kafkaPortsOf(ports), options),
    startMaildev(state, { smtp: ports.smtp, web: ports.mailWeb }),
  ]);
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [errorMessage(result.reason)] : []));
  if (failures.length > 0) throw new Error(`infra did not start:\n${failures.join('\n\n')}`);
  return endpointsFor(ports);
}

function kafkaPortsOf(ports: InfraPorts): KafkaPorts {
  return { broker: ports.kafka, controller: ports.kafkaController, signedIn: ports.kafkaSignedIn };
}

/** Stops all three parts (their data and ports.json stay for the next start). */
export async function stopInfra(stateDir: string): Promise<void> {
  const state = resolve(stateDir);
  const results = await Promise.allSettled(PART_NAMES.map((part) => stoppers[part](state)));
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [errorMessage(result.reason)] : []));
  if (failures.length > 0) throw new Error(`infra did not stop cleanly:\n${failures.join('\n')}`);
}

const healthChecks: Record<PartName, (ports: InfraPorts) => Promise<void>> = {
  mongo: (ports) => pingMongo(mongoUrl(ports.mongo), 1_500),
  kafka: (ports) => describeKafkaCluster(kafkaBrokers(ports.kafka), 2_000),
  maildev: (ports) => checkMaildev({ smtp: ports.smtp, web: ports.mailWeb }, 1_500),
};

/** 'stopped' = no process; 'unhealthy' = its process runs but its health check fails. */
export async function infraStatus(stateDir: string): Promise<Record<PartName, PartStatus>> {
  const state = resolve(stateDir);
  const ports = readPorts(state);
  const statuses = await Promise.all(
    PART_NAMES.map(async (part): Promise<PartStatus> => {
      if (findRunningPart(state, part) === undefined) return 'stopped';
      if (!ports) return 'unhealthy';
      try {
        await healthChecks[part](ports);
        return 'healthy';
      } catch {
        return 'unhealthy';
      }
    }),
  );
  const [mongo, kafka, maildev] = statuses as [PartStatus, PartStatus, PartStatus];
  return { mongo, kafka, maildev };
}

function rememberedPorts(stateDir: string): InfraPorts {
  const ports = readPorts(stateDir);
  if (!ports) throw new Error(`no ${portsFile(stateDir)}: start the infra with startInfra first`);
  return ports;
}

/** Starts (or restarts after stopKafka) the broker on the ports and data of the last startInfra. */
export async function startKafka(stateDir: string): Promise<void> {
  const ports = rememberedPorts(stateDir);
  await startKafkaBroker(resolve(stateDir), kafkaPortsOf(ports));
}

export async function stopKafka(stateDir: string): Promise<void> {
  await stopKafkaBroker(resolve(stateDir));
}

/**
 * Where freePorts looks: below Linux's ephemeral range (32768–60999 by default), which the kernel hands to outgoing
 * connections and Docker to the ports it publishes for containers. A port found free here stays free until its
 * server binds it, even while the container stage starts containers beside the tests; a port the kernel chose
 * (`listen(0)`) could be published by Docker in between, and a Haven container would then answer for the app.
 */
export const freePortRange = { from: 20_000, to: 32_000 } as const;

/**
 * Ports handed out in the last few minutes, by any process on this machine (every clone, every jest worker): one
 * empty file each, made exclusively. Two callers at once never get the same port, even before either has bound it.
 */
const reservationsDir = join(tmpdir(), 'haven-port-reservations');
/** Long enough for a server to start and bind the port it was given; after that the port's own listener holds it. */
const reservationMs = 10 * 60_000;

/** Reserves `port` for this caller; false when another caller reserved it within `reservationMs`. */
function reservePort(port: number, now = Date.now()): boolean {
  mkdirSync(reservationsDir, { recursive: true });
  const file = join(reservationsDir, String(port));
  for (let tries = 0; tries < 2; tries += 1) {
    try {
      closeSync(openSync(file, 'wx'));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let reservedAt: number;
      try {
        reservedAt = statSync(file).mtimeMs;
      } catch {
        continue; // another caller just reclaimed it: try once more
      }
      if (now - reservedAt < reservationMs) return false;
      try {
        unlinkSync(file); // an old reservation: its server has long bound the port or gone
      } catch {
        // another caller reclaimed it first
      }
    }
  }
  return false;
}

/** Holds `port` on 127.0.0.1, or null when something already has it. */
function holdPort(port: number): Promise<Server | null> {
  return new Promise((resolveHeld) => {
    const server = createServer();
    server.once('error', () => resolveHeld(null));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolveHeld(server));
  });
}

/**
 * `n` distinct ports that were free a moment ago and that no other caller was given in the last few minutes (a
 * reservation file each), from `freePortRange`, starting at a random place in it: all are held open together so none
 * repeats, then released for the caller to bind.
 */
export function freePorts(n: number): Promise<number[]> {
  return freePortsFrom(n, freePortRange.from + Math.floor(Math.random() * (freePortRange.to - freePortRange.from)));
}

/** freePorts looking from `first` on (wrapping round the range). */
export async function freePortsFrom(n: number, first: number): Promise<number[]> {
  const servers: Server[] = [];
  const size = freePortRange.to - freePortRange.from;
  try {
    const ports: number[] = [];
    for (let step = 0; step < size && ports.length < n; step += 1) {
      const port = freePortRange.from + ((first - freePortRange.from + step) % size);
      const held = await holdPort(port);
      if (!held) continue;
      if (!reservePort(port)) {
        await new Promise<void>((resolveClosed) => held.close(() => resolveClosed()));
        continue;
      }
      servers.push(held);
      ports.push(port);
    }
    if (ports.length < n) {
      throw new Error(`only ${ports.length} of ${n} ports free in ${freePortRange.from}–${freePortRange.to}`);
    }
    return ports;
  } finally {
    await Promise.all(
      servers.map((server) => new Promise<void>((resolveClosed) => server.close(() => resolveClosed()))),
    );
  }
}
