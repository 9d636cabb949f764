/**
 * Helpers a test file uses against the infrastructure the global setup started:
 * take Kafka down and bring it back (outbox / retry tests), and read caught mail.
 */
import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { startKafka, stopKafka } from '../infra/index';
import { startMongoServer, stopMongoServer } from '../infra/mongo-server';
import { describeKafkaCluster } from '../infra/kafka';
import { TEST_ENV, testInfra } from './test-env';

export { testInfra, type TestInfra } from './test-env';

function docker(args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolveDone, rejectFailed) => {
    execFile('docker', args, { timeout: timeoutMs }, (error, _stdout, stderr) => {
      if (error) rejectFailed(new Error(`docker ${args.join(' ')} failed: ${stderr.trim() || error.message}`));
      else resolveDone();
    });
  });
}

function kafkaContainerId(): string {
  const id = process.env[TEST_ENV.kafkaContainerId];
  if (!id) throw new Error(`${TEST_ENV.kafkaContainerId} is not set by the global setup`);
  return id;
}

async function waitForKafka(brokers: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      await describeKafkaCluster(brokers, 2_000);
      return;
    } catch (error) {
      lastError = error;
      await sleep(500);
    }
  }
  throw new Error(`Kafka at ${brokers.join(',')} not back after ${timeoutMs / 1000} s: ${String(lastError)}`);
}

/** Stops the test Kafka broker; its data and ports are kept for startTestKafka. */
export async function stopTestKafka(): Promise<void> {
  const infra = testInfra();
  if (infra.kind === 'local') await stopKafka(infra.stateDir);
  // The container keeps its fixed host port and its data across `docker stop` / `docker start`.
  else await docker(['stop', '--time', '10', kafkaContainerId()], 60_000);
}

/** Starts the broker stopped by stopTestKafka and resolves once it is healthy again. */
export async function startTestKafka(): Promise<void> {
  const infra = testInfra();
  if (infra.kind === 'local') {
    await startKafka(infra.stateDir);
    return;
  }
  await docker(['start', kafkaContainerId()], 60_000);
  await waitForKafka(infra.kafkaBrokers, 120_000);
}

function localStateDir(what: string): string {
  const infra = testInfra();
  if (infra.kind !== 'local') throw new Error(`${what} needs the local test infrastructure (HAVEN_TEST_INFRA=local)`);
  return infra.stateDir;
}

/** Stops the test database (an outage); startTestMongo brings it back with its data. */
export async function stopTestMongo(): Promise<void> {
  await stopMongoServer(localStateDir('stopTestMongo'));
}

/** Starts the database stopped by stopTestMongo, on the same port, and resolves once it answers. */
export async function startTestMongo(): Promise<void> {
  await startMongoServer(localStateDir('startTestMongo'), Number(new URL(testInfra().mongoUrl).port));
}

export interface MailAddress {
  address: string;
  name: string;
}

/** A message as maildev's REST API returns it (the fields tests use). */
export interface CaughtEmail {
  id: string;
  subject: string;
  from: MailAddress[];
  to: MailAddress[];
  text?: string;
  html?: string;
  date: string;
  headers: Record<string, string | string[]>;
}

export interface Mailbox {
  listEmails(): Promise<CaughtEmail[]>;
  /** Polls until a message matches; fails after `timeoutMs` listing what did arrive. */
  waitForEmail(predicate: (email: CaughtEmail) => boolean, timeoutMs?: number): Promise<CaughtEmail>;
  deleteAllEmails(): Promise<void>;
}

function isCaughtEmail(value: unknown): value is CaughtEmail {
  if (typeof value !== 'object' || value === null) return false;
  const email = value as Record<string, unknown>;
  return typeof email.id === 'string' && Array.isArray(email.to) && Array.isArray(email.from);
}

/** maildev's inbox over HTTP (`GET /email`, `DELETE /email/all`); defaults to the test run's inbox. */
export function mailbox(webUrl: string = testInfra().mailWebUrl): Mailbox {
  const base = webUrl.replace(/\/+$/, '');

  async function listEmails(): Promise<CaughtEmail[]> {
    const response = await fetch(`${base}/email`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`GET ${base}/email answered ${response.status}`);
    const body: unknown = await response.json();
    if (!Array.isArray(body)) throw new Error(`GET ${base}/email did not return a list`);
    return body.filter(isCaughtEmail);
  }

  async function waitForEmail(predicate: (email: CaughtEmail) => boolean, timeoutMs = 10_000): Promise<CaughtEmail> {
    const deadline = Date.now() + timeoutMs;
    let seen: CaughtEmail[] = [];
    for (;;) {
      seen = await listEmails();
      const match = seen.find(predicate);
      if (match) return match;
      if (Date.now() >= deadline) break;
      await sleep(200);
    }
    const summary = seen
      .map((email) => `  "${email.subject}" to ${email.to.map((to) => to.address).join(', ')}`)
      .join('\n');
    throw new Error(`no matching e-mail within ${timeoutMs} ms; the inbox holds ${seen.length}:\n${summary}`);
  }

  async function deleteAllEmails(): Promise<void> {
    const response = await fetch(`${base}/email/all`, { method: 'DELETE', signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`DELETE ${base}/email/all answered ${response.status}`);
  }

  return { listEmails, waitForEmail, deleteAllEmails };
}
