/**
 * The container stage of `make test` (and `make compose-smoke`):
 *
 *   1. start Haven's Docker engine (installing Debian's docker.io when missing);
 *   2. build every image (cached by content: seconds when nothing changed);
 *   3. the integration tests on testcontainers (HAVEN_TEST_INFRA=testcontainers, local images, reaper
 *      off): the outbox, the browser sign-up journey and the first test file of every service;
 *   4. the compose smoke (tools/containers/test/compose-smoke.compose.test.ts), in `make test` only once the
 *      jest stage beside it has finished: starting the whole stack takes both cores for a minute or more, and
 *      a browser test beside it saw a page wait 60 s for its first answer;
 *   5. stop the engine, on failure too.
 *
 * Every step leaves a jest-format result file in .haven/containers/results/, which tools/ci/summary.js
 * adds to the `N passed, N failed` line. A step that cannot run (no engine, an image that does not
 * build) is written as a failed test with the reason, so it is counted, never silently skipped.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../infra/paths';
import { dockerEnv, ensureCompose, startEngine, stopEngine, type RunningEngine } from './engine';
import { buildAllImages } from './images';

export const resultsDir = join(repoRoot, '.haven', 'containers', 'results');

type Log = (line: string) => void;

/** A failed step as a jest result file, so the summary counts it. */
function writeFailedStep(file: string, title: string, reason: string): void {
  writeFileSync(
    join(resultsDir, file),
    JSON.stringify({
      numPassedTests: 0,
      numFailedTests: 1,
      testResults: [
        {
          name: `container stage: ${title}`,
          status: 'failed',
          message: reason,
          assertionResults: [{ title, status: 'failed', failureMessages: [reason] }],
        },
      ],
    }),
  );
}

function loudly(log: Log, lines: string[]): void {
  const bar = '!'.repeat(100);
  console.error(['', bar, ...lines.map((line) => `!! ${line}`), bar, ''].join('\n'));
  log(lines[0] ?? '');
}

/** The test files the stage runs on testcontainers: the outbox, the browser journey, one per service, federation. */
export function testcontainersSelection(): string[] {
  const selected = ['services/platform/test/outbox.int.test.ts', 'web/e2e/auth.e2e.test.ts'];
  const firstTestOf = (dir: string) => {
    const testDir = join(repoRoot, dir, 'test');
    if (!existsSync(testDir)) return undefined;
    const file = readdirSync(testDir)
      .filter((name) => name.endsWith('.int.test.ts'))
      .sort()[0];
    return file ? `${dir}/test/${file}` : undefined;
  };
  for (const service of ['user', 'quote', 'billing', 'notification', 'compliance']) {
    const file = firstTestOf(`services/${service}`);
    if (file) selected.push(file);
  }
  // The gateway's is the federation test: the supergraph over the containers' subgraphs, one request each.
  selected.push('gateway/test/federation.int.test.ts');
  return selected.filter((file) => existsSync(join(repoRoot, file)));
}

function runJest(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolveRun) => {
    const jest = spawn(process.execPath, [join(repoRoot, 'node_modules', 'jest', 'bin', 'jest.js'), ...args], {
      cwd: repoRoot,
      env,
      stdio: 'inherit',
    });
    jest.on('exit', (code) => resolveRun(code ?? 1));
    jest.on('error', () => resolveRun(1));
  });
}

/** Where `make test` marks the end of its jest stage (HAVEN_COMPOSE_AFTER); unset, nothing is waited for. */
const composeAfter = process.env.HAVEN_COMPOSE_AFTER;

/** Waits for the jest stage beside this one to end (at most 40 minutes: a jest stage that hangs is its own failure). */
async function quietMachine(log: Log): Promise<void> {
  if (!composeAfter || existsSync(composeAfter)) return;
  log('compose   waits for the jest stage to finish first');
  const until = Date.now() + 40 * 60_000;
  while (!existsSync(composeAfter) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

export interface StageSteps {
  testcontainers: boolean;
  compose: boolean;
}

export async function runContainerStage(log: Log, steps: StageSteps): Promise<number> {
  rmSync(resultsDir, { recursive: true, force: true });
  mkdirSync(resultsDir, { recursive: true });
  const started = Date.now();
  let running: RunningEngine;
  try {
    running = await startEngine(log);
  } catch (error) {
    loudly(log, [
      'CONTAINER STAGE FAILED: no Docker engine could start on this machine.',
      ...(error as Error).message.split('\n'),
      'The integration suite still ran on local processes; the container stage counts as 1 failure.',
    ]);
    writeFailedStep('engine.json', 'the Docker engine starts', (error as Error).message);
    return 1;
  }
  const stop = () => void stopEngine(running, log).finally(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let exitCode = 0;
  try {
    let imageSeconds = 0;
    try {
      imageSeconds = await buildAllImages(log);
      if (steps.compose) await ensureCompose(log);
    } catch (error) {
      loudly(log, ['CONTAINER STAGE FAILED: the images could not be built.', ...(error as Error).message.split('\n')]);
      writeFailedStep('images.json', 'every image builds', (error as Error).message);
      return 1;
    }
    if (steps.testcontainers) {
      const files = testcontainersSelection();
      log(`tests     on testcontainers: ${files.join(', ')}`);
      const code = await runJest(
        [
          '--selectProjects',
          'integration',
          '--runInBand',
          '--forceExit',
          '--json',
          `--outputFile=${join(resultsDir, 'testcontainers.json')}`,
          '--runTestsByPath',
          ...files,
        ],
        dockerEnv({ HAVEN_TEST_INFRA: 'testcontainers' }),
      );
      if (code !== 0) exitCode = 1;
    }
    if (steps.compose) {
      await quietMachine(log);
      const code = await runJest(
        [
          '--selectProjects',
          'compose',
          '--runInBand',
          '--forceExit',
          '--json',
          `--outputFile=${join(resultsDir, 'compose-smoke.json')}`,
        ],
        dockerEnv({ HAVEN_CONTAINER_STAGE: '1' }),
      );
      if (code !== 0) exitCode = 1;
    }
    log(
      `stage     done in ${((Date.now() - started) / 60_000).toFixed(1)} min (images ${imageSeconds.toFixed(0)} s)` +
        (exitCode === 0 ? '' : ' — with failures'),
    );
    return exitCode;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await stopEngine(running, log);
  }
}
