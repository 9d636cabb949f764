/**
 * `make dev`: provisions what is missing, starts the database, Kafka and the mail
 * catcher, then the five services, the gateway and Vite, and prints the URLs.
 * Ctrl-C stops Haven's processes; `make down` stops the infrastructure too.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { DEV_PORTS, defaultDevStateDir, provision, repoRoot, startInfra, stopInfra } from '../infra';
import { devAppPorts, startApps } from './apps';
import { ensureDevKeys } from './keys';

const webPort = 5173;

async function up(): Promise<void> {
  const started = Date.now();
  const stateDir = defaultDevStateDir;
  console.log('Provisioning (the first run fetches the database and Kafka jars; later runs reuse the cache)…');
  await provision((line) => console.log(`  ${line}`));
  console.log('Starting the database, Kafka and the mail catcher…');
  const infra = await startInfra(stateDir, DEV_PORTS);
  const keys = ensureDevKeys(stateDir);
  const appUrl = `http://localhost:${webPort}`;
  console.log('Starting the services and the gateway…');
  const running = await startApps({
    stateDir,
    infra,
    keys,
    ports: devAppPorts,
    appUrl,
    output: 'terminal',
    restartCrashed: true,
  });
  const viteCli = join(dirname(require.resolve('vite/package.json', { paths: [`${repoRoot}/web`] })), 'bin', 'vite.js');
  const vite = spawn(process.execPath, [viteCli, '--port', String(webPort), '--strictPort'], {
    cwd: `${repoRoot}/web`,
    env: { ...process.env, HAVEN_GATEWAY_URL: running.gatewayUrl },
    stdio: 'inherit',
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`
Haven is up (${seconds} s):
  app           ${appUrl}
  gateway       ${running.gatewayUrl}  (GraphQL at /graphql, REST at /api)
  mail inbox    ${infra.mailWebUrl}
Ctrl-C stops Haven; \`make down\` also stops the database, Kafka and the mail catcher.
`);
  const shutdown = (code: number) => {
    vite.kill('SIGTERM');
    void running.stop().then(() => process.exit(code));
  };
  vite.once('exit', (code) => {
    if (code) {
      console.error(`Vite exited with code ${code}; stopping Haven.`);
      shutdown(1);
    }
  });
  process.once('SIGINT', () => shutdown(0));
  process.once('SIGTERM', () => shutdown(0));
}

async function main(): Promise<void> {
  const command = process.argv[2] ?? 'up';
  if (command === 'up') return up();
  if (command === 'down') return stopInfra(defaultDevStateDir);
  throw new Error(`unknown command "${command}" (up | down)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
