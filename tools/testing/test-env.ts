/**
 * The contract between the jest global setup and the tests: what the setup publishes in
 * `process.env` (jest workers inherit it) and how a test reads it back.
 *
 * Each jest worker has a world of its own — its own database server, Kafka broker and mail catcher —
 * so test files run in parallel, and a file that stops its broker or database on purpose affects only
 * the files of its own worker, which run one after another.
 */

export const TEST_ENV = {
  /**
   * 'local' (database/Kafka/maildev processes), 'testcontainers' (Docker) or 'running' (the kept servers of
   * `make test-servers`, left running by the teardown). Also read as a request by the setup.
   */
  infra: 'HAVEN_TEST_INFRA',
  /** The run's state folder (each world has a subfolder); the teardown removes it. */
  stateDir: 'HAVEN_TEST_STATE_DIR',
  /** JSON: one TestInfra per jest worker, in worker order (JEST_WORKER_ID 1 is the first). */
  worlds: 'HAVEN_TEST_WORLDS',
  /** Set to 1 to keep `<repo>/.haven/test-<pid>` (data and logs) after the run. */
  keepState: 'HAVEN_KEEP_TEST_STATE',
} as const;

/** A file in a state folder kept on purpose (HAVEN_KEEP_TEST_STATE=1), so later runs do not delete it. */
export const KEEP_MARKER = 'KEPT';

export type TestInfraKind = 'local' | 'testcontainers';

export interface TestInfra {
  kind: TestInfraKind;
  /** This world's own state folder (local processes' data, ports and logs). */
  stateDir: string;
  mongoUrl: string;
  /** The broker's open listener: the suite's own tooling (topics, offsets, redeliveries) uses it, unchecked. */
  kafkaBrokers: string[];
  /**
   * Local worlds: the broker's listener where the services under test sign in, each as its own Kafka user held to
   * the ACLs kafka-access.ts gives it, and each user's password.
   */
  kafkaSignIn?: { brokers: string[]; passwords: Record<string, string> };
  smtpHost: string;
  smtpPort: number;
  mailWebUrl: string;
  /** Testcontainers only: the Kafka container, so a test can stop and start it with the docker CLI. */
  kafkaContainerId?: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `${name} is not set: run this test through a jest project whose globalSetup is tools/testing/global-setup.ts`,
    );
  }
  return value;
}

/** Every world the global setup started, in worker order. */
export function testWorlds(): TestInfra[] {
  const worlds: unknown = JSON.parse(required(TEST_ENV.worlds));
  if (!Array.isArray(worlds) || worlds.length === 0) throw new Error(`${TEST_ENV.worlds} lists no world`);
  return worlds as TestInfra[];
}

/** The jest worker this code runs in: 1 in band, 1…maxWorkers with workers. */
export function workerIndex(): number {
  const id = Number(process.env.JEST_WORKER_ID ?? '1');
  return Number.isInteger(id) && id > 0 ? id : 1;
}

/** The running test infrastructure of this jest worker, as published by the global setup. */
export function testInfra(): TestInfra {
  const worlds = testWorlds();
  const world = worlds[(workerIndex() - 1) % worlds.length]!;
  if (world.kind !== 'local' && world.kind !== 'testcontainers')
    throw new Error(`a world's kind is '${String(world.kind)}', expected local or testcontainers`);
  return world;
}

/** Publishes the worlds for the workers jest starts after the global setup (they inherit process.env). */
export function publishTestWorlds(kind: TestInfraKind | 'running', stateDir: string, worlds: TestInfra[]): void {
  process.env[TEST_ENV.infra] = kind;
  process.env[TEST_ENV.stateDir] = stateDir;
  process.env[TEST_ENV.worlds] = JSON.stringify(worlds);
}

export function keepTestState(): boolean {
  return process.env[TEST_ENV.keepState] === '1';
}
