import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The three real servers the dev stack and integration tests run on loopback. */
export type PartName = 'mongo' | 'kafka' | 'maildev';
export const PART_NAMES: readonly PartName[] = ['mongo', 'kafka', 'maildev'];
/** A detached process of the dev stack: the three servers, and `make dev`'s trace viewer (no test needs it). */
export type ProcessPart = PartName | 'zipkin';

/** Root of the clone (this file lives in tools/infra/). */
export const repoRoot: string = resolve(__dirname, '..', '..');

/** Folder of the pinned build inputs kept in the repo (pom.xml files, the database launcher). */
export const infraSourceDir: string = __dirname;

/**
 * Downloads and builds live outside the clone so every worktree shares them and
 * `git clean` never throws away a download.
 */
export function cacheDir(): string {
  const explicit = process.env.HAVEN_CACHE_DIR;
  if (explicit) return resolve(explicit);
  const userCache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(resolve(userCache), 'haven');
}

/** State used by `make dev`: data, pid files and logs (`.haven/` is git-ignored). */
export const defaultDevStateDir: string = join(repoRoot, '.haven', 'dev');

/** Where one part keeps its files inside a state folder. */
export interface PartPaths {
  /** `<state>/<part>/`: the part's data and generated config; also the marker that identifies its process. */
  home: string;
  pidFile: string;
  logFile: string;
}

export function partPaths(stateDir: string, part: ProcessPart): PartPaths {
  const state = resolve(stateDir);
  return {
    home: join(state, part),
    pidFile: join(state, `${part}.pid`),
    logFile: join(state, 'logs', `${part}.log`),
  };
}

/** Ports of the last start, so `startKafka(stateDir)` and `status` need only the folder. */
export function portsFile(stateDir: string): string {
  return join(resolve(stateDir), 'ports.json');
}
