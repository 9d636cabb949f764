/**
 * Logs and traces meet: a line written while a span is active names the span's trace and the span itself, so an
 * operator can go from a log line to the trace of its request; a line written outside any span names neither.
 */
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { eventually } from '../../../tools/testing/eventually';
import { inSpan, startTracing, tracedRequests } from '../src/tracing';
import { capturedServiceLog, loggedRequest } from './support';

const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'logs-test', processor: new SimpleSpanProcessor(exporter) });
afterAll(() => tracing.stop());

it('names the trace and span of the span a line is written in, and nothing outside a span', async () => {
  const { log, lines } = capturedServiceLog();
  log.info({ step: 1 }, 'before');
  await inSpan('work', {}, async () => log.info({ step: 2 }, 'inside'));
  log.warn({ err: new Error('after') }, 'after');
  const [span] = exporter.getFinishedSpans().filter((finished) => finished.name === 'work');
  await eventually('the line written after the span', () => lines.some((line) => line.msg === 'after'), {
    timeoutMs: 5_000,
    intervalMs: 10,
  });
  expect(lines.find((line) => line.msg === 'inside')).toMatchObject({
    step: 2,
    trace_id: span!.spanContext().traceId,
    span_id: span!.spanContext().spanId,
  });
  expect(lines.find((line) => line.msg === 'before')).toMatchObject({ step: 1 });
  expect(lines.find((line) => line.msg === 'before')).not.toHaveProperty('trace_id');
  expect(lines.find((line) => line.msg === 'before')).not.toHaveProperty('span_id');
  expect(lines.find((line) => line.msg === 'after')).not.toHaveProperty('trace_id');
});

it("writes a traced request's lines, its own and the request line, with the caller's trace id", async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const { status, lines } = await loggedRequest(`00-${traceId}-00f067aa0ba902b7-01`, [tracedRequests('logs-test')]);
  expect(status).toBe(200);
  const request = exporter.getFinishedSpans().find((span) => span.name === 'logs-test GET /things/:id');
  expect(request?.spanContext().traceId).toBe(traceId);
  const spanId = request!.spanContext().spanId;
  expect(lines.find((line) => line.msg === 'handling')).toMatchObject({ trace_id: traceId, span_id: spanId });
  expect(lines.find((line) => line.msg === 'request')).toMatchObject({ trace_id: traceId, span_id: spanId });
});
