import {
  catalogEntry,
  clientAddressHeader,
  correlationHeader,
  serviceCredentialHeader,
  subgraphSecretHeader,
  visitorHeader,
  type HttpRoute,
  type Logger,
} from '@haven/platform';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { GatewayContext } from './graphql';
import { subgraphs, type SubgraphName } from './supergraph';

/** Headers that belong to one hop, or that only the gateway may set towards a subgraph. */
const notForwarded = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
  'cookie',
  'authorization',
  subgraphSecretHeader,
  serviceCredentialHeader,
  clientAddressHeader,
]);
const notReturned = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

export const hookBodyLimit = '1mb';

/** One declared route as the gateway forwards it: the service, and the path below its /http. */
interface Forwarded {
  service: SubgraphName;
  path: string;
}

/** The request's path exactly as the client sent it (no decoding, no dot segments resolved), and its query. */
function rawTarget(req: Request): { path: string; query: string } {
  const url = req.originalUrl;
  const mark = url.indexOf('?');
  return mark < 0 ? { path: url, query: '' } : { path: url.slice(0, mark), query: url.slice(mark) };
}

/**
 * Plain HTTP routes of the services (webhooks, form posts, the export's download): `METHOD /hooks/<service><path>`
 * goes to that service's `/http<path>` with the body's bytes untouched, never as a GraphQL operation, for the
 * routes the catalog declares (`httpRoutes`) and no others. The raw request path must equal a declared one,
 * byte for byte: percent-encoded dots or slashes, `..`, `.`, doubled slashes and backslashes are a 404 here, so
 * no spelling that a URL parser would resolve elsewhere (a subgraph's /graphql) ever leaves the gateway. The
 * target is built from the declaration, never from the request. The gateway adds what it adds to GraphQL calls
 * (secret, correlation id, client address, session, visitor); a client's own `x-haven-*` headers never arrive
 * here (edge.ts).
 */
export function hookRouter(
  serviceUrls: Record<SubgraphName, string>,
  options: { secret: string | undefined; timeoutMs: number; contextOf: (req: Request) => GatewayContext; log: Logger },
): { router: Router; forward(service: SubgraphName, route: HttpRoute): RequestHandler } {
  const declared = new Map<string, Forwarded>();
  for (const { name, httpRoutes } of subgraphs) {
    for (const route of httpRoutes) {
      const [method, path] = route.split(' ') as [string, string];
      declared.set(`${method} /hooks/${name}${path}`, { service: name, path });
    }
  }
  const readBody = express.raw({ type: () => true, limit: hookBodyLimit });

  const pass = async (req: Request, res: Response, { service, path }: Forwarded) => {
    const context = options.contextOf(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || notForwarded.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    if (options.secret) headers.set(subgraphSecretHeader, options.secret);
    headers.set(correlationHeader, context.correlationId);
    headers.set(clientAddressHeader, context.clientIp);
    if (context.sessionToken) headers.set('authorization', `Bearer ${context.sessionToken}`);
    if (context.visitorId) headers.set(visitorHeader, context.visitorId);
    const target = new URL(serviceUrls[service]);
    target.pathname = `/http${path}`;
    target.search = rawTarget(req).query;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && Buffer.isBuffer(req.body);
    let answer: globalThis.Response;
    try {
      answer = await fetch(target, {
        method: req.method,
        headers,
        body: hasBody ? (req.body as Buffer) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      context.log.warn({ err: error, service }, 'hook route failed');
      res.status(503).json({
        message: timedOut
          ? `The ${service} service did not answer in time. Please try again shortly.`
          : `The ${service} service is unavailable. Please try again shortly.`,
      });
      return;
    }
    res.status(answer.status);
    answer.headers.forEach((value, name) => {
      if (!notReturned.has(name)) res.setHeader(name, value);
    });
    res.end(Buffer.from(await answer.arrayBuffer()));
  };

  const router = express.Router();
  router.use((req: Request, res: Response, next: NextFunction) => {
    const route = declared.get(`${req.method} ${rawTarget(req).path}`);
    if (!route) {
      res.status(404).json({ message: 'No such route' });
      return;
    }
    readBody(req, res, (error?: unknown) => (error ? next(error) : void pass(req, res, route)));
  });

  return {
    router,
    /** A gateway route of its own (GET /api/user/export) that goes to one declared route of a service. */
    forward: (service, route) => {
      const [method, path] = route.split(' ') as [string, string];
      if (!catalogEntry(service).httpRoutes.includes(route)) {
        throw new Error(`${route} is not a declared route of the ${service} service`);
      }
      return (req, res, next) => {
        if (req.method !== method) {
          next();
          return;
        }
        readBody(req, res, (error?: unknown) => (error ? next(error) : void pass(req, res, { service, path })));
      };
    },
  };
}
