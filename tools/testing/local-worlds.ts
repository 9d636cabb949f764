/**
 * Where each jest worker's local servers keep their state, and how to stop them all: used by the global
 * setup and teardown, and by the orphan reaper after a jest process that died without its teardown.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  endpointsFor,
  freePorts,
  infraStatus,
  readPorts,
  repoRoot,
  startInfra,
  stopInfra,
  type InfraPorts,
} from '../infra/index';
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
  const endpoints = await startInfra(keptServersDir, portsFrom(await freePorts(5)));
  return { kind: 'local', stateDir: keptServersDir, ...endpoints };
}

/** The kept test servers when all three answer, else undefined. */
export async function keptServers(): Promise<TestInfra | undefined> {
  const ports = readPorts(keptServersDir);
  if (!ports) return undefined;
  const status = await infraStatus(keptServersDir);
  if (Object.values(status).some((part) => part !== 'healthy')) return undefined;
  return { kind: 'local', stateDir: keptServersDir, ...endpointsFor(ports) };
}

export async function stopKeptServers(): Promise<void> {
  if (existsSync(keptServersDir)) await stopInfra(keptServersDir);
}
