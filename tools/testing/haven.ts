/**
 * Starts Haven itself (the five services and the gateway) in the test
 * process, against the real infrastructure the global setup started. Each
 * call gets its own databases, so test files do not see each other's data.
 */
import { startBillingService } from '../../services/billing/src/main';
import { startComplianceService } from '../../services/compliance/src/main';
import { startNotificationService } from '../../services/notification/src/main';
import { startQuoteService } from '../../services/quote/src/main';
import { startUserService } from '../../services/user/src/main';
import { loadGatewayConfig, startGateway } from '../../gateway/src/main';
import {
  erasureKey,
  kafkaPrincipalOf,
  kafkaUserNameOf,
  serviceNames,
  serviceUrlVariable,
  type RunningService,
  type ServiceName,
} from '@haven/platform';
import mongoose from 'mongoose';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { repoRoot, type InfraEndpoints } from '../infra';
import { skipEarlierFilesEvents } from './consumer-groups';
import { testInfra, type TestInfra } from './test-env';

export { serviceNames, type ServiceName };

/** Each catalog service's start function; a service added to the catalog fails to compile here until added. */
const starters: Record<ServiceName, (env: Record<string, string | undefined>) => Promise<RunningService>> = {
  user: startUserService,
  quote: startQuoteService,
  billing: startBillingService,
  notification: startNotificationService,
  compliance: startComplianceService,
};

/** Haven stores string ids (UUIDs), not ObjectIds. */
export type StoredDocument = mongoose.mongo.Document & { _id: string };

export interface TestHaven {
  gatewayUrl: string;
  /** The gateway's environment: a second gateway started with it shares the first's database. */
  gatewayEnv?: Readonly<Record<string, string>>;
  services: Record<ServiceName, RunningService>;
  /** The database a service uses in this run. */
  dbName(service: ServiceName): string;
  /** Every database of this Haven, the gateway's too. */
  databaseNames: readonly string[];
  /** Names this Haven's databases: a Haven started with it (`databasesOf`) works on them. */
  runId: string;
  /** Reads a service's own database directly (to prove what was, or was not, stored). */
  collection(service: ServiceName, name: string): Promise<mongoose.mongo.Collection<StoredDocument>>;
  /** A service's whole database (to list its collections). */
  database(service: ServiceName): mongoose.mongo.Db;
  /**
   * Stops one service and starts it again on the same database and Kafka groups, as after a crash and
   * a restart. The new instance listens on a new port, which the gateway does not know: use it for what
   * the service does on its own (its consumers), not for requests through the gateway.
   */
  restart(service: ServiceName): Promise<RunningService>;
  /** Stops one service (as if it were down); `startService` brings it back on the same database and groups. */
  stopService(service: ServiceName): Promise<void>;
  /** Starts a stopped service again (a new port, as with restart). */
  startService(service: ServiceName): Promise<RunningService>;
  /** The whole environment a service was started with: a copy of it started as its own process joins this Haven. */
  serviceEnv(service: ServiceName): Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

/** The secret the test gateway sends its subgraphs. */
export const testSubgraphSecret = randomBytes(24).toString('hex');
/** The key a test Haven's notification service signs its stop links with: derived from the subgraph secret, as there. */
export const testLinkKey = erasureKey('notification:stop-links', { SUBGRAPH_SECRET: testSubgraphSecret });
/** The services' own credential (never the gateway's); tests that call an internal operation read it here. */
export const testServiceSecret = randomBytes(24).toString('hex');

let cachedKeys: { privateKey: string; publicKey: string } | null = null;
export function testKeys() {
  cachedKeys ??= generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return cachedKeys;
}

/** How long a start waits for the services' consumers to join their groups before handing Haven to the test. */
const eventsJoinWaitMs = 45_000;

/** A service's Kafka user and password on a world whose broker signs services in; nothing on another. */
function kafkaSignInOf(infra: Pick<TestInfra, 'kafkaSignIn'>, service: ServiceName): Record<string, string> {
  if (!infra.kafkaSignIn) return {};
  const username = kafkaUserNameOf(kafkaPrincipalOf(service));
  const password = infra.kafkaSignIn.passwords[username];
  if (!password) throw new Error(`the test world's broker has no Kafka user ${username}`);
  return { KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password };
}

export async function startTestHaven(
  options: {
    env?: Record<string, string>;
    infra?: InfraEndpoints & Pick<TestInfra, 'kafkaSignIn'>;
    /**
     * Resolve once every consumer has joined its group (the default), so a test's first e-mail does not wait
     * on a group join; false for a start while Kafka is down. The wait is bounded: past it the test goes on,
     * and its own bounded waits report what never happened.
     */
    awaitEvents?: boolean;
    /**
     * The gateway's port, and with it Haven's public origin (APP_URL, http://localhost:<port>) for every app:
     * a browser test follows the links of e-mails and sign-in providers back to the gateway it talks to. Without
     * it the gateway takes a free port and the origin stays http://localhost:4000.
     */
    gatewayPort?: number;
    /**
     * An earlier Haven, stopped: this one starts on its databases (as after a restore), and its consumers read from
     * where their groups stand (a restore may have moved them back), not from the end.
     */
    databasesOf?: TestHaven;
  } = {},
): Promise<TestHaven> {
  // The jest run's servers, unless given (the bench brings its own).
  const infra = options.infra ?? testInfra();
  const runId = options.databasesOf?.runId ?? randomBytes(4).toString('hex');
  const keys = testKeys();
  const dbName = (service: ServiceName) => `t${runId}_${service}`;
  const gatewayDbName = `t${runId}_gateway`;
  const appUrl = options.gatewayPort ? `http://localhost:${options.gatewayPort}` : 'http://localhost:4000';
  const common = {
    APP_URL: appUrl,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.HAVEN_TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    MONGO_URL: infra.mongoUrl,
    // The services sign in to Kafka where the world's broker holds them to their ACLs (fullEnv gives each its user).
    KAFKA_BROKERS: (infra.kafkaSignIn?.brokers ?? infra.kafkaBrokers).join(','),
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_PRIVATE_KEY: keys.privateKey,
    SMTP_HOST: infra.smtpHost,
    SMTP_PORT: String(infra.smtpPort),
    // Tests sign up many accounts from one address and mail one address often; each limit has its own test.
    RATE_LIMIT_AUTH_MAX: '1000',
    RATE_LIMIT_MAIL_MAX: '1000',
    RATE_LIMIT_COSTLY_MAX: '1000',
    RATE_LIMIT_ORDINARY_MAX: '1000',
    RATE_LIMIT_EXPORT_MAX: '1000',
    // A busy machine (workers side by side) can take seconds over a password hash; the outage tests set their own.
    SUBGRAPH_TIMEOUT_MS: '30000',
    // A consumer left behind by an earlier file (a stopped broker, a crash) leaves its group in seconds, not 30.
    KAFKA_SESSION_TIMEOUT_MS: '10000',
    // The gateway proves itself to the subgraphs with it; tests that go straight at a subgraph read it here.
    SUBGRAPH_SECRET: testSubgraphSecret,
    ...options.env,
  };
  // A start while Kafka is down (awaitEvents false) has no broker to ask.
  if (options.awaitEvents !== false && !options.databasesOf) await skipEarlierFilesEvents(infra.kafkaBrokers);
  const started: RunningService[] = [];
  const services = {} as Record<ServiceName, RunningService>;
  const stopServices = () => Promise.all(started.map((service) => service.stop()));
  const envOf = new Map<ServiceName, Record<string, string>>();
  const fullEnv = (name: ServiceName) => ({
    ...common,
    ...kafkaSignInOf(infra, name),
    SERVICE_SECRET: testServiceSecret,
    ...envOf.get(name),
    MONGO_DB: dbName(name),
  });
  const start = async (name: ServiceName, env: Record<string, string>) => {
    envOf.set(name, env);
    const service = await starters[name](fullEnv(name));
    started.push(service);
    services[name] = service;
  };
  try {
    // The user service first: the others ask it for callers' roles (USER_SERVICE_URL). Billing next:
    // services with paid operations confirm a denial with it (BILLING_SERVICE_URL).
    await start('user', {});
    // The test clock: tests end a trial by moving billing's time (advanceBillingClock).
    await start('billing', { USER_SERVICE_URL: services.user.url, BILLING_TEST_CLOCK: '1' });
    const others = serviceNames.filter((name) => name !== 'user' && name !== 'billing');
    await Promise.all(
      others.map((name) =>
        start(name, { USER_SERVICE_URL: services.user.url, BILLING_SERVICE_URL: services.billing.url }),
      ),
    );
  } catch (error) {
    await stopServices();
    throw error;
  }
  const gatewayEnv: Record<string, string> = {
    ...common,
    ...Object.fromEntries(serviceNames.map((name) => [serviceUrlVariable(name), services[name].url])),
    WEB_DIST_DIR: join(repoRoot, 'web', 'dist'),
    ...(options.gatewayPort ? { PORT: String(options.gatewayPort) } : {}),
    MONGO_DB: gatewayDbName,
  };
  const gateway = await startGateway(loadGatewayConfig(gatewayEnv));
  const gatewayUrl = options.gatewayPort ? appUrl : gateway.url;
  if (options.awaitEvents !== false) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(started.map((service) => service.eventsReady)).catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, eventsJoinWaitMs))),
    ]).finally(() => clearTimeout(timer));
  }
  const reader = await mongoose.createConnection(infra.mongoUrl).asPromise();
  const stopService = async (name: ServiceName) => {
    const old = services[name];
    if (!started.includes(old)) return;
    await old.stop();
    started.splice(started.indexOf(old), 1);
  };
  const startService = async (name: ServiceName) => {
    if (started.includes(services[name])) return services[name];
    await start(name, envOf.get(name) ?? {});
    return services[name];
  };
  return {
    gatewayUrl,
    gatewayEnv,
    services,
    dbName,
    databaseNames: [...serviceNames.map(dbName), gatewayDbName],
    runId,
    collection: async (service, name) => reader.useDb(dbName(service)).db!.collection<StoredDocument>(name),
    database: (service) => reader.useDb(dbName(service)).db!,
    restart: async (name) => {
      await stopService(name);
      return startService(name);
    },
    stopService,
    startService,
    serviceEnv: fullEnv,
    stop: async () => {
      await gateway.stop();
      await stopServices();
      await reader.close();
    },
  };
}
