import type express from 'express';
import type { Admin, Kafka } from 'kafkajs';
import type { Connection } from 'mongoose';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ConsumerMetrics } from './consumer';
import { consumerLag } from './consumer-lag';
import { routeTemplateOf } from './http-route';
import type { Logger } from './logger';
import { outboxCollections, type OutboxRelayMetrics } from './outbox';

/**
 * Prometheus metrics of one process part (a service or the gateway). Each gets its own registry, labelled with
 * its name: the tests run several services in one process, and a shared registry would mix their counts.
 * Labels never carry personal data: routes are templates (never a raw path with an id or a token), topics and
 * consumer groups are Haven's own names.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, prefix: 'haven_' });
  return registry;
}

/**
 * A service's own counter on the registry its /metrics serves (`haven_` is added to the name). Label values come
 * from a fixed set the service names, never from a request or a person.
 */
export function serviceCounter<Label extends string = never>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly Label[] = [],
): Counter<Label> {
  return new Counter({ name: `haven_${name}`, help, labelNames, registers: [registry] });
}

/** A service's own histogram on the registry its /metrics serves (`haven_` is added to the name), as serviceCounter. */
export function serviceHistogram<Label extends string = never>(
  registry: Registry,
  name: string,
  help: string,
  buckets: readonly number[],
  labelNames: readonly Label[] = [],
): Histogram<Label> {
  return new Histogram({ name: `haven_${name}`, help, labelNames, buckets: [...buckets], registers: [registry] });
}

/**
 * Operations the rate limiter refused, by root field and its `@rateLimit` class: both come from the schema, never
 * from the caller (no account, address or client in a label). Each process counts its own refusals: the gateway
 * the per-client logs, a subgraph the per-account and per-recipient ones.
 */
export function rateLimitRefusalCounter(registry: Registry): Counter<'field' | 'class'> {
  return serviceCounter(
    registry,
    'rate_limit_refusals_total',
    'Operations the rate limiter refused (429), by root field and rate-limit class.',
    ['field', 'class'],
  );
}

/** Serves the registry in Prometheus's text format. Only mount it where the internet cannot reach. */
export function metricsEndpoint(registry: Registry): express.RequestHandler {
  return async (_req, res) => {
    const text = await registry.metrics();
    res.setHeader('content-type', registry.contentType);
    res.setHeader('cache-control', 'no-store');
    res.end(text);
  };
}

/** Counts every request by method, route template and status, with its duration. Mount it first. */
export function httpMetrics(registry: Registry): express.RequestHandler {
  const duration = new Histogram({
    name: 'haven_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status, and how long each took.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      duration.observe({ method: req.method, route: routeTemplateOf(req), status: String(res.statusCode) }, seconds);
    });
    next();
  };
}

/** Entities counted at most per scrape: past this, the backlog reads as this many (the alert fired long before). */
export const backlogCountLimit = 10_000;

/**
 * The outbox relay's counters (OutboxRelayMetrics) and the backlog read from the pending marks: how many
 * entities have events waiting, and how long ago the oldest was last marked. A bounded count and one read
 * through an index on `at`, so a scrape costs the same with ten users or a million.
 */
export async function outboxMetrics(
  registry: Registry,
  relay: { readonly metrics: OutboxRelayMetrics },
  connection: Connection,
  log: Logger,
): Promise<void> {
  const pending = connection.collection(outboxCollections.pending);
  await pending.createIndex({ at: 1 });
  registerOutboxMetrics(registry, relay, pending, log);
}

/** The metrics `outboxMetrics` registers, once the index they read through is there; nothing is read until a scrape. */
export function registerOutboxMetrics(
  registry: Registry,
  relay: { readonly metrics: OutboxRelayMetrics },
  pending: ReturnType<Connection['collection']>,
  log: Logger,
): void {
  const counters: [keyof OutboxRelayMetrics, string, string][] = [
    ['published', 'haven_outbox_published_total', 'Events the outbox relay published to Kafka.'],
    ['parked', 'haven_outbox_parked_total', 'Entities parked after failing to publish too many times.'],
    ['documentFailures', 'haven_outbox_document_failures_total', 'Entities whose events the broker refused.'],
    [
      'failedPasses',
      'haven_outbox_failed_passes_total',
      'Relay passes that could not publish (Kafka or database away).',
    ],
    ['sweeps', 'haven_outbox_sweeps_total', 'Backstop sweeps run by the relay.'],
  ];
  for (const [field, name, help] of counters) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        // The relay keeps the running total; the counter reports it as is.
        this.reset();
        this.inc(Number(relay.metrics[field]));
      },
    });
  }
  new Gauge({
    name: 'haven_outbox_relay_leader',
    help: 'Whether this replica is the active outbox relay (1) or stands by (0).',
    registers: [registry],
    collect() {
      this.set(relay.metrics.isLeader ? 1 : 0);
    },
  });
  // One read of the pending marks per scrape, shared by the three gauges: prom-client collects every metric of a
  // scrape at once, so each gauge awaits the read in flight (a gauge set by another's collect would show the
  // previous scrape's figure).
  const readOrNone = sharedRead(async () => {
    try {
      const [count, first] = await Promise.all([
        pending.countDocuments({}, { limit: backlogCountLimit }),
        pending.find({}, { sort: { at: 1 }, limit: 1, projection: { at: 1 } }).toArray(),
      ]);
      const at = first[0]?.at;
      return { count, oldestSeconds: at instanceof Date ? Math.max(0, (Date.now() - at.getTime()) / 1000) : 0 };
    } catch (error) {
      log.warn({ err: error }, 'cannot read the outbox backlog for /metrics');
      return null;
    }
  });
  new Gauge({
    name: 'haven_outbox_backlog_entities',
    help: `Entities with events waiting to be published (counted up to ${backlogCountLimit}).`,
    registers: [registry],
    async collect() {
      const figures = await readOrNone();
      // Stale figures would hide the outage: the backlog series go until the database answers again.
      if (figures) this.set(figures.count);
      else this.reset();
    },
  });
  new Gauge({
    name: 'haven_outbox_oldest_pending_age_seconds',
    help: 'Seconds since the longest-waiting entity with unpublished events was last written (0 when none wait).',
    registers: [registry],
    async collect() {
      const figures = await readOrNone();
      if (figures) this.set(figures.oldestSeconds);
      else this.reset();
    },
  });
  new Gauge({
    name: 'haven_outbox_backlog_read_ok',
    help: 'Whether the last scrape could read the outbox backlog from the database (1) or not (0).',
    registers: [registry],
    async collect() {
      this.set((await readOrNone()) ? 1 : 0);
    },
  });
}

/**
 * One read shared by whoever asks while it runs: the gauges of one scrape, and scrapes that overlap (a slow
 * dependency never has more than one read of it waiting).
 */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () => {
    inFlight ??= read().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

/** The event consumers' counts by consumer group and source topic. */
export function consumerMetrics(
  registry: Registry,
  consumers: readonly { readonly groupId: string; readonly metrics: ConsumerMetrics }[],
): void {
  const counters: [keyof ConsumerMetrics, string, string][] = [
    ['handled', 'haven_consumer_events_handled_total', 'Events a consumer group handled.'],
    ['deadLettered', 'haven_consumer_events_dead_lettered_total', 'Events a consumer group sent to its dead letters.'],
    [
      'failures',
      'haven_consumer_handler_failures_total',
      'Handler attempts that failed (each retried or dead-lettered).',
    ],
  ];
  for (const [field, name, help] of counters) {
    new Counter({
      name,
      help,
      labelNames: ['group', 'topic'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const consumer of consumers) {
          for (const [topic, count] of consumer.metrics[field]) this.inc({ group: consumer.groupId, topic }, count);
        }
      },
    });
  }
}

/** A consumer group and the topics it reads, whose lag /metrics reports. */
export interface LagSource {
  readonly groupId: string;
  readonly topics: readonly string[];
}

/** How long a scrape waits for Kafka's offsets before it answers without the lag. */
export const consumerLagTimeoutMs = 2_000;

/**
 * Consumer lag per group and topic: the messages past the group's committed offsets, summed over the topic's
 * partitions, read from Kafka when /metrics is scraped and at no other time. One admin client, connected at the
 * first scrape and kept; `close` disconnects it. Counted for the group wherever its members are, also while this
 * process's consumer is stopped or rejoining.
 */
export function consumerLagMetrics(
  registry: Registry,
  kafka: Kafka,
  sources: readonly LagSource[],
  log: Logger,
  timeoutMs: number = consumerLagTimeoutMs,
): { close(): Promise<void> } {
  let admin: Admin | null = null;
  let connected: Promise<void> | null = null;
  let closed = false;
  const topics = [...new Set(sources.flatMap((source) => source.topics))];
  const read = sharedRead(async () => {
    if (sources.length === 0) return [];
    if (closed) throw new Error('the service is stopping');
    admin ??= kafka.admin();
    const client = admin;
    connected ??= client.connect();
    try {
      await connected;
      const [bounds, committed] = await Promise.all([
        Promise.all(topics.map((topic) => client.fetchTopicOffsets(topic))),
        Promise.all(
          sources.map((source) => client.fetchOffsets({ groupId: source.groupId, topics: [...source.topics] })),
        ),
      ]);
      const boundsOf = new Map(topics.map((topic, index) => [topic, bounds[index]!]));
      return sources.flatMap((source, index) =>
        source.topics.map((topic) => ({
          group: source.groupId,
          topic,
          lag: consumerLag(
            boundsOf.get(topic)!,
            committed[index]!.find((entry) => entry.topic === topic)?.partitions ?? [],
          ),
        })),
      );
    } catch (error) {
      connected = null; // the next scrape connects afresh
      throw error;
    }
  });
  // Both gauges of a scrape share one bounded read.
  const figuresOrNone = sharedRead(async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer from Kafka within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      log.warn({ err: error }, 'cannot read the consumer lag for /metrics');
      return null;
    } finally {
      clearTimeout(timer);
    }
  });
  new Gauge({
    name: 'haven_consumer_lag_messages',
    help: 'Messages on a topic past the consumer group’s committed offsets, summed over the partitions.',
    labelNames: ['group', 'topic'] as const,
    registers: [registry],
    async collect() {
      const figures = await figuresOrNone();
      // Unset, not the last known value, while Kafka does not answer: a stale figure would look like a group
      // keeping up, and the gap with haven_consumer_lag_read_ok at 0 says plainly that nobody knows.
      this.reset();
      for (const { group, topic, lag } of figures ?? []) this.set({ group, topic }, lag);
    },
  });
  new Gauge({
    name: 'haven_consumer_lag_read_ok',
    help: 'Whether the last scrape could read the consumer lag from Kafka (1) or not (0).',
    registers: [registry],
    async collect() {
      this.set((await figuresOrNone()) ? 1 : 0);
    },
  });
  return {
    close: async () => {
      closed = true;
      await admin?.disconnect().catch(() => undefined);
    },
  };
}
