/**
 * Each call to Stripe is a span of the operation that makes it (the SDK's own HTTP client, traced), named by its
 * method and path without ids, and carrying nothing of the customer: against stripe-mock.
 */
import { inSpan, startTracing } from '@haven/platform';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startStripeMock, type StripeMock } from '../../../tools/testing/stripe-mock';
import { stripeClient } from '../src/providers/stripe';

const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'billing-test', processor: new SimpleSpanProcessor(exporter) });
let stripeMock: StripeMock;

beforeAll(async () => {
  stripeMock = await startStripeMock();
});

afterAll(async () => {
  await stripeMock?.stop();
  await tracing.stop();
});

it('makes each Stripe call a span of the operation asking, named by method and path, with nothing of the customer', async () => {
  const stripe = stripeClient({ secretKey: 'sk_test_haven', apiUrl: stripeMock.url });
  const created = await inSpan('create the customer', {}, () =>
    stripe.customers.create({ email: 'ada.tracing@example.org', name: 'Ada Lovelace' }),
  );
  await inSpan('read the customer', {}, () => stripe.customers.retrieve(created.id));

  const spans = exporter.getFinishedSpans();
  const spanNamed = (name: string) => spans.find((span) => span.name === name)!;
  const create = spanNamed('stripe POST /v1/customers');
  const read = spanNamed('stripe GET /v1/customers/{id}');
  expect(create.parentSpanId).toBe(spanNamed('create the customer').spanContext().spanId);
  expect(read.parentSpanId).toBe(spanNamed('read the customer').spanContext().spanId);
  const recorded = JSON.stringify(
    spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })),
  );
  for (const personal of ['ada', 'Lovelace', created.id]) expect(recorded).not.toContain(personal);
});
