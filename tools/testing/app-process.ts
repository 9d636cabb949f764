/**
 * One of Haven's apps (a service or the gateway) started as its own OS process, the way a deployment starts it
 * (`node --import tsx <app>/src/main.ts`), with the environment of a test Haven's copy: a second replica, or a
 * service a test kills with a signal and starts again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../infra';
import { eventually } from './eventually';

export interface AppProcess {
  url: string;
  /** Sends a signal and waits for the process to exit (SIGKILL: a crash, no goodbye). */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s; nothing when it has exited. */
  stop(): Promise<void>;
}

/** Starts `<app>/src/main.ts` on `port` with `env`, resolving once it answers `/readyz` (it fails if the process exits first). */
export async function startAppProcess(
  app: string,
  env: Readonly<Record<string, string>>,
  port: number,
): Promise<AppProcess> {
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(app, 'src', 'main.ts')], {
    cwd: repoRoot,
    // Warnings kept: they are what an early exit reports.
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: process.env.HAVEN_TEST_LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitedEarly = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`${app} exited (${signal ?? `code ${code}`}) before it was ready:\n${output}`)),
    ),
  );
  exitedEarly.catch(() => undefined); // after readiness an exit is the caller's business
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const kill = (signal: NodeJS.Signals) =>
    new Promise<void>((done) => {
      if (exited()) return done();
      child.once('exit', () => done());
      child.kill(signal);
    });
  try {
    await Promise.race([
      eventually(`${app} answering ${url}/readyz`, async () => (await fetch(`${url}/readyz`)).ok, {
        timeoutMs: 120_000,
        intervalMs: 250,
      }),
      exitedEarly,
    ]);
  } catch (error) {
    await kill('SIGKILL');
    throw error;
  }
  return {
    url,
    kill,
    stop: async () => {
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await kill('SIGTERM');
      clearTimeout(killer);
    },
  };
}
