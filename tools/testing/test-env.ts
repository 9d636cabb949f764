/**
 * The contract between the jest global setup and the tests: what the setup publishes in
 * `process.env` (jest workers inherit it) and how a test reads it back.
 */

export const TEST_ENV = {
  /** 'local' (database/Kafka/maildev processes) or 'testcontainers' (Docker). Also read as a request by the setup. */
  infra: 'HAVEN_TEST_INFRA',
  stateDir: 'HAVEN_TEST_STATE_DIR',
  mongoUrl: 'HAVEN_TEST_MONGO_URL',
  /** Comma-separated host:port list. */
  kafkaBrokers: 'HAVEN_TEST_KAFKA_BROKERS',
  smtpHost: 'HAVEN_TEST_SMTP_HOST',
  smtpPort: 'HAVEN_TEST_SMTP_PORT',
  mailWebUrl: 'HAVEN_TEST_MAIL_WEB_URL',
  /** Testcontainers only: the Kafka container, so a test can stop and start it with the docker CLI. */
  kafkaContainerId: 'HAVEN_TEST_KAFKA_CONTAINER_ID',
  /** Set to 1 to keep `<repo>/.haven/test-<pid>` (data and logs) after the run. */
  keepState: 'HAVEN_KEEP_TEST_STATE',
} as const;

/** A file in a state folder kept on purpose (HAVEN_KEEP_TEST_STATE=1), so later runs do not delete it. */
export const KEEP_MARKER = 'KEPT';

export type TestInfraKind = 'local' | 'testcontainers';

export interface TestInfra {
  kind: TestInfraKind;
  stateDir: string;
  mongoUrl: string;
  kafkaBrokers: string[];
  smtpHost: string;
  smtpPort: number;
  mailWebUrl: string;
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

/** The running test infrastructure, as published by the global setup. */
export function testInfra(): TestInfra {
  const kind = required(TEST_ENV.infra);
  if (kind !== 'local' && kind !== 'testcontainers')
    throw new Error(`${TEST_ENV.infra} is '${kind}', expected local or testcontainers`);
  return {
    kind,
    stateDir: required(TEST_ENV.stateDir),
    mongoUrl: required(TEST_ENV.mongoUrl),
    kafkaBrokers: required(TEST_ENV.kafkaBrokers).split(','),
    smtpHost: process.env[TEST_ENV.smtpHost] || '127.0.0.1',
    smtpPort: Number(required(TEST_ENV.smtpPort)),
    mailWebUrl: required(TEST_ENV.mailWebUrl),
  };
}

export function publishTestInfra(infra: TestInfra, kafkaContainerId?: string): void {
  process.env[TEST_ENV.infra] = infra.kind;
  process.env[TEST_ENV.stateDir] = infra.stateDir;
  process.env[TEST_ENV.mongoUrl] = infra.mongoUrl;
  process.env[TEST_ENV.kafkaBrokers] = infra.kafkaBrokers.join(',');
  process.env[TEST_ENV.smtpHost] = infra.smtpHost;
  process.env[TEST_ENV.smtpPort] = String(infra.smtpPort);
  process.env[TEST_ENV.mailWebUrl] = infra.mailWebUrl;
  if (kafkaContainerId) process.env[TEST_ENV.kafkaContainerId] = kafkaContainerId;
}

export function keepTestState(): boolean {
  return process.env[TEST_ENV.keepState] === '1';
}
