import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import {
  bodyErrorHandler,
  connectMongo,
  correlationHeader,
  createLogger,
  defaultHost,
  MongoRateLimitStore,
  pingMongo,
  startPlatformSweep,
  requestLogger,
  type Logger,
  createHttpServer,
  createMetricsRegistry,
  httpMetrics,
  metricsEndpoint,
  rateLimitRefusalCounter,
  tracedRequests,
} from '@haven/platform';
import express from 'express';
import helmet from 'helmet';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { GatewayConfig } from './config';
import { sameOriginOnly } from './csrf';
import { dropClientHavenHeaders } from './edge';
import { exportLimit } from './export-limit';
import { createGatewayServer, serviceUrlsOf, type GatewayContext } from './graphql';
import { hookRouter } from './hooks';
import { restRouter } from './rest/router';
import { bindingOf } from './rest/sign-in';
import { sessionCookie, sessionTokenOf, visitorIdOf } from './session';
import { checkedSessionToken, checkSession, sessionCheck } from './session-check';
import { PrerenderedPages } from './pages';
import { inlineScriptHashes, readIndexHtml, serveWeb } from './web';

export interface RunningGateway {
  port: number;
  /** The internal port of /metrics (METRICS_PORT), or null when it is not served. */
  metricsPort: number | null;
  url: string;
  stop(): Promise<void>;
}

const graphqlBodyLimit = '100kb';

const stripe = { js: 'https://js.stripe.com', api: 'https://api.stripe.com', hooks: 'https://hooks.stripe.com' };

export async function startGateway(
  config: GatewayConfig,
  log: Logger = createLogger('gateway', config.LOG_LEVEL),
): Promise<RunningGateway> {
  const app = express();
  app.disable('x-powered-by');
  // Only the listed proxies may name the client in X-Forwarded-For; by default nobody can.
  app.set('trust proxy', config.TRUSTED_PROXIES);
  const metrics = createMetricsRegistry('gateway');
  app.use(httpMetrics(metrics));
  app.use(tracedRequests('gateway'));
  app.use(dropClientHavenHeaders);
  const httpServer: Server = createHttpServer(app);
  const connection = await connectMongo(config.MONGO_URL, config.MONGO_DB);
  const rateLimitStore = new MongoRateLimitStore(connection);
  // Its logs past their window go hourly, also on the embedded server, which ignores their TTL index.
  const platformSweep = startPlatformSweep(connection, log);
  const rateLimitRefusals = rateLimitRefusalCounter(metrics);
  const server = createGatewayServer(
    config,
    log,
    rateLimitStore,
    [ApolloServerPluginDrainHttpServer({ httpServer })],
    rateLimitRefusals,
  );
  await server.start();

  const distDir = resolve(config.WEB_DIST_DIR);
  const indexHtml = readIndexHtml(distDir);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", stripe.js, ...inlineScriptHashes(indexHtml ?? '')],
          frameSrc: [stripe.js, stripe.hooks],
          connectSrc: ["'self'", stripe.api],
          imgSrc: ["'self'", 'data:', 'https:'],
          // Radix positions popovers with inline styles.
          styleSrc: ["'self'", "'unsafe-inline'"],
          upgradeInsecureRequests: config.COOKIE_SECURE ? [] : null,
        },
      },
      strictTransportSecurity: config.COOKIE_SECURE,
    }),
  );

  app.use(requestLogger(log, correlationHeader));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: 'gateway' });
  });
  app.get('/readyz', async (_req, res) => {
    const mongo = await pingMongo(connection);
    res.status(mongo ? 200 : 503).json({ status: mongo ? 'ready' : 'not ready', mongo });
  });

  const sessions = sessionCheck({
    userServiceUrl: config.USER_SERVICE_URL,
    secret: config.SUBGRAPH_SECRET,
    ttlMs: config.SESSION_CHECK_TTL_MS,
    timeoutMs: config.SUBGRAPH_TIMEOUT_MS,
  });
  const contextOf = (req: express.Request): GatewayContext => {
    const correlationId = req.header(correlationHeader) ?? randomUUID(); // set by requestLogger
    const sessionToken = checkedSessionToken(req);
    return {
      sessionToken,
      onSessionEnded: sessionToken ? () => sessions.revoke(sessionToken) : undefined,
      onUserSessionsEnded: (userId) => sessions.revokeUser(userId),
      onUserSessionsChanged: (userId) => sessions.forgetUser(userId),
      correlationId,
      clientIp: req.ip ?? 'unknown',
      log: log.child({ correlationId }),
      visitorId: visitorIdOf(req, config.COOKIE_SECURE),
      signInBinding: bindingOf(req, config.COOKIE_SECURE),
    };
  };

  app.use(sameOriginOnly([new URL(config.APP_URL).origin]));
  // Every way in that forwards a session: a revoked one is dropped here, for all five subgraphs.
  app.use(
    ['/api', '/graphql', '/hooks'],
    checkSession(sessions, { publicKey: config.JWT_PUBLIC_KEY, secureCookies: config.COOKIE_SECURE }, log),
  );
  const hooks = hookRouter(serviceUrlsOf(config), {
    secret: config.SUBGRAPH_SECRET,
    timeoutMs: config.SUBGRAPH_TIMEOUT_MS,
    contextOf,
    log,
  });
  app.use('/hooks', hooks.router);
  const exports = exportLimit(
    rateLimitStore,
    { max: config.RATE_LIMIT_EXPORT_MAX, windowMs: config.RATE_LIMIT_EXPORT_WINDOW_MS },
    config.JWT_PUBLIC_KEY,
    config.SUBGRAPH_SECRET,
    rateLimitRefusals,
  );
  // The data export is a file download: the quote service's /http/export, forwarded like a hook.
  app.get('/api/user/export', exports, hooks.forward('quote', 'GET /export'));
  app.get('/api/user/data-export', exports);
  app.use(
    '/api',
    restRouter(
      server,
      contextOf,
      sessionCookie(null, config.COOKIE_SECURE),
      new URL(config.APP_URL).origin,
      config.COOKIE_SECURE,
    ),
  );
  app.use(
    '/graphql',
    express.json({ limit: graphqlBodyLimit }),
    expressMiddleware(server, { context: async ({ req }) => contextOf(req) }),
  );
  serveWeb(
    app,
    distDir,
    {
      indexHtml,
      prerendered: PrerenderedPages.load(distDir, new URL(config.APP_URL).origin),
      hasSession: (req) => sessionTokenOf(req, config.JWT_PUBLIC_KEY, config.COOKIE_SECURE) !== null,
    },
    log,
  );
  // Whatever went wrong on the way (a malformed body, a bug), the reply is JSON without internals.
  app.use(bodyErrorHandler(log));

  await new Promise<void>((done) => httpServer.listen(config.PORT, config.HOST ?? defaultHost(config.NODE_ENV), done));
  const port = (httpServer.address() as AddressInfo).port;
  log.info({ port }, 'gateway listening');
  // The public port is the internet's: /metrics is served on a port of its own, which no ingress or
  // Service forwards, rather than behind a token a scraper would have to keep.
  let metricsServer: Server | null = null;
  if (config.METRICS_PORT !== undefined) {
    const metricsApp = express();
    metricsApp.disable('x-powered-by');
    metricsApp.get('/metrics', metricsEndpoint(metrics));
    metricsServer = createHttpServer(metricsApp);
    const listening = metricsServer;
    await new Promise<void>((done) =>
      listening.listen(config.METRICS_PORT, config.HOST ?? defaultHost(config.NODE_ENV), done),
    );
  }
  const metricsPort = metricsServer ? (metricsServer.address() as AddressInfo).port : null;
  return {
    port,
    metricsPort,
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.stop();
      await new Promise((done) => httpServer.close(done));
      if (metricsServer) await new Promise((done) => metricsServer!.close(done));
      await platformSweep.stop();
      await connection.close();
    },
  };
}
