/**
 * Jest globalSetup for integration tests: real MongoDB-compatible store, Kafka and mail catcher — one
 * world of the three per jest worker, started side by side, so workers never share a server.
 *
 * With a reachable Docker engine (and HAVEN_TEST_INFRA not 'local') the parts run as
 * testcontainers; otherwise as local processes (mongo-java-server, Kafka KRaft, maildev) on free loopback
 * ports, with data and logs in `<repo>/.haven/test-<pid>/world-<n>`. Either way the endpoints reach the
 * tests through process.env (see test-env.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePorts, provision, repoRoot, stopInfra } from '../infra/index';
import { isProcessAlive } from '../infra/process';
import type { StartedTestContainer } from 'testcontainers';
import { missingImages, startContainers } from './containers';
import { warmUpKafka } from './kafka-warm-up';
import { keptServers, startLocalWorld, stopLocalWorlds, worldDir, worldPortsFrom } from './local-worlds';
import { KEEP_MARKER, TEST_ENV, keepTestState, publishTestWorlds, type TestInfra } from './test-env';

const testStateRoot = join(repoRoot, '.haven');
const testStatePattern = /^test-(\d+)$/;

/** Shared with global-teardown, which jest runs in this same process. */
export const setupHandoff = globalThis as typeof globalThis & { havenTestContainers?: StartedTestContainer[] };

/**
 * If jest ends without its teardown (Ctrl-C, kill, crash), a small detached watcher stops the
 * servers and removes the state folder; it exits by itself once the teardown has removed it.
 */
function startOrphanReaper(stateDir: string): void {
  const reaper = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'orphan-reaper.ts'), String(process.pid), stateDir],
    { cwd: repoRoot, detached: true, stdio: 'ignore' },
  );
  reaper.on('error', (error) => log(`orphan reaper did not start: ${error.message}`));
  reaper.unref();
}

/** True when a Docker engine answers within a few seconds (the docker client alone is not enough). */
function dockerReachable(timeoutMs = 5_000): Promise<boolean> {
  return new Promise((resolveReachable) => {
    execFile('docker', ['info'], { timeout: timeoutMs }, (error) => resolveReachable(!error));
  });
}

function log(line: string): void {
  console.log(`[haven test infra] ${line}`);
}

/** A run killed before its teardown leaves a JVM behind; stop those and drop their state. */
async function cleanUpAbandonedRuns(): Promise<void> {
  if (!existsSync(testStateRoot)) return;
  for (const name of readdirSync(testStateRoot)) {
    const ownerPid = Number(testStatePattern.exec(name)?.[1]);
    if (!ownerPid || ownerPid === process.pid || isProcessAlive(ownerPid)) continue;
    const stateDir = join(testStateRoot, name);
    await stopLocalWorlds(stateDir).catch(() => undefined);
    if (!existsSync(join(stateDir, KEEP_MARKER))) rmSync(stateDir, { recursive: true, force: true });
  }
}

async function startLocal(stateDir: string, worlds: number): Promise<void> {
  await provision(log);
  await cleanUpAbandonedRuns();
  startOrphanReaper(stateDir);
  const started = Date.now();
  const dirs = Array.from({ length: worlds }, (_, index) => worldDir(stateDir, index + 1));
  // Ports for every world at once, so no two worlds are given the same one.
  const ports = await freePorts(6 * worlds);
  const results = await Promise.allSettled(
    dirs.map((dir, index) => startLocalWorld(dir, worldPortsFrom(ports.slice(6 * index, 6 * index + 6)))),
  );
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  if (failures.length > 0) {
    await Promise.allSettled(dirs.map((dir) => stopInfra(dir)));
    throw new Error(failures.join('\n'));
  }
  const published = results.map((result) => (result as PromiseFulfilledResult<TestInfra>).value);
  try {
    await Promise.all(published.map((world) => warmUpKafka(world.kafkaBrokers, { acls: true })));
  } catch (error) {
    await Promise.allSettled(dirs.map((dir) => stopInfra(dir)));
    throw error;
  }
  publishTestWorlds('local', stateDir, published);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  log(`${worlds} world(s) of database, Kafka and maildev healthy in ${seconds} s (state ${stateDir})`);
}

async function startWithContainers(stateDir: string, worlds: number): Promise<void> {
  const results = await Promise.allSettled(Array.from({ length: worlds }, () => startContainers()));
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  setupHandoff.havenTestContainers = started.flatMap((world) => world.containers);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
  await Promise.all(started.map((world) => warmUpKafka(world.kafkaBrokers)));
  publishTestWorlds(
    'testcontainers',
    stateDir,
    started.map((world, index) => ({
      kind: 'testcontainers',
      stateDir: worldDir(stateDir, index + 1),
      mongoUrl: world.mongoUrl,
      kafkaBrokers: world.kafkaBrokers,
      smtpHost: world.smtpHost,
      smtpPort: world.smtpPort,
      mailWebUrl: world.mailWebUrl,
      kafkaContainerId: world.kafkaContainerId,
    })),
  );
}

/** One world per worker jest may start (1 in band: jest then reports maxWorkers 1). */
function worldCount(globalConfig: { maxWorkers?: number } | undefined): number {
  return Math.max(1, globalConfig?.maxWorkers ?? 1);
}

export default async function globalSetup(globalConfig?: { maxWorkers?: number }): Promise<void> {
  const worlds = worldCount(globalConfig);
  const requested = process.env[TEST_ENV.infra];
  if (requested && requested !== 'local' && requested !== 'testcontainers' && requested !== 'running') {
    throw new Error(`${TEST_ENV.infra}=${requested}: use 'local', 'testcontainers' or 'running'`);
  }
  if (requested === 'running') {
    // The kept servers of `make test-servers`: every worker shares them, and the teardown leaves them running.
    const kept = await keptServers();
    if (!kept) throw new Error(`${TEST_ENV.infra}=running, but no kept test servers answer: run \`make test-servers\``);
    publishTestWorlds('running', kept.stateDir, [kept]);
    log(`using the kept test servers (${kept.stateDir})`);
    return;
  }
  const stateDir = join(testStateRoot, `test-${process.pid}`);
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  if (keepTestState()) {
    writeFileSync(join(stateDir, KEEP_MARKER), 'kept because HAVEN_KEEP_TEST_STATE=1\n');
  }

  if (requested !== 'local') {
    if (await dockerReachable()) {
      const missing = await missingImages();
      if (missing.length === 0) {
        await startWithContainers(stateDir, worlds);
        return;
      }
      const why = `the Docker engine answers but has no ${missing.join(', ')} (run \`make images\`; no registry is used)`;
      if (requested === 'testcontainers') throw new Error(`${TEST_ENV.infra}=testcontainers, but ${why}`);
      log(`${why}: using local processes instead`);
    }
    if (requested === 'testcontainers')
      throw new Error(`${TEST_ENV.infra}=testcontainers, but no Docker engine answers \`docker info\``);
  }
  await startLocal(stateDir, worlds);
}
