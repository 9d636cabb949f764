import type { NextFunction, Request, Response } from 'express';

/** Headers Haven's own parts speak to each other in; a client never gets to say any of them. */
export const havenHeaderPrefix = 'x-haven-';

/**
 * Drops every `x-haven-*` header a client sent, before anything reads the request: the gateway sets the ones
 * it owns (secret, client address, visitor, sign-in binding) from what it checked itself, for GraphQL, the REST
 * facade and the hook proxy alike, so a client cannot speak for the gateway by naming one.
 */
export function dropClientHavenHeaders(req: Request, _res: Response, next: NextFunction): void {
  for (const name of Object.keys(req.headers)) {
    if (name.startsWith(havenHeaderPrefix)) delete req.headers[name];
  }
  next();
}
