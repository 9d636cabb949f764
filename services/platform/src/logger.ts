import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tracingIsOn } from './tracing';

export type Logger = pino.Logger;

/**
 * The trace and span a line is written in, so an operator can go from a log line to its trace and back; nothing
 * when no span is active. With tracing off no span ever is, so no line looks one up.
 */
function traceOfLine(): { trace_id?: string; span_id?: string } {
  // A new object each time: pino writes the line's own fields into it.
  if (!tracingIsOn()) return {};
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const spanContext = span.spanContext();
  if (!isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

/**
 * Structured JSON logs; every line names its service, requests add requestId and correlationId, and a line written
 * inside a span its trace_id and span_id. `destination` is stdout unless given.
 */
export function createLogger(service: string, level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime, mixin: traceOfLine };
  return destination ? pino(options, destination) : pino(options);
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
      const writeLine = () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log.info(
          { correlationId, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
          'request',
        );
      };
      // Bound to the request's trace, so the line names it even when the response is ended from outside it; with
      // tracing off there is no trace to bind to.
      res.once('finish', tracingIsOn() ? context.bind(context.active(), writeLine) : writeLine);
    }
    next();
  };
}
