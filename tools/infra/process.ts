import { spawn, execFile } from 'node:child_process';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { partPaths, type ProcessPart } from './paths';

export { sleep };

export function ensureDir(path: string): void {
  mkdirSync(path, { recursive: true });
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const hasProcFs = existsSync('/proc/self/stat');

/** Status letter and command line of a process, or undefined when it does not exist. */
function describeProcess(pid: number): { state: string; commandLine: string } | undefined {
  if (hasProcFs) {
    try {
      // Linux: arguments are NUL-separated; the state letter follows the "(comm)" field.
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const afterComm = stat.lastIndexOf(')') + 2;
      return { state: stat.slice(afterComm, afterComm + 1), commandLine };
    } catch {
      return undefined;
    }
  }
  // No /proc (macOS): signal 0 tells whether it exists; its command line is not checked ('').
  try {
    process.kill(pid, 0);
    return { state: 'R', commandLine: '' };
  } catch {
    return undefined;
  }
}

/** True when the process exists and is not a zombie waiting to be reaped. */
export function isProcessAlive(pid: number): boolean {
  const described = describeProcess(pid);
  return described !== undefined && described.state !== 'Z';
}

function readRecordedPid(pidFile: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(pidFile, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pid of the part's process when it is alive. A pid file whose process is gone, or whose
 * pid now belongs to an unrelated process (pids are reused), is stale: it is removed.
 * Every part's command line names its home folder, which is how we recognise our own process.
 */
export function findRunningPart(stateDir: string, part: ProcessPart): number | undefined {
  const { pidFile, home } = partPaths(stateDir, part);
  const pid = readRecordedPid(pidFile);
  if (pid === undefined) {
    rmSync(pidFile, { force: true });
    return undefined;
  }
  const described = describeProcess(pid);
  const ours =
    described !== undefined &&
    described.state !== 'Z' &&
    (described.commandLine === '' || described.commandLine.includes(home));
  if (!ours) {
    rmSync(pidFile, { force: true });
    return undefined;
  }
  return pid;
}

export interface DetachedSpawn {
  stateDir: string;
  part: ProcessPart;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface StartedProcess {
  pid: number;
  /** Byte offset of this run's first log line, so errors show this run's output only. */
  logOffset: number;
}

/**
 * Starts a part in its own session (it survives the CLI that started it), with stdout and
 * stderr appended to `<state>/logs/<part>.log` and its pid written to `<state>/<part>.pid`.
 */
export async function spawnDetached(options: DetachedSpawn): Promise<StartedProcess> {
  const { pidFile, logFile, home } = partPaths(options.stateDir, options.part);
  ensureDir(dirname(logFile));
  ensureDir(home);
  const logFd = openSync(logFile, 'a');
  let child;
  let logOffset: number;
  try {
    logOffset = fstatSync(logFd).size;
    writeSync(
      logFd,
      `\n=== ${new Date().toISOString()} starting ${options.part}: ${options.command} ${options.args.join(' ')}\n`,
    );
    child = spawn(options.command, options.args, {
      cwd: options.cwd ?? home,
      env: options.env ?? process.env,
      detached: true,
      stdio: ['ignore', logFd, logFd],
    });
  } finally {
    closeSync(logFd);
  }
  const pid = child.pid;
  if (pid === undefined) {
    const spawnError = await new Promise<Error>((resolveError) => child.once('error', resolveError));
    throw new Error(`${options.part}: could not run ${options.command}: ${spawnError.message}`);
  }
  child.on('error', () => undefined);
  child.unref();
  const temporary = `${pidFile}.${process.pid}.tmp`;
  writeFileSync(temporary, `${pid}\n`);
  renameSync(temporary, pidFile);
  return { pid, logOffset };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // Detached children lead their own process group; signalling the group also reaches helpers they fork.
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isProcessAlive(pid)) return true;
    await sleep(100);
  }
  return !isProcessAlive(pid);
}

/**
 * Stops the part's recorded process: SIGTERM, then SIGKILL after `graceMs`.
 * Returns false when nothing was running. The pid file is removed either way.
 */
export async function stopPart(stateDir: string, part: ProcessPart, graceMs: number): Promise<boolean> {
  const { pidFile } = partPaths(stateDir, part);
  const pid = findRunningPart(stateDir, part);
  if (pid === undefined) return false;
  signalGroup(pid, 'SIGTERM');
  if (!(await waitForExit(pid, graceMs))) {
    signalGroup(pid, 'SIGKILL');
    if (!(await waitForExit(pid, 5_000))) throw new Error(`${part}: pid ${pid} survived SIGKILL`);
  }
  rmSync(pidFile, { force: true });
  return true;
}

/** The last `lineCount` lines written to a log since `fromOffset`. */
export function logTail(logFile: string, fromOffset = 0, lineCount = 40): string {
  try {
    const size = statSync(logFile).size;
    const start = Math.max(fromOffset, size - 64 * 1024);
    const length = size - start;
    if (length <= 0) return '(log is empty)';
    const buffer = Buffer.alloc(length);
    const fd = openSync(logFile, 'r');
    try {
      readSync(fd, buffer, 0, length, start);
    } finally {
      closeSync(fd);
    }
    const lines = buffer.toString('utf8').trimEnd().split('\n');
    return lines.slice(-lineCount).join('\n');
  } catch {
    return '(no log)';
  }
}

export interface HealthWait {
  part: ProcessPart;
  stateDir: string;
  /** Pid being waited on; the wait fails at once when it exits. */
  pid: number;
  logOffset?: number;
  timeoutMs: number;
  /** Resolves when healthy; throws (with a reason) when not yet. */
  check: () => Promise<void>;
}

/** Polls the part's health check until it passes, failing with the reason and the log's last lines. */
export async function waitForHealthy(wait: HealthWait): Promise<void> {
  const { logFile } = partPaths(wait.stateDir, wait.part);
  const deadline = Date.now() + wait.timeoutMs;
  let lastReason = 'no check ran';
  for (;;) {
    try {
      await wait.check();
      return;
    } catch (error) {
      lastReason = errorMessage(error);
    }
    if (!isProcessAlive(wait.pid)) {
      throw new Error(
        `${wait.part} exited during start-up (pid ${wait.pid}); last lines of ${logFile}:\n${logTail(logFile, wait.logOffset)}`,
      );
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `${wait.part} not healthy after ${Math.round(wait.timeoutMs / 1000)} s (${lastReason}); ` +
          `last lines of ${logFile}:\n${logTail(logFile, wait.logOffset)}`,
      );
    }
    await sleep(250);
  }
}

/** Fails with a clear message when something else already listens on the port. */
export async function assertPortFree(port: number, usage: string): Promise<void> {
  await new Promise<void>((resolveFree, rejectBusy) => {
    const server = createServer();
    server.once('error', (error) => {
      rejectBusy(
        new Error(
          errorCode(error) === 'EADDRINUSE'
            ? `port ${port} (${usage}) is already in use by another process`
            : `port ${port} (${usage}): ${errorMessage(error)}`,
        ),
      );
    });
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolveFree()));
  });
}

export interface CommandResult {
  stdout: string;
  stderr: string;
}

/** Runs a tool to completion; a failure carries the command and the end of its output. */
export async function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<CommandResult> {
  return new Promise((resolveResult, rejectResult) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const output = `${stdout}\n${stderr}`.trim().split('\n').slice(-30).join('\n');
          const reason =
            errorCode(error) === 'ENOENT'
              ? `${command} is not installed (not found on PATH)`
              : error.message.split('\n')[0];
          rejectResult(new Error(`${command} ${args.join(' ')} failed: ${reason}\n${output}`));
          return;
        }
        resolveResult({ stdout, stderr });
      },
    );
  });
}

/**
 * Serialises provisioning across processes (`make dev` and a test run may start together).
 * The lock is a folder holding the owner's pid; a lock whose owner is dead is taken over.
 */
export async function withFileLock<T>(lockDir: string, timeoutMs: number, action: () => Promise<T>): Promise<T> {
  ensureDir(dirname(lockDir));
  const ownerFile = `${lockDir}/owner`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(ownerFile, `${process.pid}\n`);
      break;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      const owner = readRecordedPid(ownerFile);
      // No owner file yet means another process is between mkdir and write: give it a moment.
      const ownerGone = owner !== undefined && !isProcessAlive(owner);
      if (ownerGone) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() >= deadline)
        throw new Error(`timed out waiting for lock ${lockDir} (held by pid ${owner ?? '?'})`);
      await sleep(500);
    }
  }
  try {
    return await action();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
