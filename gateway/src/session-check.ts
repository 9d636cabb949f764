import { correlationHeader, subgraphSecretHeader, type Logger } from '@haven/platform';
import type { NextFunction, Request, Response } from 'express';
import jwt from 'jsonwebtoken';
import { sessionTokenOf } from './session';

/**
 * Whether a session token still names a live session. Only the user service knows (logout and "sign out everywhere"
 * delete sessions there); the other subgraphs check a token's signature and expiry only, and they answer nobody but the
 * gateway. So the gateway asks the user service before it forwards a token, and remembers the answer for `ttlMs`: a
 * session revoked through another gateway replica stops working within that bound, one revoked through this gateway at
 * once (`revoke`). docs/decisions/identity-and-sessions/session-revocation.md.
 */
export interface SessionCheck {
  /** true: live; false: revoked or expired. Throws when the user service cannot say. */
  isLive(token: string, correlationId: string): Promise<boolean>;
  /** This gateway just ended the session: refuse the token from now on. */
  revoke(token: string): void;
  /** Every session of this user ended (the account was closed): refuse each of their tokens from now on. */
  revokeUser(userId: string): void;
  /** Some sessions of this user ended: forget the answers about their tokens, so the next request asks again. */
  forgetUser(userId: string): void;
}

export interface SessionCheckOptions {
  userServiceUrl: string;
  secret: string | undefined;
  ttlMs: number;
  timeoutMs: number;
  /** Bounds the memory the answers take; the oldest are dropped first. */
  maxEntries?: number;
}

export function sessionCheck(options: SessionCheckOptions): SessionCheck {
  const maxEntries = options.maxEntries ?? 50_000;
  const answers = new Map<string, { live: boolean; until: number; user: string | null }>();
  const pending = new Map<string, Promise<boolean>>();
  // Users whose sessions all ended through this gateway, until the user service's own answer is sure to say so.
  const endedUsers = new Map<string, number>();
  const revokedFor = Math.max(options.ttlMs, 60 * 60 * 1000);

  function userOf(token: string): string | null {
    const decoded = jwt.decode(token);
    return decoded && typeof decoded === 'object' && typeof decoded.sub === 'string' ? decoded.sub : null;
  }

  function remember(token: string, live: boolean, forMs: number) {
    answers.delete(token);
    answers.set(token, { live, until: Date.now() + forMs, user: userOf(token) });
    // Map iteration is insertion order: the first key is the oldest answer.
    while (answers.size > maxEntries) answers.delete(answers.keys().next().value!);
  }

  async function ask(token: string, correlationId: string): Promise<boolean> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      [correlationHeader]: correlationId,
    };
    if (options.secret) headers[subgraphSecretHeader] = options.secret;
    const response = await fetch(options.userServiceUrl, {
      method: 'POST',
      headers,
      // The user service answers `me: null` for a revoked or expired session (its buildContext).
      body: JSON.stringify({ query: '{ me { id } }' }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const body = (await response.json().catch(() => ({}))) as {
      data?: { me: { id: string } | null } | null;
      errors?: Array<{ message?: string; extensions?: { code?: string } }>;
    };
    const [first] = body.errors ?? [];
    if (!response.ok || !body.data || first) {
      // The user service's own reason (its database is down) is the one the user should read.
      const reason = first?.extensions?.code === 'SERVICE_UNAVAILABLE' ? first.message : undefined;
      throw new SessionCheckFailed(`the user service answered ${response.status}`, reason);
    }
    return body.data.me !== null;
  }

  return {
    async isLive(token, correlationId) {
      const user = endedUsers.size > 0 ? userOf(token) : null;
      const ended = user ? endedUsers.get(user) : undefined;
      if (ended !== undefined) {
        if (ended > Date.now()) return false;
        endedUsers.delete(user!);
      }
      const known = answers.get(token);
      if (known && known.until > Date.now()) return known.live;
      // Concurrent requests of one browser share one question.
      let question = pending.get(token);
      if (!question) {
        question = ask(token, correlationId).finally(() => pending.delete(token));
        pending.set(token, question);
      }
      const live = await question;
      remember(token, live, options.ttlMs);
      return live;
    },
    revoke(token) {
      // Longer than any other answer: a revoked session never comes back.
      remember(token, false, revokedFor);
    },
    forgetUser(userId) {
      for (const [token, answer] of answers) {
        // A token this gateway revoked itself stays refused.
        if (answer.user === userId && answer.live) answers.delete(token);
      }
    },
    revokeUser(userId) {
      endedUsers.delete(userId);
      endedUsers.set(userId, Date.now() + revokedFor);
      while (endedUsers.size > maxEntries) endedUsers.delete(endedUsers.keys().next().value!);
    },
  };
}

/** The user service could not say; `reason` is its message for the user, when it gave one. */
export class SessionCheckFailed extends Error {
  constructor(
    message: string,
    readonly reason: string | undefined,
  ) {
    super(message);
  }
}

const liveTokens = new WeakMap<Request, string | null>();

export const sessionCheckUnavailableMessage = 'Haven cannot check your sign-in right now. Please try again shortly.';

/**
 * Express middleware: a cookie whose token is well signed and unexpired is forwarded only while its session
 * is live; a revoked one signs nobody in (the request goes on signed out, so routes answer 401 as usual).
 */
export function checkSession(check: SessionCheck, cookie: { publicKey: string; secureCookies: boolean }, log: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = sessionTokenOf(req, cookie.publicKey, cookie.secureCookies);
    if (!token) {
      liveTokens.set(req, null);
      next();
      return;
    }
    const correlationId = req.header(correlationHeader) ?? '';
    try {
      liveTokens.set(req, (await check.isLive(token, correlationId)) ? token : null);
      next();
    } catch (error) {
      // Neither a guess that lets a revoked session in, nor one that signs everybody out.
      log.warn({ err: error, correlationId }, 'session check failed');
      const reason = error instanceof SessionCheckFailed ? error.reason : undefined;
      res.status(503).json({ message: reason ?? sessionCheckUnavailableMessage });
    }
  };
}

/** The request's session token after `checkSession`: null when absent, forged, expired or revoked. */
export function checkedSessionToken(req: Request): string | null {
  return liveTokens.get(req) ?? null;
}
