import type { ApolloServer } from '@apollo/server';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { print } from 'graphql';
import type { GatewayContext } from '../graphql';
import { restErrorOf } from './errors';
import { logoutOperation, restRoutes, type RestRoute } from './routes';
import { mountFederatedSignIn } from './sign-in';

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

/** POST and PATCH carry a JSON body; GET and DELETE read the query string and the path. */
const routeTakesBody = (route: RestRoute) => route.method === 'POST' || route.method === 'PATCH';

function handler(server: ApolloServer<GatewayContext>, route: RestRoute, contextOf: ContextOf) {
  return async (req: Request, res: Response) => {
    // A body, when sent, must be a JSON object, also where the route reads none: `[]` is a mistake, not "no input".
    const sentBody: unknown = routeTakesBody(route) ? req.body : undefined;
    const isObject = typeof sentBody === 'object' && sentBody !== null && !Array.isArray(sentBody);
    if (routeTakesBody(route) && (sentBody !== undefined || route.variables) && !isObject) {
      res.status(400).json({ message: 'Request body must be a JSON object (Content-Type: application/json)' });
      return;
    }
    let variables: Record<string, unknown> | undefined;
    if (route.variables) {
      const body = (isObject ? sentBody : {}) as Record<string, unknown>;
      const problem = route.validate?.(body);
      if (problem) {
        res.status(400).json({ ...problem, problems: [problem] });
        return;
      }
      variables = route.variables(body, {
        query: req.query as Record<string, unknown>,
        params: req.params as Record<string, string>,
        header: (name) => req.header(name),
      });
    }
    const { result, headers, status } = await execute(server, contextOf(req), route.operation, variables);
    const cookie = headers.get('set-cookie');
    if (cookie) res.setHeader('set-cookie', cookie);
    // The gateway's own refusal sets the header; a subgraph's arrives as the error's retryAfterSeconds.
    const retryAfter = headers.get('retry-after') ?? result.errors?.[0]?.extensions?.retryAfterSeconds;
    if (retryAfter !== undefined) res.setHeader('retry-after', String(retryAfter));
    if (result.errors?.length) {
      const error = restErrorOf(result.errors);
      res.status(status && status >= 400 ? status : error.status).json(error.body);
      return;
    }
    const data = (result.data ?? {}) as Record<string, unknown>;
    const reply = route.reply(data);
    if (reply === null) {
      const whenNull = route.whenNull ?? { status: 401, message: 'Not signed in' };
      res.status(whenNull.status).json({ message: whenNull.message });
      return;
    }
    if (route.headers) res.set(route.headers(data));
    if (route.download && !Array.isArray(reply)) {
      const file = route.download(reply);
      res
        .status(route.status ?? 200)
        .attachment(file.fileName)
        .type(file.type)
        .send(file.body);
      return;
    }
    res.status(route.status ?? 200).json(reply);
  };
}

/** A navigation from Haven's own pages: Sec-Fetch-Site says so, or (older browsers) the Referer does. */
export function sameOriginNavigation(req: Request, appOrigin: string): boolean {
  const site = req.header('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const referer = req.header('referer');
  if (!referer) return false;
  try {
    const origin = new URL(referer).origin;
    return origin === appOrigin || origin === `${req.protocol}://${req.header('host')}`;
  } catch {
    return false;
  }
}

/** Plain HTML, no script (the CSP allows none inline), styled to sit quietly in either theme. */
const signOutPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Sign out of Haven?</title>
<style>
  body { font-family: system-ui, sans-serif; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  main { max-width: 22rem; padding: 1.5rem; text-align: center; }
  button { font: inherit; padding: 0.6rem 1.4rem; border-radius: 0.5rem; border: none; background: #4f46e5; color: #fff; cursor: pointer; }
  a { display: inline-block; margin-top: 1rem; color: inherit; }
</style>
</head>
<body>
<main>
  <h1>Sign out of Haven?</h1>
  <p>Press the button to sign out on this device. Your check-ins and quotes stay safe.</p>
  <form method="post" action="/api/logout"><button type="submit">Sign out</button></form>
  <a href="/">Stay signed in</a>
</main>
</body>
</html>
`;

export function restRouter(
  server: ApolloServer<GatewayContext>,
  contextOf: ContextOf,
  clearSessionCookie: string,
  appOrigin: string,
  secureCookies: boolean,
): Router {
  const router = express.Router();
  // A route with a limit of its own reads its body first; the facade's parser then leaves a read body alone.
  for (const route of restRoutes) {
    const limit = route.bodyLimit;
    if (!limit || !routeTakesBody(route)) continue;
    const method = route.method.toLowerCase() as 'post' | 'patch';
    router[method](
      route.path.replace(/^\/api/, ''),
      express.json({ limit: limit.bytes }),
      (error: unknown, _req: Request, res: Response, next: NextFunction) => {
        if ((error as { type?: string } | null)?.type !== 'entity.too.large') return next(error);
        const problem = { field: limit.field, message: limit.message };
        res.status(400).json({ ...problem, problems: [problem] });
      },
    );
  }
  router.use(express.json({ limit: restBodyLimit }));

  for (const route of restRoutes) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    router[method](route.path.replace(/^\/api/, ''), handler(server, route, contextOf));
  }

  // Sign-out is a browser navigation: end the session, clear the cookie, go home. Only a navigation
  // shown to come from Haven itself signs out at once; any other (a link on another site, an older browser
  // that says nothing) gets a page with a button, so a link elsewhere cannot sign anyone out.
  const signOut = async (req: Request, res: Response) => {
    await execute(server, contextOf(req), logoutOperation);
    res.setHeader('set-cookie', clearSessionCookie);
  };
  router.get('/logout', async (req, res) => {
    if (!sameOriginNavigation(req, appOrigin)) {
      res.setHeader('cache-control', 'no-store');
      res.type('html').send(signOutPage);
      return;
    }
    await signOut(req, res);
    res.redirect(302, '/');
  });
  // The page's button (the CSRF check on POST has already made sure it came from Haven's own origin).
  router.post('/logout', async (req, res) => {
    await signOut(req, res);
    res.redirect(303, '/');
  });

  // Google and the hosted platform (OpenID Connect). A provider that is not configured sends its button
  // back to /auth, which says so, instead of to a dead end.
  const runSignIn = async <Data, Variables extends Record<string, unknown>>(
    req: Request,
    operation: TypedDocumentNode<Data, Variables>,
    variables: Variables,
  ) => {
    const { result, headers } = await execute(server, contextOf(req), print(operation), variables);
    // The data is what the operation asked, as its generated type says (checked against the API schema).
    return { result: result as Omit<typeof result, 'data'> & { data?: Data | null }, headers };
  };
  mountFederatedSignIn(router, runSignIn, {
    secureCookies,
    otherAuthRoutes: new Set(restRoutes.flatMap((route) => /^\/api\/auth\/([^/]+)$/.exec(route.path)?.slice(1) ?? [])),
  });

  router.use((req, res) => {
    res.status(404).json({ message: `No such API route: ${req.method} ${req.baseUrl}${req.path}` });
  });
  return router;
}
