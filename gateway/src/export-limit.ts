import {
  databaseUnavailableMessage,
  isDatabaseUnavailable,
  verifySessionToken,
  waitInWords,
  type RateLimit,
  type RateLimitStore,
} from '@haven/platform';
import type { Request, RequestHandler } from 'express';
import { createHmac } from 'node:crypto';
import { checkedSessionToken } from './session-check';

/** The signed-in user of a request whose session the gateway has checked, or null. */
export function userIdOf(req: Request, publicKey: string): string | null {
  const token = checkedSessionToken(req);
  return token ? (verifySessionToken(token, publicKey)?.userId ?? null) : null;
}

/**
 * One budget per account for the data export, whichever of its routes is asked: each export reads everything
 * the account holds in every service. Signed out, the route itself answers 401. Over the budget, a 429 with
 * Retry-After that says when the next export is possible.
 */
export function exportLimit(
  store: RateLimitStore,
  limit: RateLimit,
  publicKey: string,
  secret = 'haven-rate-limit',
): RequestHandler {
  return async (req, res, next) => {
    const userId = userIdOf(req, publicKey);
    if (!userId) {
      next();
      return;
    }
    try {
      // A keyed hash, as the services keep accounts in their logs: no id is stored.
      const account = createHmac('sha256', secret).update(`account:${userId}`).digest('base64url');
      const decision = await store.hit(`data-export:account:${account}`, 1, limit);
      if (decision.allowed) {
        next();
        return;
      }
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      res
        .status(429)
        .set('retry-after', String(seconds))
        .json({
          message: `Your data was exported a moment ago. You can export it again in ${waitInWords(seconds)}.`,
        });
    } catch (error) {
      // Without the log the limit cannot be kept: refuse rather than let exports through unmetered.
      if (isDatabaseUnavailable(error)) {
        res.status(503).json({ message: databaseUnavailableMessage });
        return;
      }
      next(error);
    }
  };
}
