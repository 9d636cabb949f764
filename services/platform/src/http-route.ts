import type express from 'express';

/**
 * The route a request matched, as written in the code ('/http/unsubscribe/:token'), or 'unmatched': what metrics
 * and spans name a request by, never its path with ids in it.
 */
export function routeTemplateOf(req: express.Request): string {
  const route = (req as { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}` || '/';
  // A middleware that answered (Apollo at /graphql, static files under a mount) leaves only its mount path.
  return req.baseUrl || 'unmatched';
}
