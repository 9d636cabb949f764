/**
 * Runs one part of `make bench` alone, on servers of its own (the embedded database, Kafka and maildev on
 * free loopback ports, in `.haven/bench-<name>-<pid>`), and stops them afterwards, also on Ctrl-C.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePorts, provision, repoRoot, startInfra, stopInfra, type InfraEndpoints } from '../infra';

/**
 * `body` on servers of its own, state in `stateDir`, stopped afterwards (the state goes too unless `body` failed).
 * The full run gives the relay and the fan-out their own: their events and consumer groups are not the stack's.
 */
export async function onServersOfItsOwn<T>(stateDir: string, body: (infra: InfraEndpoints) => Promise<T>): Promise<T> {
  const [mongo, kafka, kafkaController, smtp, mailWeb] = await freePorts(5);
  let succeeded = false;
  try {
    const infra = await startInfra(
      stateDir,
      {
        mongo: mongo!,
        kafka: kafka!,
        kafkaController: kafkaController!,
        smtp: smtp!,
        mailWeb: mailWeb!,
      },
      { jit: 'full' },
    );
    const result = await body(infra);
    succeeded = true;
    return result;
  } finally {
    await stopInfra(stateDir);
    if (succeeded) rmSync(stateDir, { recursive: true, force: true });
  }
}

export function runStandalone(
  name: string,
  body: (infra: InfraEndpoints, say: (line: string) => void) => Promise<string>,
): void {
  const stateDir = join(repoRoot, '.haven', `bench-${name}-${process.pid}`);
  const say = (line: string) => console.log(`[bench] ${line}`);
  const run = async () => {
    await provision(say);
    // Interrupted: the servers go too (they are separate processes).
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => void stopInfra(stateDir).finally(() => process.exit(130)));
    }
    console.log(await onServersOfItsOwn(stateDir, (infra) => body(infra, say)));
  };
  run().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
