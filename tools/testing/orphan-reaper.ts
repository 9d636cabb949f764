/**
 * Watches a jest process and, if it ends without its global teardown (Ctrl-C, kill -9, crash),
 * stops the local test servers it started (every world's) and removes their state folder. Started detached by
 * global-setup.ts:  node --import tsx tools/testing/orphan-reaper.ts <jest pid> <state dir>
 *
 * A separate process, because a dying jest cannot be relied on to run its own clean-up (a
 * signal listener in jest's process can even stop Ctrl-C from ending it).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive, sleep } from '../infra/process';
import { stopLocalWorlds } from './local-worlds';
import { KEEP_MARKER } from './test-env';

async function reap(ownerPid: number, stateDir: string): Promise<void> {
  for (;;) {
    // The teardown removed the folder: nothing left to do.
    if (!existsSync(stateDir)) return;
    if (!isProcessAlive(ownerPid)) break;
    await sleep(1_000);
  }
  await stopLocalWorlds(stateDir);
  if (!existsSync(join(stateDir, KEEP_MARKER))) rmSync(stateDir, { recursive: true, force: true });
}

const [ownerPidArgument, stateDir] = process.argv.slice(2);
const ownerPid = Number(ownerPidArgument);
if (!Number.isInteger(ownerPid) || ownerPid <= 0 || !stateDir) {
  console.error('usage: orphan-reaper.ts <owner pid> <state dir>');
  process.exit(2);
}
reap(ownerPid, stateDir).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
