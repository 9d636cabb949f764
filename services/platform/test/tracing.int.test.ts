/**
 * One registration, one trace: the gateway's request, the user subgraph it asks, the `user.registered` event's
 * publishing, the notification consumer's handling of it and the verification e-mail's SMTP send, each a span of
 * the same trace, carried across HTTP by `traceparent` headers and across Kafka in the message's headers, with the
 * MongoDB commands each step runs inside it. A check-in's trace holds the AI provider's call. No span holds the
 * person's address, name or words.
 */
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTracing } from '../src/tracing';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTrial } from '../../../tools/testing/subscription';
import { verificationEmailTo } from '../../../tools/testing/verification';

// Started before Haven, in this file's process where Haven's services run: every span of theirs is kept here.
const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'haven-test', processor: new SimpleSpanProcessor(exporter) });
let haven: TestHaven;
// An OpenAI-compatible provider of the test's own; what it answers is a reply the trace must not carry either.
const aiReply = 'Rest is part of the work. Let tonight be slow and kind.';
let provider: Server;

beforeAll(async () => {
  provider = createServer((request, response) => {
    request.resume().on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-traced',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'traced-model',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: aiReply } }],
        }),
      );
    });
  });
  await new Promise<void>((listening) => provider.listen(0, '127.0.0.1', listening));
  const { port } = provider.address() as AddressInfo;
  haven = await startTestHaven({
    env: {
      OPENAI_API_KEY: 'sk-test-local',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      OPENAI_MODEL: 'traced-model',
    },
  });
});

afterAll(async () => {
  await haven?.stop();
  provider?.closeAllConnections();
  await new Promise((closed) => provider?.close(closed));
  await tracing.stop();
});

const traceOf = (spans: readonly ReadableSpan[], traceId: string) =>
  spans.filter((span) => span.spanContext().traceId === traceId);

/** True when `ancestor` is `span`'s parent, or its parent's, and so on, within `spans`. */
function descendsFrom(span: ReadableSpan, ancestor: ReadableSpan, spans: readonly ReadableSpan[]): boolean {
  const ids = new Map(spans.map((each) => [each.spanContext().spanId, each]));
  for (let parent = span.parentSpanId; parent !== undefined; parent = ids.get(parent)?.parentSpanId) {
    if (parent === ancestor.spanContext().spanId) return true;
  }
  return false;
}

/** Everything a trace's spans write: names, attributes, events and statuses. */
const writtenIn = (spans: readonly ReadableSpan[]) =>
  JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events, span.status])).toLowerCase();

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

  // The user subgraph's MongoDB commands, each a span under its request, named by command and collection alone.
  const subgraph = byName('user POST /graphql');
  const commands = spans.filter((span) => span.attributes['db.system'] === 'mongodb');
  const insideSubgraph = commands.filter((span) => descendsFrom(span, subgraph, spans));
  expect(insideSubgraph.map((span) => span.name)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^mongodb insert /)]),
  );
  for (const span of insideSubgraph) {
    expect(span.name).toBe(`mongodb ${span.attributes['db.operation.name']} ${span.attributes['db.collection.name']}`);
  }

  // Nothing of the person in any span of the trace: names, attributes and events.
  const written = writtenIn(spans);
  expect(written).not.toContain(email.toLowerCase());
  expect(written).not.toContain(email.split('@')[0]!.toLowerCase());
  expect(written).not.toContain('tamsin');
});

it("follows a check-in through the quote subgraph, its MongoDB commands and the AI provider's call, with none of the person's words", async () => {
  const client = new ApiClient(haven.gatewayUrl);
  const email = uniqueEmail('traced-check-in');
  const registered = await client.post('/api/auth/register', {
    email,
    password: 'followed end to end',
    firstName: 'Oriel',
  });
  expect(registered.status).toBe(201);
  await startTrial(client);
  const notes = 'Walked by the canal with my sister Marguerite after work';
  const checkedIn = await client.post<{ quote: { text: string } }>('/api/quotes/generate', {
    sleepQuality: 2,
    timeOfDayPreference: 'evening',
    notes,
  });
  expect(checkedIn.status).toBe(200);
  expect(checkedIn.body.quote.text).toBe(aiReply);

  const request = () => exporter.getFinishedSpans().find((span) => span.name === 'gateway POST /api/quotes/generate');
  await eventually('the gateway span of the check-in', () => request() !== undefined);
  const traceId = request()!.spanContext().traceId;
  // The subgraph's span ends as its answer is written, which may be just after the gateway has read it.
  const spans = await eventually('the quote subgraph span in the check-in trace', () => {
    const finished = traceOf(exporter.getFinishedSpans(), traceId);
    return finished.some((span) => span.name === 'quote POST /graphql') && finished;
  });

  const ai = spans.find((span) => span.name === 'ai chat');
  expect(ai?.attributes).toMatchObject({ 'gen_ai.request.model': 'traced-model', 'haven.ai.outcome': 'written' });
  const quote = spans.find((span) => span.name === 'quote POST /graphql')!;
  expect(descendsFrom(ai!, quote, spans)).toBe(true);
  expect(spans.some((span) => span.attributes['db.system'] === 'mongodb' && descendsFrom(span, quote, spans))).toBe(
    true,
  );

  const written = writtenIn(spans);
  for (const secret of [email, email.split('@')[0]!, 'Oriel', 'Marguerite', 'canal', aiReply, 'slow and kind']) {
    expect(written).not.toContain(secret.toLowerCase());
  }
});
