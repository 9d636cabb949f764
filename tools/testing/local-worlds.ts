/**
 * Where each jest worker's local servers keep their state, and how to stop them all: used by the global
 * setup and teardown, and by the orphan reaper after a jest process that died without its teardown.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { stopInfra } from '../infra/index';

const worldPattern = /^world-\d+$/;

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
