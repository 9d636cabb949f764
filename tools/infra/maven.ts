import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir, runCommand } from './process';

/**
 * The Java parts of the dev stack (Kafka, the embedded MongoDB-compatible server) are jars pinned by a
 * `pom.xml` in the repository and fetched from Maven Central into the cache; nothing else is downloaded.
 */
/**
 * How a local server's JVM compiles the code it runs. Tests and development run Kafka and the embedded database for
 * minutes on a small machine whose cores the test suite fills: there they stop at the first-tier compiler, because
 * the optimising one spends more CPU than it gives back in such a run (measured on four integration files: the two
 * servers used 37–41 s of CPU with it, 20 s without, and the files finished sooner). The bench, which measures
 * throughput over long runs, asks for the full compiler.
 */
export type JitTier = 'quick-start' | 'full';

export function jitOptions(tier: JitTier): string[] {
  return tier === 'quick-start' ? ['-XX:TieredStopAtLevel=1'] : [];
}

export function javaCommand(tool: 'java' | 'javac' = 'java'): string {
  return process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', tool) : tool;
}

export function fingerprintOf(files: string[], extra = ''): string {
  const hash = createHash('sha256').update(extra);
  for (const file of files) hash.update(readFileSync(file));
  return hash.digest('hex');
}

/** True when `stampFile` records `fingerprint` (the inputs of a finished fetch or build). */
export function stampMatches(stampFile: string, fingerprint: string): boolean {
  return existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === fingerprint;
}

export function writeStamp(stampFile: string, fingerprint: string): void {
  writeFileSync(stampFile, `${fingerprint}\n`);
}

export async function assertJava(part: string): Promise<void> {
  await runCommand(javaCommand(), ['-version'], { timeoutMs: 30_000 }).catch((error: unknown) => {
    throw new Error(`${part} needs Java 17 (set JAVA_HOME or put java on PATH): ${String(error)}`);
  });
}

/**
 * Copies the runtime dependencies of `pomFile` into `libsDir` (replacing it whole, so a half-finished
 * fetch is never mistaken for a finished one). Maven runs on a copy of the pom in the cache, so nothing
 * (target/, …) lands in the clone. Returns the jar file names.
 */
export async function fetchMavenJars(pomFile: string, home: string, libsDir: string): Promise<string[]> {
  const partialLibs = `${libsDir}.partial`;
  ensureDir(home);
  rmSync(partialLibs, { recursive: true, force: true });
  const pomCopy = join(home, 'pom.xml');
  cpSync(pomFile, pomCopy);
  await runCommand(
    'mvn',
    [
      '-q',
      '-B',
      '-Dstyle.color=never',
      '-f',
      pomCopy,
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${partialLibs}`,
    ],
    { timeoutMs: 15 * 60_000 },
  );
  const jars = readdirSync(partialLibs).filter((name) => name.endsWith('.jar'));
  rmSync(libsDir, { recursive: true, force: true });
  renameSync(partialLibs, libsDir);
  return jars;
}
