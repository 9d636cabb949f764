/**
 * Jest globalSetup for integration tests: real MongoDB-compatible store, Kafka and mail catcher.
 *
 * With a reachable Docker engine (and HAVEN_TEST_INFRA not 'local') the parts run as
 * testcontainers; otherwise as local processes (mongo-java-server, Kafka KRaft, maildev) on free loopback
 * ports, with data and logs in `<repo>/.haven/test-<pid>`. Either way the endpoints reach the
 * tests through process.env (see test-env.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePorts, provision, repoRoot, startInfra, stopInfra, type InfraPorts } from '../infra/index';
import { isProcessAlive } from '../infra/process';
import type { StartedTestContainer } from 'testcontainers';
import { missingImages, startContainers } from './containers';
import { KEEP_MARKER, TEST_ENV, keepTestState, publishTestInfra } from './test-env';

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

function portsFrom(list: number[]): InfraPorts {
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

/** A run killed before its teardown leaves a JVM behind; stop those and drop their state. */
async function cleanUpAbandonedRuns(): Promise<void> {
  if (!existsSync(testStateRoot)) return;
  for (const name of readdirSync(testStateRoot)) {
    const ownerPid = Number(testStatePattern.exec(name)?.[1]);
    if (!ownerPid || ownerPid === process.pid || isProcessAlive(ownerPid)) continue;
    const stateDir = join(testStateRoot, name);
    await stopInfra(stateDir).catch(() => undefined);
    if (!existsSync(join(stateDir, KEEP_MARKER))) rmSync(stateDir, { recursive: true, force: true });
  }
}

async function startLocal(stateDir: string): Promise<void> {
  await provision(log);
  await cleanUpAbandonedRuns();
  startOrphanReaper(stateDir);
  const started = Date.now();
  try {
    const endpoints = await startInfra(stateDir, portsFrom(await freePorts(5)));
    publishTestInfra({ kind: 'local', stateDir, ...endpoints });
  } catch (error) {
    await stopInfra(stateDir).catch(() => undefined);
    throw error;
  }
  log(`Database, Kafka and maildev healthy in ${((Date.now() - started) / 1000).toFixed(1)} s (state ${stateDir})`);
}

async function startWithContainers(stateDir: string): Promise<void> {
  const started = await startContainers();
  setupHandoff.havenTestContainers = started.containers;
  publishTestInfra(
    {
      kind: 'testcontainers',
      stateDir,
      mongoUrl: started.mongoUrl,
      kafkaBrokers: started.kafkaBrokers,
      smtpHost: started.smtpHost,
      smtpPort: started.smtpPort,
      mailWebUrl: started.mailWebUrl,
    },
    started.kafkaContainerId,
  );
}

export default async function globalSetup(): Promise<void> {
  const requested = process.env[TEST_ENV.infra];
  if (requested && requested !== 'local' && requested !== 'testcontainers') {
    throw new Error(`${TEST_ENV.infra}=${requested}: use 'local' or 'testcontainers'`);
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
        await startWithContainers(stateDir);
        return;
      }
      const why = `the Docker engine answers but has no ${missing.join(', ')} (run \`make images\`; no registry is used)`;
      if (requested === 'testcontainers') throw new Error(`${TEST_ENV.infra}=testcontainers, but ${why}`);
      log(`${why}: using local processes instead`);
    }
    if (requested === 'testcontainers')
      throw new Error(`${TEST_ENV.infra}=testcontainers, but no Docker engine answers \`docker info\``);
  }
  await startLocal(stateDir);
}
