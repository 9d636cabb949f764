import { clientAddressHeader, correlationHeader, subgraphSecretHeader, type Logger } from '@haven/platform';
import express, { type Request, type Response, type Router } from 'express';
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
  clientAddressHeader,
]);
const notReturned = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

export const hookBodyLimit = '1mb';

/**
 * Plain HTTP routes of the services (webhooks, form posts), routed by prefix: /hooks/<service>/<path>
 * goes to that service's /http/<path> with the body's bytes untouched, never as a GraphQL operation.
 * The gateway adds what it adds to GraphQL calls (secret, correlation id, client address, session).
 */
export function hookRouter(
  serviceUrls: Record<SubgraphName, string>,
  options: { secret: string | undefined; timeoutMs: number; contextOf: (req: Request) => GatewayContext; log: Logger },
): Router {
  const router = express.Router();
  const known = new Set<string>(subgraphs.map(({ name }) => name));
  router.use(
    '/:service',
    express.raw({ type: () => true, limit: hookBodyLimit }),
    async (req: Request<{ service: string }>, res: Response) => {
      const service = req.params.service;
      if (!known.has(service)) {
        res.status(404).json({ message: `No such service: ${service}` });
        return;
      }
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
      const target = new URL(serviceUrls[service as SubgraphName]);
      target.pathname = `/http${req.url === '/' ? '' : req.url.split('?')[0]}`;
      target.search = new URL(req.originalUrl, 'http://gateway').search;
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
    },
  );
  return router;
}
