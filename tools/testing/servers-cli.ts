/**
 * `make test-servers` / `make test-servers-down`: a database, Kafka and maildev kept running between jest
 * runs, so `make test-area` runs one area's integration tests without starting servers each time.
 */
import { provision } from '../infra/index';
import { keptServersDir, startKeptServers, stopKeptServers } from './local-worlds';

async function main(command: string | undefined): Promise<void> {
  if (command === 'up') {
    await provision((line) => console.log(line));
    const started = Date.now();
    const servers = await startKeptServers();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`test servers up in ${seconds} s (${keptServersDir}): database ${servers.mongoUrl}, Kafka`);
    console.log(`${servers.kafkaBrokers.join(',')}, mail ${servers.mailWebUrl}. Stop them: make test-servers-down`);
    return;
  }
  if (command === 'down') {
    await stopKeptServers();
    console.log('test servers stopped');
    return;
  }
  throw new Error('usage: tsx tools/testing/servers-cli.ts up|down');
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
