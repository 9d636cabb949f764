import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  gatewayEntry,
  localGraphqlUrl,
  serviceCatalog,
  serviceUrlVariable,
  type ServiceName,
} from '../../services/platform/src/catalog'; // the file, not @haven/platform: keeps the launcher light
import { repoRoot, type InfraEndpoints } from '../infra';
import type { KeyFiles } from './keys';
import { prettyFactory } from 'pino-pretty';

export type AppName = ServiceName | typeof gatewayEntry.name;

/** Haven's own processes (the catalog's services, then the gateway), with their development ports. */
export const apps: ReadonlyArray<{ name: AppName; entry: string; port: number }> = [
  ...serviceCatalog,
  gatewayEntry,
].map(({ name, dir, port }) => ({ name, entry: `${dir}/src/main.ts`, port }));

export type AppPorts = Record<AppName, number>;

export const devAppPorts: AppPorts = Object.fromEntries(apps.map((app) => [app.name, app.port])) as AppPorts;

export interface AppsOptions {
  stateDir: string;
  infra: InfraEndpoints;
  keys: KeyFiles;
  ports: AppPorts;
  /** The address people open (links in e-mails, the allowed origin for CSRF checks). */
  appUrl: string;
  /** Extra environment for every app (LOG_LEVEL, RATE_LIMIT_AUTH_MAX, …). */
  env?: Record<string, string>;
  /** Where app output goes: the terminal (make dev) or a log file per app (tests). */
  output: 'terminal' | 'files';
  /** Start a crashed app again, with back-off, and say so (make dev); tests leave a crash visible. */
  restartCrashed?: boolean;
  /** Where the supervisor says what it did (a crash, a restart); the terminal's stderr by default. */
  say?: (line: string) => void;
  /** How long each app may take to answer /readyz (a minute; tests beside other tests give more). */
  readyTimeoutMs?: number;
}

export interface RunningApps {
  gatewayUrl: string;
  /** The process id of an app as it runs now (after a restart, the new one). */
  pidOf(name: AppName): number | undefined;
  stop(): Promise<void>;
}

/** The environment each app reads; see docs/configuration.md. */
export function appEnv(name: AppName, options: AppsOptions): Record<string, string> {
  const { infra, keys, ports } = options;
  const common: Record<string, string> = {
    NODE_ENV: 'development',
    PORT: String(ports[name]),
    MONGO_URL: infra.mongoUrl,
    KAFKA_BROKERS: infra.kafkaBrokers.join(','),
    JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
    SUBGRAPH_SECRET_FILE: keys.subgraphSecretFile,
    APP_URL: options.appUrl,
  };
  // The services' own credential opens their internal operations; the gateway never holds it.
  const serviceSecret: Record<string, string> =
    name === 'gateway' ? {} : { SERVICE_SECRET_FILE: keys.serviceSecretFile };
  // Services other than user ask it for callers' roles; the gateway reaches every subgraph.
  const userServiceUrl = localGraphqlUrl(ports.user);
  const specific: Partial<Record<AppName, Record<string, string>>> = {
    // Paid operations confirm a denial with billing (platform entitlements.ts).
    quote: { USER_SERVICE_URL: userServiceUrl, BILLING_SERVICE_URL: localGraphqlUrl(ports.billing) },
    billing: { USER_SERVICE_URL: userServiceUrl },
    user: { JWT_PRIVATE_KEY_FILE: keys.privateKeyFile },
    notification: { SMTP_HOST: infra.smtpHost, SMTP_PORT: String(infra.smtpPort), USER_SERVICE_URL: userServiceUrl },
    // Account deletion: billing closes the payments and the user service the account before it answers;
    // an admin reading another user's cookie choice: compliance asks the user service for the role.
    compliance: { USER_SERVICE_URL: userServiceUrl, BILLING_SERVICE_URL: localGraphqlUrl(ports.billing) },
    gateway: {
      ...Object.fromEntries(
        serviceCatalog.map(({ name: service }) => [serviceUrlVariable(service), localGraphqlUrl(ports[service])]),
      ),
      WEB_DIST_DIR: join(repoRoot, 'web', 'dist'),
    },
  };
  return { ...common, ...serviceSecret, ...specific[name], ...options.env };
}

async function waitHealthy(name: string, url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} while starting`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      // A service is settled once its consumers have joined too (`events`; the gateway has none).
      if (response.ok && ((await response.json()) as { events?: boolean }).events !== false) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`${name} was not ready at ${url} within ${timeoutMs} ms`);
}

/**
 * Turns an app's output into terminal lines: pino's JSON made readable (coloured on a terminal, with
 * pino-pretty) in development; anything else passed through. The apps themselves always log JSON.
 */
export function terminalLines(name: string): (chunk: Buffer) => string {
  const pretty = prettyFactory({
    colorize: Boolean(process.stdout.isTTY) && !process.env.CI,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
  let partial = '';
  return (chunk) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    return lines
      .filter(Boolean)
      .map((line) => {
        const shown = line.startsWith('{') ? pretty(line).trimEnd() : line;
        return shown
          .split('\n')
          .map((part) => `${name.padEnd(12)} | ${part}\n`)
          .join('');
      })
      .join('');
  };
}

/** Back-off before the n-th restart in a row: 1 s, 2 s, 4 s … at most 30 s. */
export function restartDelayMs(restartsInARow: number): number {
  return Math.min(30_000, 1_000 * 2 ** restartsInARow);
}

/** Starts the five services and the gateway as processes, each healthy before it returns. */
export async function startApps(options: AppsOptions): Promise<RunningApps> {
  const logDir = join(options.stateDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const children: Array<{ name: string; child: ChildProcess }> = [];
  // If the launcher dies without stopping them (an error, a second Ctrl-C), take the apps along.
  const killAll = () => children.forEach(({ child }) => child.kill('SIGKILL'));
  process.once('exit', killAll);
  const stop = async () => {
    stopping = true;
    process.removeListener('exit', killAll);
    await Promise.all(
      children.reverse().map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
            child.once('exit', () => {
              clearTimeout(killer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  };
  let stopping = false;
  const say = options.say ?? ((line: string) => console.error(line));
  const launch = (app: (typeof apps)[number], restartsInARow: number): ChildProcess => {
    const child = spawn(process.execPath, ['--import', 'tsx', app.entry], {
      cwd: repoRoot,
      env: { ...process.env, ...appEnv(app.name, options) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const entry = children.find((each) => each.name === app.name);
    if (entry) entry.child = child;
    else children.push({ name: app.name, child });
    if (options.output === 'files') {
      const log = createWriteStream(join(logDir, `${app.name}.log`), { flags: 'a' });
      child.stdout!.pipe(log);
      child.stderr!.pipe(log);
    } else {
      const out = terminalLines(app.name);
      const err = terminalLines(app.name);
      child.stdout!.on('data', (chunk: Buffer) => process.stdout.write(out(chunk)));
      child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(err(chunk)));
    }
    const startedAt = Date.now();
    child.once('exit', (code, signal) => {
      if (stopping || !options.restartCrashed) return;
      // A run that lasted a minute was healthy: the back-off starts again from the beginning.
      const inARow = Date.now() - startedAt > 60_000 ? 0 : restartsInARow;
      const delay = restartDelayMs(inARow);
      say(`${app.name.padEnd(12)} | exited (${signal ?? `code ${code}`}); restarting in ${delay / 1000} s`);
      setTimeout(() => {
        if (stopping) return;
        const again = launch(app, inARow + 1);
        waitHealthy(app.name, `http://127.0.0.1:${options.ports[app.name]}/readyz`, again, 60_000).then(
          () => say(`${app.name.padEnd(12)} | restarted and ready`),
          (error: unknown) => say(`${app.name.padEnd(12)} | restart failed: ${String(error)}`),
        );
      }, delay).unref();
    });
    return child;
  };
  try {
    await Promise.all(
      apps.map(async (app) => {
        const child = launch(app, 0);
        await waitHealthy(
          app.name,
          `http://127.0.0.1:${options.ports[app.name]}/readyz`,
          child,
          options.readyTimeoutMs ?? 60_000,
        );
      }),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const pidOf = (name: AppName) => children.find((each) => each.name === name)?.child.pid;
  return { gatewayUrl: `http://localhost:${options.ports.gateway}`, pidOf, stop };
}
