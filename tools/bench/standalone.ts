/**
 * Runs one part of `make bench` alone, on servers of its own (the embedded database, Kafka and maildev on
 * free loopback ports, in `.haven/bench-<name>-<pid>`), and stops them afterwards, also on Ctrl-C.
 */
import { join } from 'node:path';
import { freePorts, provision, repoRoot, startInfra, stopInfra, type InfraEndpoints } from '../infra';

export function runStandalone(
  name: string,
  body: (infra: InfraEndpoints, say: (line: string) => void) => Promise<string>,
): void {
  const stateDir = join(repoRoot, '.haven', `bench-${name}-${process.pid}`);
  const say = (line: string) => console.log(`[bench] ${line}`);
  const run = async () => {
    await provision(say);
    const [mongo, kafka, kafkaController, smtp, mailWeb] = await freePorts(5);
    // Interrupted: the servers go too (they are separate processes).
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => void stopInfra(stateDir).finally(() => process.exit(130)));
    }
    const infra = await startInfra(stateDir, {
      mongo: mongo!,
      kafka: kafka!,
      kafkaController: kafkaController!,
      smtp: smtp!,
      mailWeb: mailWeb!,
    });
    try {
      console.log(await body(infra, say));
    } finally {
      await stopInfra(stateDir);
    }
  };
  run().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
