import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { partPaths } from './paths';
import { assertPortFree, ensureDir, findRunningPart, spawnDetached, stopPart, waitForHealthy } from './process';

export interface MaildevPorts {
  smtp: number;
  web: number;
}

/** maildev is an npm dependency of tools/; nothing to download beyond `npm install`. */
export function maildevCli(): string {
  try {
    return join(dirname(require.resolve('maildev/package.json')), 'bin', 'maildev');
  } catch {
    throw new Error('maildev is not installed: run `npm install` at the repository root');
  }
}

export function maildevVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(require.resolve('maildev/package.json'), 'utf8'));
  return typeof manifest === 'object' &&
    manifest !== null &&
    'version' in manifest &&
    typeof manifest.version === 'string'
    ? manifest.version
    : 'unknown';
}

export function mailWebUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

function smtpAccepts(port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolveOpen, rejectClosed) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolveOpen();
    });
    socket.once('timeout', () => {
      socket.destroy();
      rejectClosed(new Error(`SMTP port ${port} timed out`));
    });
    socket.once('error', rejectClosed);
  });
}

/** Healthy means the web API answers /healthz and the SMTP port accepts connections. */
export async function checkMaildev(ports: MaildevPorts, timeoutMs = 2_000): Promise<void> {
  const response = await fetch(`${mailWebUrl(ports.web)}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`GET /healthz answered ${response.status}`);
  await smtpAccepts(ports.smtp, timeoutMs);
}

export async function startMaildev(stateDir: string, ports: MaildevPorts): Promise<void> {
  const runningPid = findRunningPart(stateDir, 'maildev');
  if (runningPid !== undefined) {
    await waitForHealthy({
      part: 'maildev',
      stateDir,
      pid: runningPid,
      timeoutMs: 15_000,
      check: () => checkMaildev(ports),
    });
    return;
  }
  const cli = maildevCli();
  await assertPortFree(ports.smtp, 'maildev SMTP');
  await assertPortFree(ports.web, 'maildev web');
  const mailDir = join(partPaths(stateDir, 'maildev').home, 'mail');
  ensureDir(mailDir);
  const started = await spawnDetached({
    stateDir,
    part: 'maildev',
    command: process.execPath,
    args: [
      cli,
      '--smtp',
      String(ports.smtp),
      '--web',
      String(ports.web),
      '--ip',
      '127.0.0.1',
      // Keep caught mail in the state folder (the default is a temp folder per process).
      '--mail-directory',
      mailDir,
    ],
  });
  await waitForHealthy({
    part: 'maildev',
    stateDir,
    pid: started.pid,
    logOffset: started.logOffset,
    timeoutMs: 30_000,
    check: () => checkMaildev(ports, 1_000),
  });
}

export async function stopMaildev(stateDir: string): Promise<boolean> {
  return stopPart(stateDir, 'maildev', 10_000);
}
