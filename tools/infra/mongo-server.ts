import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import mongoose from 'mongoose';
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

/**
 * The embedded MongoDB-compatible server of `make dev` and `make test`: mongo-java-server with its H2 backend
 * (tools/infra/mongo-server/pom.xml pins it). It keeps MongoDB's single-document atomicity and serves queries from
 * indexes; the conformance suite (tools/infra/test/mongo-conformance.int.test.ts) checks the properties Haven relies
 * on. Why not FerretDB 1.24: docs/decisions/development-and-tests/development-database.md.
 */
const sourceDir = join(infraSourceDir, 'mongo-server');
const pomFile = join(sourceDir, 'pom.xml');
const launcherSource = join(sourceDir, 'HavenMongoServer.java');
const launcherClass = 'HavenMongoServer';

export function mongoServerVersion(): string {
  const match = /<mongo-java-server\.version>([^<]+)<\//.exec(readFileSync(pomFile, 'utf8'));
  if (!match?.[1]) throw new Error(`no <mongo-java-server.version> in ${pomFile}`);
  return `mongo-java-server ${match[1].trim()}`;
}

function serverHome(): string {
  return join(cacheDir(), `mongo-server-${mongoServerVersion().split(' ')[1]}`);
}

export function mongoServerLibsDir(): string {
  return join(serverHome(), 'libs');
}

const buildFingerprint = () => fingerprintOf([pomFile, launcherSource]);

// One build per launcher version: checkouts with different launchers (a branch, a worktree) share the cache
// without rebuilding over each other's classes while a server of the other one starts.
export function mongoServerClassesDir(): string {
  return join(serverHome(), 'classes', buildFingerprint().slice(0, 16));
}

function stampFile(): string {
  return join(serverHome(), `build-${buildFingerprint().slice(0, 16)}.stamp`);
}

export function mongoServerProvisioned(): boolean {
  return stampMatches(stampFile(), buildFingerprint());
}

/** Fetches the server's jars and compiles the launcher into `<cache>/mongo-server-<version>/` unless done. */
export async function provisionMongoServer(log: (line: string) => void): Promise<void> {
  if (mongoServerProvisioned()) return;
  await withFileLock(join(cacheDir(), 'locks', 'mongo-server'), 15 * 60_000, async () => {
    if (mongoServerProvisioned()) return;
    const started = Date.now();
    log(`mongo     fetching ${mongoServerVersion()} jars from Maven Central (first time only)…`);
    await assertJava('The embedded MongoDB-compatible server');
    const jars = await fetchMavenJars(pomFile, serverHome(), mongoServerLibsDir());
    if (!jars.some((name) => name.startsWith('mongo-java-server-h2-backend-')))
      throw new Error(`Maven fetched no mongo-java-server-h2-backend jar into ${mongoServerLibsDir()}`);
    ensureDir(mongoServerClassesDir());
    await runCommand(
      javaCommand('javac'),
      ['--release', '17', '-cp', `${mongoServerLibsDir()}/*`, '-d', mongoServerClassesDir(), launcherSource],
      { timeoutMs: 120_000 },
    );
    writeStamp(stampFile(), buildFingerprint());
    log(`mongo     ${jars.length} jars fetched and launcher built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
}

export function mongoUrl(port: number): string {
  return `mongodb://127.0.0.1:${port}`;
}

/** Healthy means a MongoDB `ping` succeeds over the wire protocol. */
export async function pingMongo(url: string, timeoutMs = 2_000): Promise<void> {
  const client = new mongoose.mongo.MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    directConnection: true,
  });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close();
  }
}

/**
 * Bounded heap: the whole stack shares a small machine; 1 GiB holds the 50,000-user benchmarks. Netty's per-byte
 * checks are off: the wire decoder reads each BSON byte through a buffer whose reference count and bounds Netty
 * would check every time (a tenth of the server's CPU samples under load), and the server frees what it reads.
 */
const jvmOptions = [
  '-Xms128m',
  '-Xmx1g',
  '-XX:+UseG1GC',
  '-XX:+ExitOnOutOfMemoryError',
  '-Djava.awt.headless=true',
  '-Dio.netty.buffer.checkAccessible=false',
  '-Dio.netty.buffer.checkBounds=false',
  '-Dio.netty.leakDetection.level=disabled',
];

export async function startMongoServer(
  stateDir: string,
  port: number,
  { jit = 'quick-start' }: { jit?: JitTier } = {},
): Promise<void> {
  const url = mongoUrl(port);
  const runningPid = findRunningPart(stateDir, 'mongo');
  if (runningPid !== undefined) {
    await waitForHealthy({ part: 'mongo', stateDir, pid: runningPid, timeoutMs: 30_000, check: () => pingMongo(url) });
    return;
  }
  if (!mongoServerProvisioned())
    throw new Error('the embedded MongoDB server is not provisioned yet: run `npx tsx tools/infra/cli.ts provision`');
  await assertPortFree(port, 'mongo');
  const { home } = partPaths(stateDir, 'mongo');
  ensureDir(home);
  const started = await spawnDetached({
    stateDir,
    part: 'mongo',
    command: javaCommand(),
    args: [
      ...jvmOptions,
      ...jitOptions(jit),
      // slf4j-simple: warnings and errors only, so the log stays readable.
      '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
      '-cp',
      `${mongoServerLibsDir()}/*:${mongoServerClassesDir()}`,
      launcherClass,
      '127.0.0.1',
      String(port),
      join(home, 'haven.mv.db'),
    ],
  });
  await waitForHealthy({
    part: 'mongo',
    stateDir,
    pid: started.pid,
    logOffset: started.logOffset,
    timeoutMs: 60_000,
    check: () => pingMongo(url, 1_000),
  });
}

/** SIGTERM lets the server write its store to disk; SIGKILL only if it hangs. */
export async function stopMongoServer(stateDir: string): Promise<boolean> {
  return stopPart(stateDir, 'mongo', 20_000);
}
