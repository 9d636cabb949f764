import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mongoose from 'mongoose';
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

export const FERRETDB_VERSION = 'v1.24.2';
const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';
/** The pinned wrapper module (go.mod, go.sum, tools.go) that fixes FerretDB and all its dependencies. */
const wrapperDir = join(infraSourceDir, 'ferretdb');
const wrapperFiles = ['go.mod', 'go.sum', 'tools.go'] as const;
/** Only the SQLite backend is used; leaving PostgreSQL out makes a smaller binary. */
const buildTags = 'ferretdb_no_postgresql';

export function ferretdbBinary(): string {
  return join(cacheDir(), 'bin', 'ferretdb');
}

/** Identifies the build inputs, so a changed go.mod/go.sum triggers a rebuild. */
function buildFingerprint(): string {
  const hash = createHash('sha256').update(`${FERRETDB_VERSION}\n${buildTags}\n`);
  for (const file of wrapperFiles) hash.update(readFileSync(join(wrapperDir, file)));
  return hash.digest('hex');
}

function stampFile(): string {
  return `${ferretdbBinary()}.stamp`;
}

export function ferretdbProvisioned(): boolean {
  return (
    existsSync(ferretdbBinary()) &&
    existsSync(stampFile()) &&
    readFileSync(stampFile(), 'utf8').trim() === buildFingerprint()
  );
}

/**
 * Builds FerretDB into `<cache>/bin/ferretdb` unless that exact build is already there.
 *
 * `go install …/cmd/ferretdb@v1.24.2` cannot be used: the module proxy here refuses the
 * deprecation lookup it makes. Building from inside the pinned wrapper module works, but then
 * FerretDB is the main module without its generated build/version/version.txt and panics at
 * start-up; so the verified module source is copied, version.txt written into it, and the
 * wrapper points at that copy with a `replace`.
 */
export async function provisionFerretdb(log: (line: string) => void): Promise<void> {
  if (ferretdbProvisioned()) return;
  await withFileLock(join(cacheDir(), 'locks', 'ferretdb'), 15 * 60_000, async () => {
    if (ferretdbProvisioned()) return;
    log(`ferretdb  building ${FERRETDB_VERSION} with Go (first time only, about 1–2 minutes)…`);
    const started = Date.now();
    const buildDir = join(cacheDir(), 'build', `ferretdb-${FERRETDB_VERSION}`);
    const wrapperCopy = join(buildDir, 'wrapper');
    const sourceCopy = join(buildDir, 'src');
    rmSync(buildDir, { recursive: true, force: true });
    ensureDir(wrapperCopy);
    for (const file of wrapperFiles) cpSync(join(wrapperDir, file), join(wrapperCopy, file));

    const goEnv: NodeJS.ProcessEnv = {
      ...process.env,
      // Pure-Go SQLite driver: a static binary, no C toolchain needed.
      CGO_ENABLED: '0',
      // go.sum in the copy may gain lines for the replaced module's own requirements; the repo's stays untouched.
      GOFLAGS: `${process.env.GOFLAGS ?? ''} -mod=mod`.trim(),
    };
    const downloaded = await runCommand('go', ['mod', 'download', '-json', FERRETDB_MODULE], {
      cwd: wrapperCopy,
      env: goEnv,
      timeoutMs: 10 * 60_000,
    });
    const moduleDir = parseModuleDir(downloaded.stdout);
    cpSync(moduleDir, sourceCopy, { recursive: true });
    makeWritable(sourceCopy);
    writeFileSync(join(sourceCopy, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
    await runCommand('go', ['mod', 'edit', `-replace=${FERRETDB_MODULE}=../src`], {
      cwd: wrapperCopy,
      env: goEnv,
      timeoutMs: 60_000,
    });

    const buildBin = join(buildDir, 'bin');
    await runCommand('go', ['install', `-tags=${buildTags}`, `${FERRETDB_MODULE}/cmd/ferretdb`], {
      cwd: wrapperCopy,
      env: { ...goEnv, GOBIN: buildBin },
      timeoutMs: 20 * 60_000,
    });
    const version = await runCommand(join(buildBin, 'ferretdb'), ['--version'], { timeoutMs: 30_000 });
    if (!version.stdout.includes(`version: ${FERRETDB_VERSION}`)) {
      throw new Error(`built ferretdb reports an unexpected version:\n${version.stdout}`);
    }
    ensureDir(join(cacheDir(), 'bin'));
    // Rename, so a half-written binary is never mistaken for a finished one.
    renameSync(join(buildBin, 'ferretdb'), ferretdbBinary());
    writeFileSync(stampFile(), `${buildFingerprint()}\n`);
    rmSync(buildDir, { recursive: true, force: true });
    log(`ferretdb  built in ${((Date.now() - started) / 1000).toFixed(1)} s → ${ferretdbBinary()}`);
  });
}

function parseModuleDir(goModDownloadJson: string): string {
  const parsed: unknown = JSON.parse(goModDownloadJson);
  if (typeof parsed === 'object' && parsed !== null && 'Dir' in parsed && typeof parsed.Dir === 'string')
    return parsed.Dir;
  throw new Error(`go mod download gave no module folder:\n${goModDownloadJson}`);
}

/** The Go module cache is read-only; the copy must accept version.txt. */
function makeWritable(folder: string): void {
  chmodSync(folder, 0o755);
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
  }
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

export async function startFerretdb(stateDir: string, port: number): Promise<void> {
  const runningPid = findRunningPart(stateDir, 'ferretdb');
  if (runningPid !== undefined) {
    await waitForHealthy({
      part: 'ferretdb',
      stateDir,
      pid: runningPid,
      timeoutMs: 15_000,
      check: () => pingMongo(mongoUrl(port)),
    });
    return;
  }
  if (!ferretdbProvisioned()) throw new Error('ferretdb is not built yet: run `npx tsx tools/infra/cli.ts provision`');
  await assertPortFree(port, 'ferretdb');
  const { home } = partPaths(stateDir, 'ferretdb');
  const dataDir = join(home, 'data');
  ensureDir(dataDir);
  const started = await spawnDetached({
    stateDir,
    part: 'ferretdb',
    command: ferretdbBinary(),
    args: [
      '--handler=sqlite',
      `--sqlite-url=file:${dataDir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${home}`,
      // '-' disables the debug/metrics HTTP listener, which would otherwise claim 127.0.0.1:8088.
      '--debug-addr=-',
      '--telemetry=disable',
      // Not 'warn': FerretDB logs every error reply there, e.g. one 20-line block per driver close (no endSessions).
      '--log-level=error',
    ],
  });
  await waitForHealthy({
    part: 'ferretdb',
    stateDir,
    pid: started.pid,
    logOffset: started.logOffset,
    timeoutMs: 30_000,
    check: () => pingMongo(mongoUrl(port), 1_000),
  });
}

export async function stopFerretdb(stateDir: string): Promise<boolean> {
  return stopPart(stateDir, 'ferretdb', 10_000);
}
