import {
  databaseUnavailableMessage,
  dataExportLogKey,
  dataExportWaitMessage,
  isDatabaseUnavailable,
  retryAfterSeconds,
  verifySessionToken,
  type RateLimit,
  type RateLimitRefusals,
  type RateLimitStore,
} from '@haven/platform';
import type { Request, RequestHandler } from 'express';
import { checkedSessionToken } from './session-check';

/** The signed-in user of a request whose session the gateway has checked, or null. */
export function userIdOf(req: Request, publicKey: string): string | null {
  const token = checkedSessionToken(req);
  return token ? (verifySessionToken(token, publicKey)?.userId ?? null) : null;
}

/** The export's budget as the refusal counter names it (a route, not a GraphQL field, with a class of its own). */
export const exportRefusalField = 'dataExport';

/**
 * One budget per account for the data export, whichever of its routes is asked: each export reads everything
 * the account holds in every service. Signed out, the route itself answers 401. Over the budget, a 429 with
 * Retry-After that says when the next export is possible.
 */
export function exportLimit(
  store: RateLimitStore,
  limit: RateLimit,
  publicKey: string,
  secret?: string,
  refusals?: RateLimitRefusals,
): RequestHandler {
  return async (req, res, next) => {
    const userId = userIdOf(req, publicKey);
    if (!userId) {
      next();
      return;
    }
    try {
      const decision = await store.hit(dataExportLogKey(userId, secret), 1, limit);
      if (decision.allowed) {
        next();
        return;
      }
      const seconds = retryAfterSeconds(decision);
      refusals?.inc({ field: exportRefusalField, class: 'EXPORT' });
      res
        .status(429)
        .set('retry-after', String(seconds))
        .json({ message: dataExportWaitMessage(seconds) });
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
