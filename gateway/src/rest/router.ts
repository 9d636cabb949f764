import type { ApolloServer } from '@apollo/server';
import express, { type Request, type Response, type Router } from 'express';
import type { GatewayContext } from '../graphql';
import { restErrorOf } from './errors';
import { logoutOperation, restRoutes, type RestRoute } from './routes';

export const restBodyLimit = '16kb';

type ContextOf = (req: Request) => GatewayContext;

async function execute(
  server: ApolloServer<GatewayContext>,
  context: GatewayContext,
  query: string,
  variables?: Record<string, unknown>,
) {
  const response = await server.executeOperation({ query, variables }, { contextValue: context });
  if (response.body.kind !== 'single') throw new Error('incremental delivery is not used by the REST facade');
  return { result: response.body.singleResult, headers: response.http.headers, status: response.http.status };
}

function handler(server: ApolloServer<GatewayContext>, route: RestRoute, contextOf: ContextOf) {
  return async (req: Request, res: Response) => {
    let variables: Record<string, unknown> | undefined;
    if (route.variables) {
      const body: unknown = req.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        res.status(400).json({ message: 'Request body must be a JSON object (Content-Type: application/json)' });
        return;
      }
      variables = route.variables(body as Record<string, unknown>);
    }
    const { result, headers, status } = await execute(server, contextOf(req), route.operation, variables);
    const cookie = headers.get('set-cookie');
    if (cookie) res.setHeader('set-cookie', cookie);
    const retryAfter = headers.get('retry-after');
    if (retryAfter) res.setHeader('retry-after', retryAfter);
    if (result.errors?.length) {
      const error = restErrorOf(result.errors);
      res.status(status && status >= 400 ? status : error.status).json(error.body);
      return;
    }
    const reply = route.reply((result.data ?? {}) as Record<string, unknown>);
    if (reply === null) {
      res.status(401).json({ message: 'Not signed in' });
      return;
    }
    res.status(route.status ?? 200).json(reply);
  };
}

export function restRouter(
  server: ApolloServer<GatewayContext>,
  contextOf: ContextOf,
  clearSessionCookie: string,
): Router {
  const router = express.Router();
  router.use(express.json({ limit: restBodyLimit }));

  for (const route of restRoutes) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    router[method](route.path.replace(/^\/api/, ''), handler(server, route, contextOf));
  }

  // Sign-out is a browser navigation (spec): end the session, clear the cookie, go home.
  router.get('/logout', async (req, res) => {
    // A cross-site link must not sign anyone out (the Lax cookie rides along on top-level GETs).
    if (req.header('sec-fetch-site') !== 'cross-site') {
      await execute(server, contextOf(req), logoutOperation);
      res.setHeader('set-cookie', clearSessionCookie);
    }
    res.redirect(302, '/');
  });

  // Google and the hosted platform arrive with the sign-in providers issue. Until a provider is
  // configured its button leads back to /auth, which says so, instead of to a dead end.
  for (const [path, provider] of [
    ['/auth/google', 'google'],
    ['/login', 'platform'],
  ] as const) {
    router.get(path, (_req, res) => res.redirect(302, `/auth?signin=unavailable&provider=${provider}`));
  }

  router.use((req, res) => {
    res.status(404).json({ message: `No such API route: ${req.method} ${req.baseUrl}${req.path}` });
  });
  return router;
}
