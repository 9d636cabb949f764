/**
 * Traces across Haven (OpenTelemetry): a request's span at the gateway, the subgraphs it asks, the events the request
 * caused as they are published, and what each consumer does with them (an e-mail sent), all in one trace. The trace
 * context travels in W3C `traceparent` headers between processes and inside each event's envelope through Kafka.
 *
 * Spans carry names, ids, event types and outcomes, never a person's address, name or words (docs/security.md).
 * Exported over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT names a collector, or in Zipkin's format when
 * OTEL_TRACES_EXPORTER is `zipkin` (development's trace viewer: see tools/infra/zipkin.ts); else nothing is recorded.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type express from 'express';
import { routeTemplateOf } from './http-route';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

const tracerName = 'haven';

let recording = false;

/** True once this process records spans: what costs something only for a trace (MongoDB's command events) asks. */
export function tracingIsOn(): boolean {
  return recording;
}

/**
 * Records spans in this process: with `processor`, as it decides (tests: each span as it ends); else in batches to
 * `exporter`, by default over OTLP to OTEL_EXPORTER_OTLP_ENDPOINT. The first call wins: every service of one process
 * shares it.
 */
export function startTracing(options: { serviceName: string; exporter?: SpanExporter; processor?: SpanProcessor }): {
  stop(): Promise<void>;
} {
  const provider = new BasicTracerProvider({
    resource: new Resource({ 'service.name': options.serviceName }),
  });
  provider.addSpanProcessor(options.processor ?? new BatchSpanProcessor(options.exporter ?? new OTLPTraceExporter()));
  const registered = trace.setGlobalTracerProvider(provider);
  if (registered) {
    recording = true;
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  }
  return { stop: () => provider.shutdown() };
}

/**
 * Tracing from the environment, named as OpenTelemetry names it: on when OTEL_EXPORTER_OTLP_ENDPOINT is set (the
 * exporter reads it itself), or when OTEL_TRACES_EXPORTER is `zipkin` (to OTEL_EXPORTER_ZIPKIN_ENDPOINT, else
 * Zipkin's default address on this machine).
 */
export function startTracingFromEnv(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): { stop(): Promise<void> } {
  if (env.OTEL_TRACES_EXPORTER === 'zipkin') {
    return startTracing({
      serviceName,
      exporter: new ZipkinExporter({ url: env.OTEL_EXPORTER_ZIPKIN_ENDPOINT || undefined, serviceName }),
    });
  }
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return { stop: async () => undefined };
  return startTracing({ serviceName });
}

/**
 * Runs `work` inside a new span (a child of `parent`, else of the active context), ended when `work` settles; a
 * thrown error marks it failed. Attributes are the caller's: never a person's data.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const tracer = trace.getTracer(tracerName);
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * Each request in a server span of its process, continuing the caller's trace (its `traceparent` header). The span
 * names the method and, once routed, the route's template, never the path: a path or query may hold a token.
 */
export function tracedRequests(service: string): express.RequestHandler {
  return (request, response, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = trace
      .getTracer(tracerName)
      .startSpan(
        `${service} ${request.method}`,
        { kind: SpanKind.SERVER, attributes: { 'haven.service': service, 'http.request.method': request.method } },
        parent,
      );
    response.once('finish', () => {
      const route = routeTemplateOf(request);
      span.updateName(`${service} ${request.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': response.statusCode });
      if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}

/** The active trace context as a W3C `traceparent` value, or '' when no span is recording. */
export function currentTraceparent(): string {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? '';
}

/** Adds the active trace context to outgoing request headers. */
export function withTraceHeaders(headers: Record<string, string>): Record<string, string> {
  propagation.inject(context.active(), headers);
  return headers;
}

/** The trace context a `traceparent` value (a header, an event's envelope) carries; the root context without one. */
export function contextOfTraceparent(traceparent: string | undefined | null): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/**
 * A span for publishing one event, a child of the trace that caused it; the `traceparent` it answers goes with the
 * message, so the consumers' spans join the same trace.
 */
export function publishSpan(event: { type: string; topic: string; eventId: string; traceparent?: string }): {
  span: Span;
  traceparent: string;
} {
  const parent = contextOfTraceparent(event.traceparent);
  const span = trace.getTracer(tracerName).startSpan(
    `publish ${event.type}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.destination.name': event.topic,
        'messaging.message.id': event.eventId,
        'haven.event.type': event.type,
      },
    },
    parent,
  );
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(parent, span), carrier);
  return { span, traceparent: carrier.traceparent ?? '' };
}

export { SpanKind, SpanStatusCode };
