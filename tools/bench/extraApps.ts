/**
 * More of Haven's apps beside the stack's own, on the same servers: a second gateway (the outage figures' short
 * deadline), or a quote service and a gateway in front of it (sealing off, tools/bench/sealing.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { appEnv, apps, type AppName, type AppPorts, type AppsOptions } from '../dev/apps';
import { repoRoot } from '../infra';
import { eventually } from '../testing/eventually';

/**
 * `name` started with the stack's environment, its ports and env overridden by `ports` and `env` (its own port in
 * `ports`; a gateway's subgraphs by theirs), answering /readyz before it returns; its output goes to logs/.
 */
export async function startExtraApp(
  name: AppName,
  options: AppsOptions,
  extra: { ports: Partial<AppPorts>; env?: Record<string, string>; logName: string },
): Promise<{ url: string; child: ChildProcess }> {
  const app = apps.find((each) => each.name === name)!;
  const ports = { ...options.ports, ...extra.ports };
  const child = spawn(process.execPath, ['--import', 'tsx', app.entry], {
    cwd: repoRoot,
    env: { ...process.env, ...appEnv(name, { ...options, ports }), ...extra.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = createWriteStream(join(options.stateDir, 'logs', `${extra.logName}.log`), { flags: 'a' });
  child.stdout!.pipe(output);
  child.stderr!.pipe(output);
  const url = `http://127.0.0.1:${ports[name]}`;
  try {
    await eventually(
      `${extra.logName} answering /readyz`,
      async () => {
        if (child.exitCode !== null) throw new Error(`${extra.logName} exited with code ${child.exitCode}`);
        return (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) })).ok;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url, child };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolveStopped) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolveStopped();
    });
    child.kill('SIGTERM');
  });
}
