/**
 * Sign-in with Google (`/api/auth/google`) and the hosted platform (`/api/login`): browser navigations. The
 * user service owns the flow and the accounts; this file owns what only a browser has: the redirects, the
 * session cookie, and a short-lived cookie that binds a started sign-in to this browser, so a callback URL
 * made in another browser (login CSRF) or replayed elsewhere signs nobody in.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { GraphQLFormattedError } from 'graphql';
import type { Request, Response, Router } from 'express';
import { randomBytes } from 'node:crypto';
import { cookieName, readCookie } from '../session';
import { CompleteFederatedSignInDocument, StartFederatedSignInDocument } from './sign-in.generated';

export const signInBindingCookieName = 'haven_signin';
/** As long as the user service keeps a started flow. */
const bindingMaxAgeSeconds = 10 * 60;

/** The sign-in start routes, and the callback routes registered at each provider as redirect URIs. */
export const federatedSignInRoutes = [
  { provider: 'GOOGLE', name: 'google', start: '/auth/google', callback: '/auth/google/callback' },
  { provider: 'PLATFORM', name: 'platform', start: '/login', callback: '/callback' },
] as const;

/** Runs one of sign-in.graphql's operations for the request: its data typed by what the operation asks. */
export type RunOperation = <Data, Variables extends Record<string, unknown>>(
  req: Request,
  operation: TypedDocumentNode<Data, Variables>,
  variables: Variables,
) => Promise<{
  result: { data?: Data | null; errors?: readonly GraphQLFormattedError[] };
  headers: { get(name: string): string | undefined | null };
}>;

/**
 * Set-Cookie for the binding: httpOnly, SameSite=Lax (it must ride along the provider's top-level redirect back),
 * `Path=/` so the link step (/graphql or /api) carries it too and a `__Host-` name is allowed in production.
 */
export function bindingCookie(value: string | null, secure: boolean): string {
  const name = cookieName(signInBindingCookieName, secure);
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
  return value === null
    ? [`${name}=`, ...attributes, 'Max-Age=0'].join('; ')
    : [`${name}=${value}`, ...attributes, `Max-Age=${bindingMaxAgeSeconds}`].join('; ');
}

/** 32 random bytes, base64url: what this gateway puts in the cookie; anything else there is ignored. */
const bindingPattern = /^[\w-]{43}$/;

export function bindingOf(req: Request, secure: boolean): string | null {
  const value = readCookie(req.headers.cookie, cookieName(signInBindingCookieName, secure));
  return value && bindingPattern.test(value) ? value : null;
}

/** Why it failed, as the user service said (`reason`), else from the error's code. */
function reasonOf(errors: readonly GraphQLFormattedError[]): string {
  const [error] = errors;
  const reason = error?.extensions?.reason;
  if (typeof reason === 'string' && /^[a-z_]{1,32}$/.test(reason)) return reason;
  if (error?.extensions?.code === 'TOO_MANY_REQUESTS') return 'busy';
  if (error?.extensions?.code === 'SERVICE_UNAVAILABLE') return 'unreachable';
  return 'failed';
}

/** Back to /auth, whose page says what happened for the reason given (never a message from the URL). */
function backToAuth(res: Response, provider: string, reason: string): void {
  const query =
    reason === 'unavailable'
      ? new URLSearchParams({ signin: 'unavailable', provider })
      : new URLSearchParams({ signin: 'failed', provider, reason });
  res.redirect(302, `/auth?${query.toString()}`);
}

/** The query string exactly as the provider sent it (its `iss`, `state` and `code` are checked as given). */
function rawQuery(req: Request): string {
  const at = req.originalUrl.indexOf('?');
  return at === -1 ? '' : req.originalUrl.slice(at + 1);
}

export function mountFederatedSignIn(
  router: Router,
  run: RunOperation,
  options: { secureCookies: boolean; otherAuthRoutes: ReadonlySet<string> },
): void {
  for (const route of federatedSignInRoutes) {
    router.get(route.start, async (req, res) => {
      res.setHeader('cache-control', 'no-store');
      // One binding per browser for its open sign-ins: a second tab's sign-in keeps the first one working.
      const binding = bindingOf(req, options.secureCookies) ?? randomBytes(32).toString('base64url');
      const { result } = await run(req, StartFederatedSignInDocument, {
        input: {
          provider: route.provider,
          browserBinding: binding,
          // The web app adds the browser's time zone, for an account this sign-in creates.
          timeZone: typeof req.query.timeZone === 'string' ? req.query.timeZone.slice(0, 100) : undefined,
        },
      });
      const started = result.data?.startFederatedSignIn;
      if (result.errors?.length || !started) {
        backToAuth(res, route.name, reasonOf(result.errors ?? []));
        return;
      }
      res.setHeader('set-cookie', bindingCookie(binding, options.secureCookies));
      res.redirect(302, started.authorizationUrl);
    });

    router.get(route.callback, async (req, res) => {
      res.setHeader('cache-control', 'no-store');
      const { result, headers } = await run(req, CompleteFederatedSignInDocument, {
        input: {
          provider: route.provider,
          callbackQuery: rawQuery(req),
          browserBinding: bindingOf(req, options.secureCookies),
        },
      });
      const completed = result.data?.completeFederatedSignIn;
      if (result.errors?.length || !completed) {
        backToAuth(res, route.name, reasonOf(result.errors ?? []));
        return;
      }
      if (completed.linkToken) {
        // The account exists and its password decides: /auth asks for it (the token works once, 10 minutes).
        res.redirect(302, `/auth?${new URLSearchParams({ link: completed.linkToken, provider: route.name })}`);
        return;
      }
      // Signed in exactly as a password sign-in is: the session cookie the user service asked for.
      const session = headers.get('set-cookie');
      if (session) res.append('set-cookie', session);
      res.append('set-cookie', bindingCookie(null, options.secureCookies));
      res.redirect(302, '/');
    });
  }

  // Any other provider name (a mistyped or retired link) lands on /auth with a note, not on a JSON 404.
  const unknownProvider = (req: Request, res: Response, next: () => void) => {
    if (options.otherAuthRoutes.has(req.params.provider as string)) return next();
    res.setHeader('cache-control', 'no-store');
    backToAuth(res, String(req.params.provider).slice(0, 32), 'unknown_provider');
  };
  router.get('/auth/:provider', unknownProvider);
  router.get('/auth/:provider/callback', unknownProvider);
}
