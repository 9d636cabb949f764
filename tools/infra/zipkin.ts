/**
 * `make dev`'s trace viewer: Zipkin's server (its jar carries the UI), fetched from Maven Central into the cache
 * like Kafka's jars, and run on loopback with spans kept in memory. The services send it their spans in Zipkin's
 * format (OTEL_TRACES_EXPORTER=zipkin, see services/platform/src/tracing.ts): its OpenTelemetry collector is a
 * separate module that Maven Central does not serve.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertJava, fetchMavenJars, fingerprintOf, javaCommand, jitOptions, stampMatches, writeStamp } from './maven';
import { cacheDir, infraSourceDir, partPaths } from './paths';
import {
  assertPortFree,
  ensureDir,
  findRunningPart,
  spawnDetached,
  stopPart,
  waitForHealthy,
  withFileLock,
} from './process';

/** Zipkin's own port, so its usual address works. */
export const ZIPKIN_DEV_PORT = 9411;

const pomFile = join(infraSourceDir, 'zipkin', 'pom.xml');

export function zipkinVersion(): string {
  const match = /<zipkin\.version>([^<]+)<\/zipkin\.version>/.exec(readFileSync(pomFile, 'utf8'));
  if (!match?.[1]) throw new Error(`no <zipkin.version> in ${pomFile}`);
  return match[1].trim();
}

function zipkinHome(): string {
  return join(cacheDir(), `zipkin-${zipkinVersion()}`);
}

function zipkinJar(): string {
  return join(zipkinHome(), 'libs', `zipkin-server-${zipkinVersion()}-exec.jar`);
}

function stampFile(): string {
  return join(zipkinHome(), 'libs.stamp');
}

export function zipkinProvisioned(): boolean {
  return stampMatches(stampFile(), fingerprintOf([pomFile]));
}

/** The viewer's UI. */
export function zipkinUrl(port: number): string {
  return `http://localhost:${port}/zipkin/`;
}

/** Where the services send their spans. */
export function zipkinSpansUrl(port: number): string {
  return `http://127.0.0.1:${port}/api/v2/spans`;
}

/** Fetches Zipkin's server jar (≈ 130 MB) into `<cache>/zipkin-<version>/libs` unless already there. */
export async function provisionZipkin(log: (line: string) => void): Promise<void> {
  if (zipkinProvisioned()) return;
  await withFileLock(join(cacheDir(), 'locks', 'zipkin'), 15 * 60_000, async () => {
    if (zipkinProvisioned()) return;
    const started = Date.now();
    log(`zipkin    fetching ${zipkinVersion()} from Maven Central (first time only, ≈ 130 MB)…`);
    await assertJava('Zipkin');
    const jars = await fetchMavenJars(pomFile, zipkinHome(), join(zipkinHome(), 'libs'));
    if (!jars.includes(`zipkin-server-${zipkinVersion()}-exec.jar`))
      throw new Error(`Maven fetched no zipkin-server exec jar into ${join(zipkinHome(), 'libs')}`);
    writeStamp(stampFile(), fingerprintOf([pomFile]));
    log(`zipkin    fetched in ${((Date.now() - started) / 1000).toFixed(1)} s → ${zipkinJar()}`);
  });
}

/** Healthy means the server's own check says UP. */
export async function checkZipkin(port: number, timeoutMs = 2_000): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`GET /health answered ${response.status}`);
  const health = (await response.json()) as { status?: string };
  if (health.status !== 'UP') throw new Error(`Zipkin reports ${String(health.status)}`);
}

/** Starts Zipkin (unless this state folder's is already running) and waits until it answers. */
export async function startZipkin(stateDir: string, port = ZIPKIN_DEV_PORT): Promise<void> {
  const runningPid = findRunningPart(stateDir, 'zipkin');
  if (runningPid !== undefined) {
    await waitForHealthy({
      part: 'zipkin',
      stateDir,
      pid: runningPid,
      timeoutMs: 60_000,
      check: () => checkZipkin(port),
    });
    return;
  }
  await assertPortFree(port, 'Zipkin');
  const { home } = partPaths(stateDir, 'zipkin');
  const tmp = join(home, 'tmp');
  ensureDir(tmp);
  const started = await spawnDetached({
    stateDir,
    part: 'zipkin',
    command: javaCommand(),
    args: [
      '-Xms64m',
      '-Xmx384m',
      '-XX:+ExitOnOutOfMemoryError',
      ...jitOptions('quick-start'),
      // Names the state folder on the command line: how a later run recognises this process as its own.
      `-Djava.io.tmpdir=${tmp}`,
      '-jar',
      zipkinJar(),
      // Loopback only, like the rest of the dev stack (the whole entry: a list entry is replaced, not merged).
      `--armeria.ports[0].port=${port}`,
      '--armeria.ports[0].ip=127.0.0.1',
      '--armeria.ports[0].protocols[0]=http',
    ],
    // Spans in memory, bounded: a development session's traces, gone when Zipkin stops.
    env: { ...process.env, STORAGE_TYPE: 'mem', MEM_MAX_SPANS: '200000', SELF_TRACING_ENABLED: 'false' },
  });
  await waitForHealthy({
    part: 'zipkin',
    stateDir,
    pid: started.pid,
    logOffset: started.logOffset,
    timeoutMs: 120_000,
    check: () => checkZipkin(port, 1_000),
  });
}

export async function stopZipkin(stateDir: string): Promise<boolean> {
  return stopPart(stateDir, 'zipkin', 10_000);
}
