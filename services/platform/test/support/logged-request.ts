/**
 * What a service logs about one request, as the services log it: a small server whose handler writes a line with
 * the service's own logger (its mixin names the trace) behind the request logger, for the tests of what those lines
 * say about traces with tracing on and off.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { capturedLogFrom, type CapturedLog } from '../../../../tools/testing/captured-log';
import { eventually } from '../../../../tools/testing/eventually';
import { createLogger, requestLogger } from '../../src/logger';

/** The lines of a service's own logger, as written. */
export const capturedServiceLog = (): CapturedLog => capturedLogFrom((sink) => createLogger('logs-test', 'info', sink));

/**
 * Sends GET /things/42 with the caller's `traceparent` to a server running `before` (tracing's middleware, say),
 * the request logger, and a handler that logs "handling"; answers the response's status and the log once the
 * request line is written.
 */
export async function loggedRequest(
  traceparent: string,
  before: express.RequestHandler[] = [],
): Promise<CapturedLog & { status: number }> {
  const captured = capturedServiceLog();
  const app = express();
  for (const handler of before) app.use(handler);
  app.use(requestLogger(captured.log, 'x-correlation-id'));
  app.get('/things/:id', (_request, response) => {
    captured.log.info('handling');
    response.json({ ok: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((listening) => server.once('listening', listening));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/things/42`, { headers: { traceparent } });
    await eventually('the request line', () => captured.lines.some((line) => line.msg === 'request'), {
      timeoutMs: 5_000,
      intervalMs: 10,
    });
    return { ...captured, status: response.status };
  } finally {
    await new Promise((closed) => server.close(closed));
  }
}
