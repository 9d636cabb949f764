/** Jest globalTeardown: stops what global-setup.ts started and removes the run's state folder. */
import { rmSync } from 'node:fs';
import { stopContainers } from './containers';
import { stopLocalWorlds } from './local-worlds';
import { setupHandoff } from './global-setup';
import { TEST_ENV, keepTestState } from './test-env';

export default async function globalTeardown(): Promise<void> {
  // The kept servers of `make test-servers` stay up for the next run.
  if (process.env[TEST_ENV.infra] === 'running') return;
  const stateDir = process.env[TEST_ENV.stateDir];
  if (process.env[TEST_ENV.infra] === 'testcontainers') {
    await stopContainers(setupHandoff.havenTestContainers ?? []);
    setupHandoff.havenTestContainers = undefined;
  } else if (stateDir) {
    await stopLocalWorlds(stateDir);
  }
  if (stateDir && !keepTestState()) rmSync(stateDir, { recursive: true, force: true });
  else if (stateDir) console.log(`[haven test infra] kept ${stateDir} (data and logs)`);
}
