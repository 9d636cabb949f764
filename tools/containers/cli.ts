/**
 * Haven's container commands (the Makefile calls these):
 *
 *   images          start the engine if needed, build every image (cached by content), stop it again
 *   compose-smoke   images, then the compose stack up, the sign-up journey through it, down -v
 *   stage           the container stage of `make test`: images, the integration tests on
 *                   testcontainers, the compose smoke; results in .haven/containers/results/
 *   engine-install  Debian's docker.io and mmdebstrap (`make docker-engine`)
 *   engine-up / engine-down   for working by hand (`make engine-up`, `make engine-down`)
 */
import { buildAllImages } from './images';
import { existsSync, readFileSync } from 'node:fs';
import { engine, installEngine, startEngine, stopEngine, type RunningEngine } from './engine';
import { runContainerStage } from './stage';

const log = (line: string) => console.log(`[haven containers] ${line}`);

/** Runs `work` with the engine up; stops the engine afterwards if this call started it, on failure too. */
export async function withEngine<T>(work: (running: RunningEngine) => Promise<T>): Promise<T> {
  const running = await startEngine(log);
  const stop = () => void stopEngine(running, log);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await work(running);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await stopEngine(running, log);
  }
}

async function main(command: string | undefined): Promise<number> {
  switch (command) {
    case 'images':
      await withEngine(() => buildAllImages(log));
      return 0;
    case 'compose-smoke':
      return runContainerStage(log, { testcontainers: false, compose: true });
    case 'stage':
      return runContainerStage(log, { testcontainers: true, compose: true });
    case 'engine-install':
      await installEngine(log);
      return 0;
    case 'engine-up':
      await startEngine(log);
      return 0;
    case 'engine-down': {
      const pid = existsSync(engine.pidFile) ? Number(readFileSync(engine.pidFile, 'utf8')) : undefined;
      await stopEngine({ startedHere: true, pid }, log);
      return 0;
    }
    default:
      console.error(
        'usage: tsx tools/containers/cli.ts images|compose-smoke|stage|engine-install|engine-up|engine-down',
      );
      return 2;
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[haven containers] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
