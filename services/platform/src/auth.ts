import jwt from 'jsonwebtoken';
import { createHash, createPrivateKey, createPublicKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from './logger';

/** What a session token proves: who the user is, and which session (so it can be revoked). */
export interface SessionClaims {
  userId: string;
  sessionId: string;
  /** When the session was opened (the token's `iat`, seconds): a session is issued once, at sign-in. */
  issuedAt?: number;
}

const issuer = 'haven';
const audience = 'haven';
// Asymmetric: only the user service holds the private key; everyone else verifies.
const algorithm = 'ES256';

// Parsing a PEM costs more than checking a signature, and every request checks one: each key (a configuration
// value, so a handful per process) is parsed once.
const parsedKeys = new Map<string, KeyObject>();
function parsedKey(pem: string, parse: (pem: string) => KeyObject): KeyObject {
  let key = parsedKeys.get(pem);
  if (!key) {
    key = parse(pem);
    parsedKeys.set(pem, key);
  }
  return key;
}

export function signSessionToken(
  claims: Pick<SessionClaims, 'userId' | 'sessionId'>,
  privateKey: string,
  ttlSeconds: number,
): string {
  return jwt.sign({}, parsedKey(privateKey, createPrivateKey), {
    algorithm,
    issuer,
    audience,
    subject: claims.userId,
    jwtid: claims.sessionId,
    expiresIn: ttlSeconds,
  });
}

/** Returns the claims of a valid, unexpired token, or null for anything else. */
export function verifySessionToken(token: string, publicKey: string): SessionClaims | null {
  try {
    const payload = jwt.verify(token, parsedKey(publicKey, createPublicKey), {
      algorithms: [algorithm],
      issuer,
      audience,
    });
    if (typeof payload === 'string' || !payload.sub || !payload.jti) return null;
    return {
      userId: payload.sub,
      sessionId: payload.jti,
      ...(typeof payload.iat === 'number' ? { issuedAt: payload.iat } : {}),
    };
  } catch {
    return null;
  }
}

export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer (.+)$/i.exec(authorization ?? '');
  return match?.[1] ?? null;
}

/**
 * Subgraphs tell the gateway to set or clear the session cookie through this
 * response header; the gateway never forwards it to the browser.
 */
export const sessionHeader = 'x-haven-session';
/**
 * Subgraphs name the users whose every session just ended (an account closed) in this response header,
 * comma-separated, so the gateway refuses their cookies at once; never forwarded to the browser.
 */
export const sessionsEndedHeader = 'x-haven-sessions-ended';
/**
 * The user service names the users some of whose sessions it just deleted (a verification, a password reset or
 * change, "sign out everywhere") in this response header, comma-separated: the gateway forgets what it remembers
 * about their tokens and asks again, so the ended ones stop at once and a new one of the same user works.
 */
export const sessionsRecheckHeader = 'x-haven-sessions-recheck';
export const correlationHeader = 'x-correlation-id';

/**
 * A signed-out visitor's cookie choice is kept under a random id in a first-party, httpOnly cookie of the
 * gateway's: the gateway forwards the id in `visitorHeader` (trusted like the session: only the gateway reaches
 * a subgraph), and a subgraph asks it to set (an id) or clear ('') the cookie with `visitorCookieHeader`.
 */
export const visitorHeader = 'x-haven-visitor';
export const visitorCookieHeader = 'x-haven-visitor-cookie';

/**
 * The browser's federated sign-in binding (the gateway's short-lived, httpOnly cookie set when a provider sign-in
 * starts), forwarded by the gateway so the user service can tell that a sign-in's later steps come from the
 * browser that started it; trusted like the session.
 */
export const signInBindingHeader = 'x-haven-signin-binding';

/** The gateway proves itself to the subgraphs with this header (SUBGRAPH_SECRET). */
export const subgraphSecretHeader = 'x-haven-subgraph-secret';
/** The client address the gateway decided on, for the subgraphs' own rate limits; trusted with the secret only. */
export const clientAddressHeader = 'x-haven-client-address';
/**
 * A Haven service proves itself to another with this header (SERVICE_SECRET): only services hold that secret,
 * the gateway does not, so nothing a user sends through the gateway carries it.
 */
export const serviceCredentialHeader = 'x-haven-service-credential';

/** Compares secrets in constant time (hashed first, so their lengths leak nothing either). */
export function sameSecret(offered: string | undefined, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(offered ?? ''), digest(expected)) && offered !== undefined;
}

/**
 * Subgraphs answer the gateway only: without the configured secret a request gets 401 (none offered)
 * or 403 (a wrong one). With no secret configured (development and tests may run so) every caller passes.
 */
export function onlyFromGateway(secret: string | undefined, log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!secret) return next();
    const offered = req.header(subgraphSecretHeader);
    if (sameSecret(offered, secret)) return next();
    log.warn({ ip: req.socket.remoteAddress, offered: offered !== undefined }, 'request without the gateway secret');
    res.status(offered === undefined ? 401 : 403).json({ message: 'This service answers the Haven gateway only' });
  };
}

/** The secrets a subgraph checks its callers against. */
export interface CallerSecrets {
  SUBGRAPH_SECRET?: string;
  SERVICE_SECRET?: string;
}

/** What a request's headers prove about its caller. */
export interface Caller {
  /** It carries the gateway's secret (the gateway, on a user's behalf). */
  gateway: boolean;
  /** It carries the service credential (another Haven service). */
  service: boolean;
}

export function callerOf(req: Request, secrets: CallerSecrets): Caller {
  const holds = (header: string, secret: string | undefined) =>
    secret !== undefined && sameSecret(req.header(header), secret);
  return {
    gateway: holds(subgraphSecretHeader, secrets.SUBGRAPH_SECRET),
    service: holds(serviceCredentialHeader, secrets.SERVICE_SECRET),
  };
}

/**
 * A subgraph's /graphql answers the gateway (its secret) and the other Haven services (the service credential),
 * nobody else: 401 without either, 403 with a wrong one. With no SUBGRAPH_SECRET configured (development and
 * tests may run so) every caller passes; the operations for services only still need the credential (access.ts).
 */
export function onlyFromHaven(secrets: CallerSecrets, log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!secrets.SUBGRAPH_SECRET) return next();
    const caller = callerOf(req, secrets);
    if (caller.gateway || caller.service) return next();
    const offered = req.header(subgraphSecretHeader) !== undefined || req.header(serviceCredentialHeader) !== undefined;
    log.warn({ ip: req.socket.remoteAddress, offered }, 'request without the gateway secret or a service credential');
    res.status(offered ? 403 : 401).json({ message: 'This service answers the Haven gateway only' });
  };
}

/** The client address for rate limits: the gateway's word when it proved itself, else the TCP peer. */
export function clientAddressOf(req: Request, gatewayProven: boolean): string {
  const forwarded = gatewayProven ? req.header(clientAddressHeader) : undefined;
  return forwarded || req.socket.remoteAddress || 'unknown';
}
