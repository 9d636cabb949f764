/**
 * Development's trace viewer is Zipkin (`make dev`): with OTEL_TRACES_EXPORTER=zipkin a service sends its spans in
 * Zipkin's format to OTEL_EXPORTER_ZIPKIN_ENDPOINT. A local HTTP server stands in for Zipkin's collector here.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inSpan, startTracingFromEnv } from '../src/tracing';

it("sends a service's spans in Zipkin's format, named by the service, when the environment asks for Zipkin", async () => {
  const received: Array<{ url: string; body: string }> = [];
  const zipkin = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ url: request.url ?? '', body });
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((listening) => zipkin.listen(0, '127.0.0.1', listening));
  try {
    const { port } = zipkin.address() as AddressInfo;
    const tracing = startTracingFromEnv('quote', {
      OTEL_TRACES_EXPORTER: 'zipkin',
      OTEL_EXPORTER_ZIPKIN_ENDPOINT: `http://127.0.0.1:${port}/api/v2/spans`,
    });
    const traceId = await inSpan('ai chat', { attributes: { 'gen_ai.request.model': 'a-model' } }, async (span) => {
      return span.spanContext().traceId;
    });
    await tracing.stop(); // sends what is batched

    expect(received.map((request) => request.url)).toEqual(['/api/v2/spans']);
    const spans = JSON.parse(received[0]!.body) as Array<{
      traceId: string;
      name: string;
      localEndpoint: { serviceName: string };
      tags: Record<string, string>;
    }>;
    expect(spans).toEqual([
      expect.objectContaining({
        traceId,
        name: 'ai chat',
        localEndpoint: expect.objectContaining({ serviceName: 'quote' }),
        tags: expect.objectContaining({ 'gen_ai.request.model': 'a-model' }),
      }),
    ]);
  } finally {
    await new Promise((closed) => zipkin.close(closed));
  }
});
