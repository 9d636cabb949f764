/**
 * A span per MongoDB command run inside a traced operation, from the driver's own command monitoring. A span names
 * the command and its collection only: the command's filter, documents and reply hold people's data and never go
 * in, nor does a failure's message (a duplicate key's message quotes the key's value).
 */
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { mongo } from 'mongoose';
import { tracingIsOn } from './tracing';

/** Commands started but not yet answered; past this, the oldest is ended (a reply the driver never reported). */
const maxOpenSpans = 1_000;

/**
 * The driver's command events cost an event (and a reply read in full) per command, so they are asked for only
 * while this process records spans: these are the options to connect with, and `traceClient` the listeners.
 */
export function mongoCommandTracing(): { monitorCommands: boolean; traceClient(client: mongo.MongoClient): void } {
  const on = tracingIsOn();
  return { monitorCommands: on, traceClient: on ? traceMongoCommands : () => undefined };
}

/** The collection a command works on, when its document names one ('find: "users"', a cursor's getMore). */
function collectionOf(command: mongo.Document, commandName: string): string | undefined {
  const target: unknown = commandName === 'getMore' ? command.collection : command[commandName];
  return typeof target === 'string' ? target : undefined;
}

function traceMongoCommands(client: mongo.MongoClient): void {
  const tracer = trace.getTracer('haven');
  const open = new Map<number, Span>();
  const finish = (requestId: number, failure?: Error & { code?: unknown }) => {
    const span = open.get(requestId);
    if (!span) return;
    open.delete(requestId);
    if (failure) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure.name });
      if (typeof failure.code === 'number') span.setAttribute('db.response.status_code', String(failure.code));
    }
    span.end();
  };
  client.on('commandStarted', (event) => {
    // Only inside a trace: the relay's polls, leases and sweeps would each be a one-span trace of their own.
    if (!trace.getSpan(context.active())) return;
    const collection = collectionOf(event.command, event.commandName);
    const span = tracer.startSpan(
      collection ? `mongodb ${event.commandName} ${collection}` : `mongodb ${event.commandName}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system': 'mongodb',
          'db.namespace': event.databaseName,
          'db.operation.name': event.commandName,
          ...(collection ? { 'db.collection.name': collection } : {}),
        },
      },
    );
    open.set(event.requestId, span);
    if (open.size > maxOpenSpans) {
      const [oldest] = open.keys();
      if (oldest !== undefined) finish(oldest);
    }
  });
  client.on('commandSucceeded', (event) => finish(event.requestId));
  client.on('commandFailed', (event) => finish(event.requestId, event.failure));
}
