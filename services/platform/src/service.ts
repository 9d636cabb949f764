import type { BaseContext as ApolloBaseContext } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { expressMiddleware } from '@as-integrations/express5';
import { topicOf, type ProducerService } from '@haven/proto';
import express from 'express';
import type { DocumentNode } from 'graphql';
import helmet from 'helmet';
import type { Kafka } from 'kafkajs';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { createHttpServer } from './http-server';
import type { AddressInfo } from 'node:net';
import { accessFacts, internalOperationGuard, type AccessContext, type AccessFactSources } from './access';
import {
  bearerToken,
  callerOf,
  clientAddressOf,
  correlationHeader,
  onlyFromGateway,
  onlyFromHaven,
  sessionHeader,
  sessionsEndedHeader,
  sessionsRecheckHeader,
  verifySessionToken,
  visitorCookieHeader,
  visitorHeader,
  signInBindingHeader,
  type Caller,
  type SessionClaims,
} from './auth';
import { readSubgraphSchema } from './schema-directives';
import { catalogEntry, type HttpRoute, type HttpRouteOf, type ServiceName } from './catalog';
import {
  defaultHost,
  loadConfig,
  requireServiceSecretInProduction,
  requireSubgraphSecretInProduction,
  type BaseConfig,
} from './config';
import {
  bodyErrorHandler,
  databaseUnavailable,
  databaseUnavailableMessage,
  isDatabaseUnavailable,
  maskError,
  serviceUnavailable,
  unexpectedErrorLog,
} from './errors';
import {
  declaredRateLimits,
  LimitedApolloServer,
  MongoRateLimitStore,
  rateLimitPlugin,
  rateLimitsOf,
  type RateLimitMessages,
} from './limits';
import type { z } from 'zod';
import { EventConsumer, type ConsumerSpec } from './consumer';
import {
  erasureConsumer,
  erasureGuard,
  eraseSubject,
  erasureKey,
  recordStandaloneEvent,
  standaloneEventModel,
  type ErasureRuntime,
  type ServiceErasure,
} from './erasure';
import { createKafka, kafkaCredentialsOf } from './kafka';
import { createLogger, requestLogger, type Logger } from './logger';
import { connectMongo, ensureIndexes, pingMongo } from './mongo';
import type { Registry } from 'prom-client';
import {
  consumerLagMetrics,
  consumerMetrics,
  createMetricsRegistry,
  httpMetrics,
  metricsEndpoint,
  rateLimitRefusalCounter,
  outboxMetrics,
} from './metrics';
import { limitOutboxBacklog, OutboxRelay, type OutboxModel } from './outbox';
import type { PersonKeyring } from './person-keys';
import { startPlatformSweep } from './platform-sweep';
import { startTracingFromEnv, tracedRequests } from './tracing';
import { undeclaredConsumer } from './kafka-access';

/** Apollo's resolver-map type, taken from buildSubgraphSchema's signature rather than a private module path. */
type SubgraphResolvers = NonNullable<
  Extract<Extract<Parameters<typeof buildSubgraphSchema>[0], unknown[]>[number], { typeDefs: unknown }>['resolvers']
>;

/** What every resolver gets; services may add to it. */
export interface RequestContext extends ApolloBaseContext, AccessContext {
  session: SessionClaims | null;
  /** The caller's bearer token, for a call made on their behalf to another service (null when signed out). */
  sessionToken: string | null;
  correlationId: string;
  /** The client's address as the gateway saw it (rate limits). */
  clientAddress: string;
  /** Whether the gateway's secret or a Haven service's credential came with the request (access.ts). */
  caller: Caller;
  log: Logger;
  /** Asks the gateway to set (token) or clear (null) the browser's session cookie. */
  setSessionToken(token: string | null): void;
  /** Tells the gateway that every session of these users ended (an account closed): it refuses them at once. */
  endSessionsOf(userIds: readonly string[]): void;
  /** Tells the gateway that some sessions of these users ended: it asks again about each of their tokens. */
  recheckSessionsOf(userIds: readonly string[]): void;
  /** The browser's visitor id from the gateway's consent cookie (auth.ts, `visitorHeader`); null without one. */
  visitorId: string | null;
  /** Asks the gateway to set (id) or clear (null) the visitor cookie. */
  setVisitorCookie(visitorId: string | null): void;
  /** The browser's federated sign-in binding (auth.ts, `signInBindingHeader`); null without one. */
  signInBinding: string | null;
}

export interface ServiceRuntime<Config extends BaseConfig> {
  name: ProducerService;
  config: Config;
  log: Logger;
  connection: Connection;
  kafka: Kafka;
  /** Call after a write that recorded events, so they go out now rather than at the next tick. */
  publishSoon(): void;
  /** The erasure records' guard and standalone events (erasure.ts), for the service's erasure and its saga. */
  erasure: ErasureRuntime;
  /** The registry /metrics serves: a service's own counts (a scheduler's outcomes) go here beside the platform's. */
  metrics: Registry;
}

export interface ServiceParts<Context extends RequestContext> {
  /** The subgraph schema; defineService reads it from `schema.graphql` beside main.ts. */
  typeDefs: DocumentNode;
  /**
   * The service's resolvers, typed where they are written by the service's generated `Resolvers`
   * (resolvers/types.generated.ts, `make codegen`); only their shape is Apollo's business here.
   */
  resolvers: object;
  /** Models using outboxPlugin whose pending events the relay publishes. */
  outboxModels?: OutboxModel[];
  consumers?: ConsumerSpec[];
  /** Where this service looks up the caller's role and entitlement (access.ts); given the bearer token. */
  accessSources?: (sessionToken: string) => AccessFactSources;
  /** Extends the base context, e.g. to check that a session was not revoked. */
  buildContext?: (base: RequestContext) => Promise<Context>;
  /** What a field over its `@rateLimit` says instead of the general message, given the wait in seconds. */
  rateLimitMessages?: RateLimitMessages;
  /**
   * Each person's key, for the events this service publishes: the relay seals their personal fields (address,
   * names) under it (person-keys.ts). Consumers that read those fields carry it in their own spec.
   */
  personKeyring?: PersonKeyring;
  /** Releases what the service opened itself (an SMTP pool, …). */
  onStop?: () => Promise<void> | void;
  /**
   * What the service erases when an account is deleted: given, the platform adds the service's erasure
   * consumer (`account.deletion_requested` → erase → `<service>.user_data_purged`) and holds every other
   * consumer to the erasure records (an event about an erased user is skipped). erasure.ts.
   */
  erasure?: ServiceErasure;
  /**
   * Plain HTTP routes beside /graphql (a payment provider's webhook, a one-click unsubscribe form), exactly
   * the ones the catalog declares for the service (`serviceHttpRoutes`), mounted at /http and reached through
   * the gateway at /hooks/<service>/…; they parse their own bodies, so a webhook can verify its signature over
   * the raw bytes (express.raw).
   */
  httpRoutes?: ServiceHttpRoutes;
}

/** A service's plain HTTP routes, built from its catalog declaration only (`serviceHttpRoutes`). */
export interface ServiceHttpRoutes {
  readonly service: ServiceName;
  readonly router: express.Router;
}

/**
 * Mounts a service's handlers on the routes its catalog entry declares (`httpRoutes`): one handler list per
 * declared route, no more, no less, so the service serves what the gateway forwards and nothing else.
 */
export function serviceHttpRoutes<Name extends ServiceName>(
  service: Name,
  handlers: { readonly [Route in HttpRouteOf<Name>]: readonly express.RequestHandler[] },
): ServiceHttpRoutes {
  const declared = catalogEntry(service).httpRoutes;
  const given = handlers as Readonly<Record<string, readonly express.RequestHandler[]>>;
  const undeclared = Object.keys(given).filter((route) => !declared.includes(route as HttpRoute));
  if (undeclared.length > 0) {
    throw new Error(`${service}: routes not declared in the service catalog: ${undeclared.join(', ')}`);
  }
  const router = express.Router({ caseSensitive: true, strict: true });
  for (const route of declared) {
    const [method, path] = route.split(' ') as ['GET' | 'POST', string];
    const chain = given[route];
    if (!chain || chain.length === 0) throw new Error(`${service}: no handler for the declared route ${route}`);
    if (method === 'GET') router.get(path, ...chain);
    else router.post(path, ...chain);
  }
  return { service, router };
}

export interface RunningService {
  name: ProducerService;
  port: number;
  url: string;
  relay: OutboxRelay | null;
  /** Resolves when every event consumer has joined its group (the service serves requests before that). */
  eventsReady: Promise<void>;
  stop(): Promise<void>;
}

/** Where a service mounts its plain HTTP routes; the gateway forwards /hooks/<service>/… here. */
export const httpRoutesPath = '/http';

/** Reads a service's `schema.graphql` beside its main.ts, after Haven's shared directives. */
export function loadTypeDefs(path: string): DocumentNode {
  return readSubgraphSchema(path);
}

/**
 * Starts one subgraph service: Mongo, the outbox relay, event consumers, and
 * an Express server with helmet, health endpoints and /graphql.
 */
export async function startService<Config extends BaseConfig, Context extends RequestContext>(
  name: ProducerService,
  config: Config,
  build: (runtime: ServiceRuntime<Config>) => ServiceParts<Context> | Promise<ServiceParts<Context>>,
): Promise<RunningService> {
  requireSubgraphSecretInProduction(config);
  requireServiceSecretInProduction(config);
  const log = createLogger(name, config.LOG_LEVEL);
  const connection = await connectMongo(config.MONGO_URL, config.MONGO_DB);
  limitOutboxBacklog(connection, config.OUTBOX_MAX_PENDING);
  const kafka = createKafka(config.KAFKA_CLIENT_ID, config.KAFKA_BROKERS, log, kafkaCredentialsOf(config));
  let relay: OutboxRelay | null = null;
  const publishSoon = () => relay?.nudge();
  const standaloneEvents = standaloneEventModel(connection);
  const erasure: ErasureRuntime = {
    guard: erasureGuard(connection, erasureKey(name, config)),
    publish: async (event) => {
      await recordStandaloneEvent(standaloneEvents, event);
      publishSoon();
    },
  };
  const metrics = createMetricsRegistry(name);
  const runtime: ServiceRuntime<Config> = { name, config, log, connection, kafka, publishSoon, erasure, metrics };
  const parts = await build(runtime);
  const httpRoutes = parts.httpRoutes;
  if (httpRoutes && httpRoutes.service !== name) {
    throw new Error(`${name} was given the plain HTTP routes of ${httpRoutes.service}`);
  }
  if (!httpRoutes && catalogEntry(name).httpRoutes.length > 0) {
    throw new Error(`${name} declares plain HTTP routes in the service catalog but serves none`);
  }
  await ensureIndexes(connection);

  const outboxModels = [...(parts.outboxModels ?? []), standaloneEvents];
  const topicPolicy = { partitions: config.KAFKA_TOPIC_PARTITIONS, retentionMs: config.KAFKA_RETENTION_MS };
  relay = new OutboxRelay({
    kafka,
    models: outboxModels,
    topics: [topicOf(name)],
    log,
    topicPolicy,
    personKeyring: parts.personKeyring,
  });
  relay.start();
  // Rate-limit logs and processed-event ids past their period, every group's (platform-sweep.ts).
  const platformSweep = startPlatformSweep(connection, log);
  const serviceErasure = parts.erasure;
  const specs = [
    ...(parts.consumers ?? []),
    ...(serviceErasure
      ? [erasureConsumer({ service: name, connection, runtime: erasure, erasure: serviceErasure })]
      : []),
  ];
  // Only what the service's Kafka principal may read (kafka-access.ts): a consumer not listed fails here, not in
  // production where the broker would refuse it.
  const undeclared = specs.map((spec) => undeclaredConsumer(name, spec)).filter((problem) => problem !== null);
  if (undeclared.length > 0) throw new Error(undeclared.join('\n'));
  const consumers = specs.map(
    (spec) =>
      new EventConsumer({
        kafka,
        connection,
        spec,
        log,
        topicPolicy,
        partitionsConsumedConcurrently: config.KAFKA_CONSUMER_CONCURRENCY,
        sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
        erasure: serviceErasure
          ? {
              guard: erasure.guard,
              reErase: async (subjectId, context) => {
                await eraseSubject(connection, serviceErasure, subjectId, {
                  log: context.log,
                  markErased: erasure.guard.markErased,
                });
              },
            }
          : undefined,
      }),
  );
  consumers.forEach((consumer) => consumer.supervise());
  await outboxMetrics(metrics, relay, connection, log);
  consumerMetrics(metrics, consumers);
  const lagMetrics = consumerLagMetrics(metrics, kafka, specs, log);

  const app = express();
  app.disable('x-powered-by');
  app.use(httpMetrics(metrics));
  app.use(tracedRequests(name));
  app.use(helmet());
  app.use(requestLogger(log, correlationHeader));
  const httpServer = createHttpServer(app);
  const kafkaReady = kafkaProbe(kafka);
  // The gateway's limits, so a request that reaches a subgraph some other way gains nothing.
  const apollo = new LimitedApolloServer<Context>({
    schema: buildSubgraphSchema([{ typeDefs: parts.typeDefs, resolvers: parts.resolvers as SubgraphResolvers }]),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      unexpectedErrorLog<Context>(),
      internalOperationGuard<Context>(parts.typeDefs),
      // The subgraph owns its fields, so it knows the account and the recipient: it counts every log.
      rateLimitPlugin<Context>(
        {
          fields: declaredRateLimits(parts.typeDefs),
          limits: rateLimitsOf(config),
          store: new MongoRateLimitStore(connection),
          scope: 'all',
          recipientSecret: config.SUBGRAPH_SECRET,
          refusals: rateLimitRefusalCounter(metrics),
        },
        // Haven's own services calling (an erasure's steps, one per user of a bulk deletion) are not abuse.
        (context) =>
          context.caller.service ? null : { client: context.clientAddress, account: context.session?.userId ?? null },
        parts.rateLimitMessages,
      ),
    ],
    // Subgraphs sit behind the gateway, which enforces its own CSRF rules.
    csrfPrevention: false,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: config.NODE_ENV === 'production',
    logger: log,
    formatError: (formatted, error) => maskError(databaseUnavailable(formatted, error)),
  });
  await apollo.start();

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: name });
  });
  // `events`: whether every consumer is in its group now (false while one starts, or rejoins after a crash or a
  // Kafka outage). It does not make the service unready (it serves requests meanwhile, and its consumers catch
  // up from where they are), but a launcher that wants the whole system settled (make dev, the browser tests)
  // waits for it too.
  const eventsJoined = () => consumers.every((consumer) => consumer.joined);
  app.get('/readyz', async (_req, res) => {
    const [mongo, kafkaUp] = await Promise.all([pingMongo(connection), kafkaReady()]);
    const ready = mongo && kafkaUp;
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'not ready', mongo, kafka: kafkaUp, events: eventsJoined() });
  });
  // Beside the probes, on the service's own port, which only the cluster reaches: the gateway forwards
  // /graphql and the catalog's plain HTTP routes, never this.
  app.get('/metrics', metricsEndpoint(metrics));
  app.use('/graphql', onlyFromHaven(config, log));
  if (httpRoutes) app.use(httpRoutesPath, onlyFromGateway(config.SUBGRAPH_SECRET, log), httpRoutes.router);
  app.use(
    '/graphql',
    express.json({ limit: '100kb' }),
    expressMiddleware(apollo, {
      context: async ({ req, res }) => {
        const correlationId = req.header(correlationHeader) ?? randomUUID(); // set by requestLogger
        const token = bearerToken(req.header('authorization'));
        const session = token ? verifySessionToken(token, config.JWT_PUBLIC_KEY) : null;
        const caller = callerOf(req, config);
        const base: RequestContext = {
          session,
          sessionToken: session ? token : null,
          access: accessFacts(session, token && parts.accessSources ? parts.accessSources(token) : {}),
          correlationId,
          clientAddress: clientAddressOf(req, caller.gateway),
          caller,
          log: log.child({ correlationId, requestId: randomUUID() }),
          setSessionToken: (value) => res.setHeader(sessionHeader, value ?? ''),
          endSessionsOf: (userIds) => {
            const already = String(res.getHeader(sessionsEndedHeader) ?? '');
            const all = new Set([...already.split(','), ...userIds].filter(Boolean));
            res.setHeader(sessionsEndedHeader, [...all].join(','));
          },
          recheckSessionsOf: (userIds) => {
            const already = String(res.getHeader(sessionsRecheckHeader) ?? '');
            const all = new Set([...already.split(','), ...userIds].filter(Boolean));
            res.setHeader(sessionsRecheckHeader, [...all].join(','));
          },
          visitorId: req.header(visitorHeader) || null,
          setVisitorCookie: (value) => res.setHeader(visitorCookieHeader, value ?? ''),
          signInBinding: req.header(signInBindingHeader) || null,
        };
        if (!parts.buildContext) return base as Context;
        try {
          return await parts.buildContext(base);
        } catch (error) {
          if (isDatabaseUnavailable(error)) throw serviceUnavailable(databaseUnavailableMessage);
          throw error;
        }
      },
    }),
  );

  app.use(bodyErrorHandler(log));

  await new Promise<void>((resolve) =>
    httpServer.listen(config.PORT, config.HOST ?? defaultHost(config.NODE_ENV), resolve),
  );
  const port = (httpServer.address() as AddressInfo).port;
  log.info({ port }, `${name} service listening`);

  let stopped: Promise<void> | null = null;
  const stop = () => {
    stopped ??= (async () => {
      await apollo.stop();
      await closeServer(httpServer);
      await lagMetrics.close();
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await relay?.stop();
      await platformSweep.stop();
      await parts.onStop?.();
      await kafkaReady.close();
      await connection.close();
      log.info(`${name} service stopped`);
    })();
    return stopped;
  };
  const eventsReady = Promise.all(consumers.map((consumer) => consumer.ready)).then(() => undefined);
  return { name, port, url: `http://127.0.0.1:${port}/graphql`, relay, eventsReady, stop };
}

/** Readiness of Kafka: one admin client, kept connected, asked for the cluster with a short deadline. */
function kafkaProbe(kafka: Kafka): (() => Promise<boolean>) & { close(): Promise<void> } {
  const admin = kafka.admin();
  let connected: Promise<void> | null = null;
  const probe = async () => {
    try {
      connected ??= admin.connect();
      await connected;
      await Promise.race([
        admin.describeCluster(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 2_000).unref()),
      ]);
      return true;
    } catch {
      connected = null;
      return false;
    }
  };
  return Object.assign(probe, { close: () => admin.disconnect().catch(() => undefined) });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

type Env = Record<string, string | undefined>;

export interface ServiceDefinition<Shape extends z.ZodRawShape, Context extends RequestContext> {
  name: ProducerService;
  /** baseConfigShape(name, port) plus the service's own settings. */
  configShape: Shape;
  /** The folder of main.ts, where schema.graphql lives. */
  dir: string;
  build: (
    runtime: ServiceRuntime<z.infer<z.ZodObject<Shape>> & BaseConfig>,
  ) => Omit<ServiceParts<Context>, 'typeDefs'> | Promise<Omit<ServiceParts<Context>, 'typeDefs'>>;
}

/** A service's start function: reads its configuration from `env` and starts it (tests pass their own env). */
export function defineService<Shape extends z.ZodRawShape, Context extends RequestContext = RequestContext>(
  definition: ServiceDefinition<Shape, Context>,
): (env?: Env) => Promise<RunningService> {
  return (env = process.env) => {
    const config = loadConfig(definition.configShape, env) as z.infer<z.ZodObject<Shape>> & BaseConfig;
    const typeDefs = loadTypeDefs(join(definition.dir, 'schema.graphql'));
    return startService<typeof config, Context>(definition.name, config, async (runtime) => ({
      typeDefs,
      ...(await definition.build(runtime)),
    }));
  };
}

/** Runs a service as a process: starts it and stops it gracefully on SIGTERM or SIGINT. */
export function runMain(name: ProducerService, start: () => Promise<RunningService>): void {
  // First, so every span of the process is recorded (only with OTEL_EXPORTER_OTLP_ENDPOINT).
  const tracing = startTracingFromEnv(process.env.OTEL_SERVICE_NAME ?? name);
  start().then(
    (service) => {
      const shutdown = (signal: string) => {
        process.stderr.write(`${service.name}: ${signal}, shutting down\n`);
        service
          .stop()
          .then(() => tracing.stop())
          .then(
            () => process.exit(0),
            () => process.exit(1),
          );
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
    },
    (error: unknown) => {
      process.stderr.write(`failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
