/**
 * With tracing off (this process never starts it), logging costs nothing for traces: no line looks up a span, and
 * no request's line is bound to a context; the lines name no trace.
 */
import { context, trace } from '@opentelemetry/api';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { eventually } from '../../../tools/testing/eventually';
import { capturedLogFrom } from '../../../tools/testing/captured-log';
import { createLogger, requestLogger } from '../src/logger';
import { tracingIsOn } from '../src/tracing';

/** The lines of a service's own logger (its mixin names the trace), as written. */
const capturedLogger = () => capturedLogFrom((sink) => createLogger('logs-test', 'info', sink));

afterEach(() => jest.restoreAllMocks());

it('writes lines with no trace id and looks up no span', async () => {
  expect(tracingIsOn()).toBe(false);
  const getSpan = jest.spyOn(trace, 'getSpan');
  const { log, lines } = capturedLogger();
  log.info('plain');
  await eventually('the line', () => lines.some((line) => line.msg === 'plain'), { timeoutMs: 5_000, intervalMs: 10 });
  expect(lines.find((line) => line.msg === 'plain')).not.toHaveProperty('trace_id');
  expect(lines.find((line) => line.msg === 'plain')).not.toHaveProperty('span_id');
  expect(getSpan).not.toHaveBeenCalled();
});

it("writes a request's line with no trace id, its handler bound to no context", async () => {
  const bind = jest.spyOn(context, 'bind');
  const getSpan = jest.spyOn(trace, 'getSpan');
  const { log, lines } = capturedLogger();
  const app = express();
  app.use(requestLogger(log, 'x-correlation-id'));
  app.get('/things/:id', (_request, response) => {
    log.info('handling');
    response.json({ ok: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((listening) => server.once('listening', listening));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/things/42`, {
      headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    expect(response.status).toBe(200);
    await eventually('the request line', () => lines.some((line) => line.msg === 'request'), {
      timeoutMs: 5_000,
      intervalMs: 10,
    });
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({ status: 200 });
    for (const line of lines) expect(line).not.toHaveProperty('trace_id');
    expect(bind).not.toHaveBeenCalled();
    expect(getSpan).not.toHaveBeenCalled();
  } finally {
    await new Promise((closed) => server.close(closed));
  }
});
