/**
 * Helpers a test file uses against the infrastructure the global setup started:
 * take Kafka down and bring it back (outbox / retry tests), and read caught mail.
 */
import { execFile } from 'node:child_process';
import { startKafka, stopKafka } from '../infra/index';
import { startMongoServer, stopMongoServer } from '../infra/mongo-server';
import { describeKafkaCluster } from '../infra/kafka';
import { defaultEventuallyTimeoutMs, eventually } from './eventually';
import { testInfra } from './test-env';

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
  const id = testInfra().kafkaContainerId;
  if (!id) throw new Error("this worker's world has no Kafka container id (set by the global setup)");
  return id;
}

async function waitForKafka(brokers: string[], timeoutMs: number): Promise<void> {
  await eventually(
    `Kafka at ${brokers.join(',')} answering again`,
    async () => {
      await describeKafkaCluster(brokers, 2_000);
      return true;
    },
    { timeoutMs, intervalMs: 500 },
  );
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

/**
 * What maildev filters by (exact matches), when a test knows it: each poll then reads a few messages and not
 * the whole world's inbox, thousands of them by the end of a run.
 */
export interface MailFilter {
  /** The recipient's address, as Haven sends it (lower case). */
  to?: string;
  subject?: string;
}

export interface WaitForEmailOptions extends MailFilter {
  /** Completes "… never happened": the e-mail awaited ("the verification e-mail to x@y"). */
  what?: string;
  timeoutMs?: number;
}

export interface Mailbox {
  /** Every message, or only those that match `filter`. */
  listEmails(filter?: MailFilter): Promise<CaughtEmail[]>;
  /**
   * Polls (with `eventually`) until a message matches; on timeout the error names `what` and lists what
   * did arrive. The default timeout is the cold-machine one; pass a shorter one only with a reason.
   */
  waitForEmail(
    predicate: (email: CaughtEmail) => boolean,
    options?: WaitForEmailOptions | number,
  ): Promise<CaughtEmail>;
  /** The first message that matches the filter in `options` alone. */
  waitForEmail(options: WaitForEmailOptions): Promise<CaughtEmail>;
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

  async function listEmails({ to, subject }: MailFilter = {}): Promise<CaughtEmail[]> {
    const filter = new URLSearchParams();
    if (to !== undefined) filter.set('to.address', to);
    if (subject !== undefined) filter.set('subject', subject);
    const query = filter.toString() === '' ? '' : `?${filter}`;
    const response = await fetch(`${base}/email${query}`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`GET ${base}/email answered ${response.status}`);
    const body: unknown = await response.json();
    if (!Array.isArray(body)) throw new Error(`GET ${base}/email did not return a list`);
    return body.filter(isCaughtEmail);
  }

  async function waitForEmail(
    predicateOrOptions: ((email: CaughtEmail) => boolean) | WaitForEmailOptions,
    moreOptions: WaitForEmailOptions | number = {},
  ): Promise<CaughtEmail> {
    const [predicate, options] =
      typeof predicateOrOptions === 'function' ? [predicateOrOptions, moreOptions] : [() => true, predicateOrOptions];
    const {
      to,
      subject,
      what = 'a matching e-mail in the inbox',
      timeoutMs = defaultEventuallyTimeoutMs,
    } = typeof options === 'number' ? { timeoutMs: options } : options;
    let seen: CaughtEmail[] = [];
    try {
      return await eventually(
        what,
        async () => {
          seen = await listEmails({ to, subject });
          return seen.find(predicate);
        },
        { timeoutMs, intervalMs: 200 },
      );
    } catch (timeout) {
      const summary = seen
        .slice(-20)
        .map((email) => `  "${email.subject}" to ${email.to.map((to) => to.address).join(', ')}`)
        .join('\n');
      const whose = to === undefined && subject === undefined ? 'the inbox holds' : 'the inbox holds of those';
      throw new Error(`${(timeout as Error).message}; ${whose} ${seen.length} (the last 20):\n${summary}`);
    }
  }

  async function deleteAllEmails(): Promise<void> {
    const response = await fetch(`${base}/email/all`, { method: 'DELETE', signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`DELETE ${base}/email/all answered ${response.status}`);
  }

  return { listEmails, waitForEmail, deleteAllEmails };
}
