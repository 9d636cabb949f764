/**
 * With tracing off (this process never starts it), logging costs nothing for traces: no line looks up a span, and
 * no request's line is bound to a context; the lines name no trace.
 */
import { context, trace } from '@opentelemetry/api';
import { eventually } from '../../../tools/testing/eventually';
import { tracingIsOn } from '../src/tracing';
import { capturedServiceLog, loggedRequest } from './support';

afterEach(() => jest.restoreAllMocks());

it('writes lines with no trace id and looks up no span', async () => {
  expect(tracingIsOn()).toBe(false);
  const getSpan = jest.spyOn(trace, 'getSpan');
  const { log, lines } = capturedServiceLog();
  log.info('plain');
  await eventually('the line', () => lines.some((line) => line.msg === 'plain'), { timeoutMs: 5_000, intervalMs: 10 });
  expect(lines.find((line) => line.msg === 'plain')).not.toHaveProperty('trace_id');
  expect(lines.find((line) => line.msg === 'plain')).not.toHaveProperty('span_id');
  expect(getSpan).not.toHaveBeenCalled();
});

it("writes a request's line with no trace id, its handler bound to no context", async () => {
  const bind = jest.spyOn(context, 'bind');
  const getSpan = jest.spyOn(trace, 'getSpan');
  const { status, lines } = await loggedRequest('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
  expect(status).toBe(200);
  expect(lines.find((line) => line.msg === 'request')).toMatchObject({ status: 200 });
  for (const line of lines) expect(line).not.toHaveProperty('trace_id');
  expect(bind).not.toHaveBeenCalled();
  expect(getSpan).not.toHaveBeenCalled();
});
