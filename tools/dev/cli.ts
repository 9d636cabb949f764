/**
 * `make dev`: provisions what is missing, starts the database, Kafka, the mail catcher and the trace
 * viewer (Zipkin), then the five services, the gateway and Vite, and prints the URLs.
 * Ctrl-C stops Haven's processes; `make down` stops the infrastructure too.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { DEV_PORTS, defaultDevStateDir, provision, repoRoot, startInfra, stopInfra } from '../infra';
import { provisionZipkin, startZipkin, stopZipkin, ZIPKIN_DEV_PORT, zipkinSpansUrl, zipkinUrl } from '../infra/zipkin';
import { devAppPorts, startApps } from './apps';
import { ensureDevKeys } from './keys';

const webPort = 5173;

async function up(): Promise<void> {
  const started = Date.now();
  const stateDir = defaultDevStateDir;
  console.log('Provisioning (the first run fetches the database, Kafka and Zipkin jars; later runs reuse the cache)…');
  await provision((line) => console.log(`  ${line}`));
  console.log('Starting the database, Kafka and the mail catcher…');
  const infra = await startInfra(stateDir, DEV_PORTS);
  const traces = await startTraceViewer(stateDir);
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
    env: traces.env,
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
  traces        ${traces.url}
Ctrl-C stops Haven; \`make down\` also stops the database, Kafka, the mail catcher and the trace viewer.
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

/**
 * Zipkin, and the services' settings to send it their spans. Haven runs without it when it cannot start (the
 * first download failed, the port is taken): a viewer is a help, not a part of the app.
 */
async function startTraceViewer(stateDir: string): Promise<{ url: string; env: Record<string, string> }> {
  try {
    await provisionZipkin((line) => console.log(`  ${line}`));
    await startZipkin(stateDir, ZIPKIN_DEV_PORT);
    return {
      url: zipkinUrl(ZIPKIN_DEV_PORT),
      env: { OTEL_TRACES_EXPORTER: 'zipkin', OTEL_EXPORTER_ZIPKIN_ENDPOINT: zipkinSpansUrl(ZIPKIN_DEV_PORT) },
    };
  } catch (error) {
    console.error(`The trace viewer did not start, so Haven runs without traces: ${String(error)}`);
    return { url: '(not running: see above)', env: {} };
  }
}

async function main(): Promise<void> {
  const command = process.argv[2] ?? 'up';
  if (command === 'up') return up();
  if (command === 'down') {
    await stopZipkin(defaultDevStateDir);
    return stopInfra(defaultDevStateDir);
  }
  throw new Error(`unknown command "${command}" (up | down)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
