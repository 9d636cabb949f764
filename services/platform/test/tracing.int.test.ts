/**
 * One registration, one trace: the gateway's request, the user subgraph it asks, the `user.registered` event's
 * publishing, the notification consumer's handling of it and the verification e-mail's SMTP send, each a span of
 * the same trace, carried across HTTP by `traceparent` headers and across Kafka in the message's headers. No span
 * holds the person's address.
 */
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '../src/tracing';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { verificationEmailTo } from '../../../tools/testing/verification';

// Started before Haven, in this file's process where Haven's services run: every span of theirs is kept here.
const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'haven-test', processor: new SimpleSpanProcessor(exporter) });
let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
  await tracing.stop();
});

const traceOf = (spans: readonly ReadableSpan[], traceId: string) =>
  spans.filter((span) => span.spanContext().traceId === traceId);

it('follows a registration from the gateway through the user subgraph and Kafka to the e-mail it sends, in one trace', async () => {
  const email = uniqueEmail('traced');
  const registered = await new ApiClient(haven.gatewayUrl).post('/api/auth/register', {
    email,
    password: 'followed end to end',
    firstName: 'Tamsin',
  });
  expect(registered.status).toBe(201);
  await verificationEmailTo(email);

  const request = () => exporter.getFinishedSpans().find((span) => span.name === 'gateway POST /api/auth/register');
  await eventually('the gateway span of the registration', () => request() !== undefined);
  const traceId = request()!.spanContext().traceId;
  const names = () => traceOf(exporter.getFinishedSpans(), traceId).map((span) => span.name);
  await eventually('the e-mail send in the registration trace', () => names().includes('smtp send'));

  const spans = traceOf(exporter.getFinishedSpans(), traceId);
  expect(names()).toEqual(
    expect.arrayContaining([
      'gateway POST /api/auth/register',
      'user POST /graphql',
      'publish user.registered',
      'consume user.registered',
      'smtp send',
    ]),
  );
  const byName = (name: string) => spans.find((span) => span.name === name)!;
  const parentOf = (span: ReadableSpan) => span.parentSpanId;
  // Each step is the child of the one that caused it.
  expect(parentOf(byName('publish user.registered'))).toBeDefined();
  expect(spans.filter((span) => span.name === 'consume user.registered').map((span) => parentOf(span))).toContain(
    byName('publish user.registered').spanContext().spanId,
  );
  const consumeIds = spans
    .filter((span) => span.name === 'consume user.registered')
    .map((span) => span.spanContext().spanId);
  expect(consumeIds).toContain(parentOf(byName('smtp send')));
  expect(byName('consume user.registered').attributes['messaging.consumer.group.name']).toEqual(expect.any(String));
  expect(byName('smtp send').attributes['haven.mail.kind']).toBe('verify-email');

  // Nothing of the person in any span of the trace: names, attributes and events.
  const written = JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events]));
  expect(written).not.toContain(email);
  expect(written.toLowerCase()).not.toContain(email.split('@')[0]!.toLowerCase());
  expect(written).not.toContain('Tamsin');
});
