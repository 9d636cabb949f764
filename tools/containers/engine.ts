/**
 * The Docker engine Haven's container stage runs on: Debian's docker.io, started by us with its own
 * data root, exec root and socket, so it never meets another engine on the machine and its image
 * cache survives between runs (the warm path). Whoever starts it stops it (`stopEngine`), on failure too.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cacheDir, repoRoot } from '../infra/paths';

const runDir = process.env.HAVEN_DOCKER_RUN_DIR || '/run/haven-docker';
export const engine = {
  socket: join(runDir, 'docker.sock'),
  pidFile: join(runDir, 'dockerd.pid'),
  execRoot: join(runDir, 'exec'),
  dataRoot: process.env.HAVEN_DOCKER_DATA_ROOT || '/var/lib/haven-docker',
  logFile: join(repoRoot, '.haven', 'containers', 'dockerd.log'),
};

/** DOCKER_HOST of Haven's engine; HAVEN_DOCKER_HOST points the stage at an engine someone else runs. */
export function dockerHost(): string {
  return process.env.HAVEN_DOCKER_HOST || `unix://${engine.socket}`;
}

/** The environment every docker, compose and testcontainers call of the stage runs with. */
export function dockerEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DOCKER_HOST: dockerHost(),
    // The legacy builder: BuildKit would fetch its Dockerfile frontend from a registry.
    DOCKER_BUILDKIT: '0',
    // The resource reaper is an image pulled from Docker Hub; the stage stops its containers itself.
    TESTCONTAINERS_RYUK_DISABLED: 'true',
    ...extra,
  };
}

export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {},
): Promise<string> {
  return new Promise((resolveRun, rejectRun) => {
    execFile(
      command,
      args,
      {
        env: options.env ?? dockerEnv(),
        timeout: options.timeoutMs ?? 10 * 60_000,
        cwd: options.cwd ?? repoRoot,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) rejectRun(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stderr || stdout}`));
        else resolveRun(stdout);
      },
    );
  });
}

export async function engineAnswers(timeoutMs = 5_000): Promise<boolean> {
  return run('docker', ['info', '--format', '{{.ServerVersion}}'], { timeoutMs }).then(
    () => true,
    () => false,
  );
}

function commandExists(path: string): boolean {
  return existsSync(path);
}

/** Installs Debian's engine and mmdebstrap when missing (as `make install` installs Chromium). */
export async function installEngine(log: (line: string) => void): Promise<void> {
  if (commandExists('/usr/sbin/dockerd') && commandExists('/usr/bin/mmdebstrap')) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      'the container stage needs Debian docker.io and mmdebstrap: sudo apt-get install docker.io mmdebstrap',
    );
  log('engine    installing Debian docker.io and mmdebstrap (first time only)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'docker.io', 'mmdebstrap'], { env });
}

export interface RunningEngine {
  /** False when the engine was already up (someone else's to stop). */
  startedHere: boolean;
  pid?: number;
}

function enginePid(): number | undefined {
  if (!existsSync(engine.pidFile)) return undefined;
  const pid = Number(readFileSync(engine.pidFile, 'utf8').trim());
  if (!pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000} s`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));
  }
}

/** Starts dockerd unless it already answers; throws with the reason (and the log's tail) when it cannot. */
export async function startEngine(log: (line: string) => void): Promise<RunningEngine> {
  if (await engineAnswers()) return { startedHere: false, pid: enginePid() };
  if (process.env.HAVEN_DOCKER_HOST) throw new Error(`HAVEN_DOCKER_HOST=${dockerHost()} does not answer`);
  await installEngine(log);
  for (const dir of [runDir, engine.dataRoot, join(repoRoot, '.haven', 'containers')])
    mkdirSync(dir, { recursive: true });
  const logFd = openSync(engine.logFile, 'a');
  const started = Date.now();
  const dockerd = spawn(
    '/usr/sbin/dockerd',
    [
      `--data-root=${engine.dataRoot}`,
      `--exec-root=${engine.execRoot}`,
      `--pidfile=${engine.pidFile}`,
      `--host=unix://${engine.socket}`,
      // Its own containerd state under the exec root, not the machine's /run/containerd.
      '--log-level=warn',
    ],
    { detached: true, stdio: ['ignore', logFd, logFd] },
  );
  dockerd.unref();
  let exited: string | undefined;
  dockerd.on('exit', (code, signal) => (exited = `dockerd exited (${signal ?? code})`));
  try {
    await waitFor(
      async () => {
        if (exited) throw new Error(exited);
        return engineAnswers(2_000);
      },
      90_000,
      'dockerd did not answer',
    );
  } catch (error) {
    if (dockerd.pid) await stopEngine({ startedHere: true, pid: dockerd.pid }, log);
    const tail = existsSync(engine.logFile)
      ? readFileSync(engine.logFile, 'utf8').split('\n').slice(-15).join('\n')
      : '';
    throw new Error(`${(error as Error).message}\n--- ${engine.logFile} (tail) ---\n${tail}`);
  }
  log(
    `engine    dockerd ${dockerHost()} up in ${((Date.now() - started) / 1000).toFixed(1)} s (data ${engine.dataRoot})`,
  );
  return { startedHere: true, pid: dockerd.pid };
}

/** SIGTERM lets dockerd stop its containers; SIGKILL after 60 s. Only an engine this run started. */
export async function stopEngine(running: RunningEngine, log: (line: string) => void): Promise<void> {
  if (!running.startedHere || !running.pid) return;
  const pid = running.pid;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(pid, 'SIGTERM');
  try {
    await waitFor(async () => !alive(), 60_000, 'dockerd did not stop');
  } catch {
    process.kill(pid, 'SIGKILL');
  }
  log('engine    dockerd stopped');
}

/** Compose v2, pinned; built from its Go module (no registry has the binary here) into the cache once. */
export const COMPOSE_VERSION = 'v2.29.7';

export function composeBinaryPath(): string {
  return join(cacheDir(), 'containers', 'bin', `docker-compose-${COMPOSE_VERSION}`);
}

/**
 * Also offered as the docker CLI plugin (`docker compose …`) in ~/.docker/cli-plugins, unless a
 * compose plugin is already there.
 */
function offerAsCliPlugin(binary: string): void {
  const pluginDir = join(process.env.DOCKER_CONFIG || join(homedir(), '.docker'), 'cli-plugins');
  const plugin = join(pluginDir, 'docker-compose');
  if (existsSync(plugin)) return;
  mkdirSync(pluginDir, { recursive: true });
  symlinkSync(binary, plugin);
}

export async function ensureCompose(log: (line: string) => void): Promise<string> {
  const binary = composeBinaryPath();
  if (existsSync(binary)) {
    offerAsCliPlugin(binary);
    return binary;
  }
  const gobin = join(cacheDir(), 'containers', 'bin', `.build-${process.pid}`);
  mkdirSync(gobin, { recursive: true });
  const started = Date.now();
  log(`compose   building docker compose ${COMPOSE_VERSION} from its Go module (first time only, a few minutes)…`);
  await run('go', ['install', `github.com/docker/compose/v2/cmd@${COMPOSE_VERSION}`], {
    env: { ...process.env, GOBIN: gobin, CGO_ENABLED: '0' },
    timeoutMs: 30 * 60_000,
    cwd: gobin,
  });
  renameSync(join(gobin, 'cmd'), binary);
  rmSync(gobin, { recursive: true, force: true });
  offerAsCliPlugin(binary);
  log(`compose   built in ${((Date.now() - started) / 1000).toFixed(0)} s → ${binary}`);
  return binary;
}
