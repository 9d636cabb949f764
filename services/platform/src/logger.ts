import pino from 'pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Logger = pino.Logger;

/** Structured JSON logs; every line names its service, requests add requestId and correlationId. */
export function createLogger(service: string, level: string): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}

/**
 * One line per request (health probes excepted) with its status and duration, and the
 * correlation id echoed back so a user's report can be matched to the logs of every service.
 */
export function requestLogger(log: Logger, correlationHeader: string) {
  return (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: () => void): void => {
    const started = process.hrtime.bigint();
    const incoming = req.headers[correlationHeader];
    const offered = Array.isArray(incoming) ? incoming[0] : incoming;
    // A caller's id is kept when it looks like one; anything else is replaced, not logged.
    const correlationId = offered && /^[\w.:-]{1,128}$/.test(offered) ? offered : randomUUID();
    req.headers[correlationHeader] = correlationId;
    res.setHeader(correlationHeader, correlationId);
    const path = (req.originalUrl ?? req.url ?? '').split('?')[0] ?? '';
    if (path !== '/healthz' && path !== '/readyz' && path !== '/metrics') {
      res.once('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log.info(
          { correlationId, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
          'request',
        );
      });
    }
    next();
  };
}
