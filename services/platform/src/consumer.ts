import {
  deadLetterTopicOf,
  decodeEvent,
  erasureEventTypes,
  producerOf,
  topicOf,
  timestampDate,
  UnknownEventError,
  withPersonalFieldsOpened,
  type DecodedEvent,
  type EventPayload,
  type EventType,
} from '@haven/proto';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage, Producer } from 'kafkajs';
import { Schema, type Connection } from 'mongoose';
import { consumerLag } from './consumer-lag';
import { contextOfTraceparent, inSpan, SpanKind } from './tracing';
import { createConsumer, createProducer, ensureTopics, type TopicPolicy } from './kafka';
import type { Logger } from './logger';
import type { PersonKeyring } from './person-keys';
import { runPeriodically, type PeriodicWork } from './periodic';

export interface HandlerContext {
  eventId: string;
  correlationId: string;
  /** When the producer recorded the event (its envelope's time): what an e-mail's delivery latency counts from. */
  occurredAt: Date;
  log: Logger;
}

export type EventHandler<T extends EventType> = (payload: EventPayload<T>, context: HandlerContext) => Promise<void>;
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

/** What a consumer asks of the erased subjects' records (the erasure's guard, erasure.ts, answers it). */
export interface ErasedSubjects {
  isErased(subjectId: string): Promise<boolean>;
  /** Which of the subjects are erased, in one read. */
  erasedAmong(subjectIds: readonly string[]): Promise<Set<string>>;
}

export interface ConsumerSpec {
  /** Kafka consumer group; one per service unless a service needs two independent readers. */
  groupId: string;
  topics: string[];
  handlers: EventHandlers;
  /**
   * Partitions handled at once (default 1); each message of one partition still waits for the one
   * before it. For consumers whose handlers mostly wait on I/O, such as a mail server.
   */
  partitionsConsumedConcurrently?: number;
  /**
   * Opens the events' personal fields (address, names), which are published sealed under each person's key
   * (person-keys.ts); without it a handler sees them empty. An event whose person has no key any more (erased)
   * is skipped.
   */
  personKeyring?: PersonKeyring;
}

interface ProcessedEvent {
  _id: string;
  type: string;
  outcome: 'handled' | 'dead-lettered';
  processedAt: Date;
}

const processedEventSchema = new Schema<ProcessedEvent>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    outcome: { type: String, required: true },
    // Swept after the retention bound (mongo-java-server has no TTL indexes): see sweepProcessedEvents.
    processedAt: { type: Date, required: true, index: true },
  },
  { versionKey: false },
);

export interface EventConsumerOptions {
  kafka: Kafka;
  connection: Connection;
  spec: ConsumerSpec;
  log: Logger;
  maxAttempts?: number;
  initialBackoffMs?: number;
  startTimeoutMs?: number;
  /** Kafka's session timeout: the consumer heartbeats well within it, also while a handler runs. */
  sessionTimeoutMs?: number;
  /** One handler attempt's bound, well under the session timeout. */
  attemptTimeoutMs?: number;
  /** How the topics and the dead-letter topic are created and held (KAFKA_TOPIC_PARTITIONS, KAFKA_RETENTION_MS). */
  topicPolicy?: TopicPolicy;
  /** Partitions handled at once when the consumer's own definition does not say (KAFKA_CONSUMER_CONCURRENCY; default 1). */
  partitionsConsumedConcurrently?: number;
  /**
   * Skips events about erased subjects (the envelope's subject), so a late or redelivered event never
   * brings back an erased user's data; and when the subject was erased while the handler ran, erases it
   * again (`reErase`), so a write that raced the erasure goes too. The erasure's own events pass.
   */
  erasure?: { guard: ErasedSubjects; reErase(subjectId: string, context: HandlerContext): Promise<void> };
  /**
   * The progress watch: a consumer that has work (messages past its group's committed offsets on its own
   * partitions) and has finished no message for this long is stalled; it reports not joined (readiness
   * turns not-ready) and rejoins its group. Well above the longest a message may take (five bounded
   * attempts with back-off).
   */
  stallAfterMs?: number;
  /** How often the progress watch looks. */
  watchIntervalMs?: number;
}

const day = 24 * 60 * 60 * 1000;

/**
 * How long a group keeps the ids of the events it processed: longer than an event stays on Kafka
 * (`KAFKA_RETENTION_MS`, 13 days at most, and a day more until its segment closes), so every redelivery is known.
 */
export const processedEventRetentionMs = 14 * day;

/** Where a consumer group keeps the ids of the events it processed. */
export function processedEventsCollection(groupId: string): string {
  return `processed_events_${groupId.replace(/[^a-z0-9]+/gi, '_')}`;
}

/**
 * Deletes the ids processed before the period from every group's collection in the database, also those of groups
 * no consumer reads any more; says how many went. The platform's hourly sweep runs it (platform-sweep.ts).
 */
export async function sweepProcessedEvents(connection: Connection, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - processedEventRetentionMs);
  const prefix = processedEventsCollection('');
  const listed = await connection.db!.listCollections({}, { nameOnly: true }).toArray();
  let deleted = 0;
  for (const { name } of listed) {
    if (!name.startsWith(prefix)) continue;
    const processed = connection.db!.collection<ProcessedEvent>(name);
    deleted += (await processed.deleteMany({ processedAt: { $lt: cutoff } })).deletedCount;
  }
  return deleted;
}

// Unref'd: a wait that lost a race (to stop, to a crash) must not keep the process alive.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms ${what}`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** What a consumer counts, per source topic: events handled, dead-lettered, and handler attempts that failed. */
export interface ConsumerMetrics {
  handled: Map<string, number>;
  deadLettered: Map<string, number>;
  failures: Map<string, number>;
}

const countOn = (counts: Map<string, number>, topic: string) => counts.set(topic, (counts.get(topic) ?? 0) + 1);

/**
 * Reads events with idempotency (a processed-event id per group, stored in the
 * service's own database), retries a failing handler with back-off, and then
 * parks the message on the group's dead-letter topic so the partition moves on.
 */
export class EventConsumer {
  private consumer: Consumer | null = null;
  private dltProducer: Producer | null = null;
  private readonly processed;
  private readonly deadLetterTopic: string;

  constructor(private readonly options: EventConsumerOptions) {
    const collection = processedEventsCollection(options.spec.groupId);
    // A model for its index (ensureIndexes); each event's read and write of its id go through the driver,
    // without mongoose's casting of plain strings and dates on every event.
    options.connection.model<ProcessedEvent>(
      `ProcessedEvent_${options.spec.groupId}`,
      processedEventSchema,
      collection,
    );
    this.processed = options.connection.collection<ProcessedEvent>(collection);
    this.deadLetterTopic = deadLetterTopicOf(options.spec.groupId);
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    this.stopped = new Promise((resolve) => (this.signalStopped = resolve));
  }

  /**
   * Keeps the consumer running: Kafka may be down when the service starts, or
   * go away later; the consumer (re)joins whenever it answers. Resolves `ready`
   * the first time it has joined its group.
   */
  supervise(): void {
    if (this.supervising) return;
    this.watch = runPeriodically(() => this.watchProgress(), {
      intervalMs: this.options.watchIntervalMs ?? 15_000,
      log: this.options.log,
      what: 'the event consumer progress watch',
    });
    this.supervising = (async () => {
      for (let attempt = 1; !this.stopping; attempt += 1) {
        try {
          const rejoin = new Promise<'stalled'>((resolve) => (this.requestRejoin = () => resolve('stalled')));
          this.attempt = this.connect();
          const { crashed } = await withTimeout(
            this.attempt,
            this.options.startTimeoutMs ?? 30_000,
            'joining the consumer group',
          );
          attempt = 0;
          this.stalled = false;
          this.lastProgressAt = Date.now();
          this.markReady();
          const ended = await Promise.race([crashed, this.stopped, rejoin]);
          if (this.stopping) break;
          if (ended === 'stalled') {
            // A stuck consumer may never finish leaving: its session then lapses, and the group moves on.
            await Promise.race([this.disconnect(), sleep(15_000)]);
            continue;
          }
          this.options.log.warn({ groupId: this.options.spec.groupId }, 'event consumer crashed; rejoining');
          // The crashed consumer and its dead-letter producer go before new ones are made.
          await this.disconnect();
        } catch (error) {
          const delay = Math.min(5_000, 250 * 2 ** Math.min(attempt, 5));
          this.options.log.warn({ err: error, attempt, retryInMs: delay }, 'event consumer cannot start yet');
          await this.disconnect();
          await Promise.race([sleep(delay), this.stopped]);
        }
      }
    })();
  }

  /** Resolves once the consumer has joined its group (tests wait on it before disturbing Kafka). */
  readonly ready: Promise<void>;
  /**
   * Whether it is in its group and making progress now: false from a crash or a Kafka outage until it has
   * joined again, and while it is stalled (see `stallAfterMs`) until it has rejoined.
   */
  get joined(): boolean {
    return this.inGroup && !this.stalled;
  }
  private inGroup = false;
  private stalled = false;
  private requestRejoin: () => void = () => undefined;
  private watch: PeriodicWork<void> | null = null;
  /** The consumer group, which names the consumer in /metrics. */
  get groupId(): string {
    return this.options.spec.groupId;
  }
  /** Counts since the start, per source topic, for /metrics (metrics.ts). */
  readonly metrics: ConsumerMetrics = { handled: new Map(), deadLettered: new Map(), failures: new Map() };
  /** Messages finished (handled, skipped or dead-lettered) since the start; the watch compares it. */
  private finished = 0;
  private finishedAtLastWatch = 0;
  private lastProgressAt = Date.now();
  /** This member's partitions, per topic, from its last join. */
  private assignment: Record<string, number[]> = {};
  private markReady: () => void = () => undefined;
  private supervising: Promise<void> | null = null;
  private attempt: Promise<{ crashed: Promise<void> }> | null = null;
  private stopping = false;
  private readonly stopped: Promise<void>;
  private signalStopped: () => void = () => undefined;

  /** Joins the group and starts consuming; the returned promise settles if the consumer crashes for good. */
  private async connect(): Promise<{ crashed: Promise<void> }> {
    const { kafka, spec, log } = this.options;
    // Registered before any await, so a stop (or a timed-out attempt) can always disconnect them.
    const producer = createProducer(kafka);
    const sessionTimeout = this.options.sessionTimeoutMs ?? 30_000;
    const consumer = createConsumer(kafka, {
      groupId: spec.groupId,
      sessionTimeout,
      heartbeatInterval: Math.floor(sessionTimeout / 10),
      // Brief outages are ridden out by kafkajs's retries; longer ones end in a crash that supervise() rejoins
      // from. kafkajs's own restart after a crash is off: its timer can fire after a stop and leave a consumer
      // in the group that nobody stops, holding partitions whose events then go unhandled.
      retry: { retries: 8, initialRetryTime: 300, maxRetryTime: 5_000, restartOnFailure: async () => false },
    });
    this.dltProducer = producer;
    this.consumer = consumer;
    // An attempt that was stopped or replaced while it waited must not leave a live consumer behind.
    const stillWanted = async () => {
      if (!this.stopping && this.consumer === consumer) return;
      await consumer.disconnect().catch(() => undefined);
      await producer.disconnect().catch(() => undefined);
      throw new Error('consumer start abandoned');
    };
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      if (this.consumer !== consumer) return;
      this.inGroup = true;
      this.assignment = event.payload.memberAssignment;
    });
    const crashed = new Promise<void>((resolve) => {
      consumer.on(consumer.events.CRASH, (event) => {
        if (this.consumer === consumer) this.inGroup = false;
        if (!event.payload.restart) resolve();
      });
    });
    await ensureTopics(kafka, [...spec.topics, this.deadLetterTopic], this.options.topicPolicy);
    await stillWanted();
    await producer.connect();
    await stillWanted();
    await consumer.connect();
    await stillWanted();
    await consumer.subscribe({ topics: spec.topics, fromBeginning: true });
    await consumer.run({
      partitionsConsumedConcurrently:
        spec.partitionsConsumedConcurrently ?? this.options.partitionsConsumedConcurrently ?? 1,
      eachBatchAutoResolve: false,
      eachBatch: async (payload) => {
        const { messages } = payload.batch;
        for (let start = 0; start < messages.length; start += recordEvery) {
          if (!payload.isRunning() || payload.isStale()) return;
          await this.handleStretch(messages.slice(start, start + recordEvery), payload, producer);
        }
      },
    });
    await stillWanted();
    log.info({ groupId: spec.groupId, topics: spec.topics }, 'event consumer started');
    // Wrapped: an async function returning a bare promise would wait for it.
    return { crashed };
  }

  async stop(): Promise<void> {
    this.stopping = true;
    // A lag check under way is bounded by its admin client; stopping does not wait for it.
    void this.watch?.stop();
    this.signalStopped();
    // kafkajs cannot cancel a join in progress; let the attempt finish (it then disconnects itself).
    await Promise.race([this.attempt?.catch(() => undefined), sleep(15_000)]);
    await this.disconnect();
    // Attempts that outlived their bound still run: what they write and send must not meet a closed mail
    // transport or database connection (the service closes those after its consumers), bounded all the same.
    await Promise.race([Promise.all(this.unsettled), sleep(30_000)]);
    await this.supervising;
  }

  /** Handler attempts not yet settled, including those given up on by the attempt bound. */
  private readonly unsettled = new Set<Promise<void>>();

  private keepUntilSettled(work: Promise<void>): void {
    const settled: Promise<void> = work.then(
      () => undefined,
      () => undefined,
    );
    this.unsettled.add(settled);
    void settled.finally(() => this.unsettled.delete(settled));
  }

  private async disconnect(): Promise<void> {
    const consumer = this.consumer;
    const producer = this.dltProducer;
    this.consumer = null;
    this.dltProducer = null;
    this.inGroup = false;
    await consumer?.disconnect().catch(() => undefined);
    await producer?.disconnect().catch(() => undefined);
  }

  /**
   * One look of the progress watch. Cheap while messages finish; after `stallAfterMs` without one, asks
   * Kafka whether this member's partitions hold work (one admin round, then none for another period when
   * they do not): work and no progress is a stall, and the consumer rejoins its group.
   */
  private async watchProgress(): Promise<void> {
    if (this.stopping || !this.inGroup || this.stalled) return;
    try {
      const now = Date.now();
      if (this.finished !== this.finishedAtLastWatch) {
        this.finishedAtLastWatch = this.finished;
        this.lastProgressAt = now;
        return;
      }
      const idleMs = now - this.lastProgressAt;
      if (idleMs < (this.options.stallAfterMs ?? 120_000)) return;
      const waiting = await this.waitingMessages();
      if (waiting === 0) {
        this.options.log.debug(
          { groupId: this.options.spec.groupId },
          'event consumer idle: its partitions hold no work',
        );
      }
      if (waiting === 0 || this.finished !== this.finishedAtLastWatch || !this.inGroup) {
        this.lastProgressAt = now;
        return;
      }
      this.options.log.warn(
        { groupId: this.options.spec.groupId, waiting, idleMs },
        'event consumer has work and made no progress; rejoining its group',
      );
      this.stalled = true;
      this.requestRejoin();
    } catch (error) {
      this.options.log.warn({ err: error, groupId: this.options.spec.groupId }, 'cannot read the consumer lag');
    }
  }

  /** Messages on this member's partitions past its group's committed offsets. */
  private async waitingMessages(): Promise<number> {
    const admin = this.options.kafka.admin();
    await admin.connect();
    try {
      let waiting = 0;
      for (const [topic, partitions] of Object.entries(this.assignment)) {
        if (partitions.length === 0) continue;
        const [ends, [committed]] = await Promise.all([
          admin.fetchTopicOffsets(topic),
          admin.fetchOffsets({ groupId: this.options.spec.groupId, topics: [topic] }),
        ]);
        waiting += consumerLag(ends, committed?.partitions ?? [], partitions);
      }
      return waiting;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /**
   * Messages of one partition, in order, with their bookkeeping read and written once for all of them: which
   * events were handled before and which subjects are erased, before the first handler; the erasure re-check and
   * the "handled" records after the last, before their offsets are resolved. A crash in between runs their
   * handlers again, as a crash between a handler and its record always could.
   */
  private async handleStretch(messages: KafkaMessage[], payload: EachBatchPayload, producer: Producer): Promise<void> {
    const { topic, partition } = payload.batch;
    const heartbeat = payload.heartbeat;
    const decoded = messages.map((message) => ({ message, decoding: decodeOrFailure(message) }));
    const known = await this.knownOutcomes(
      decoded.flatMap(({ decoding }) => (decoding.ok ? [decoding.event] : [])),
      heartbeat,
    );
    let toRecord: HandledEvent[] = [];
    let lastOffset: string | null = null;
    // Records what finished and passes its offsets: at the end, also when a stop ends the stretch early, and
    // when a handler first fails, so a message that goes on to be dead-lettered never waits on the records of
    // the messages before it (were the database gone by then, they would hold it back, and it would be parked
    // again on redelivery).
    const settleFinished = async () => {
      if (lastOffset === null) return;
      const through = lastOffset;
      lastOffset = null; // a failed record is not tried again, and passes nothing
      await this.recordHandled(toRecord, heartbeat);
      toRecord = [];
      payload.resolveOffset(through);
    };
    try {
      for (const { message, decoding } of decoded) {
        if (!payload.isRunning() || payload.isStale()) break;
        const delivery = { topic, partition, message, heartbeat, producer };
        const handled = await this.handle(delivery, decoding, known, settleFinished);
        if (handled) toRecord.push(handled);
        lastOffset = message.offset;
        this.finished += 1;
        // As kafkajs does between messages: a rebalance under way shows here (the heartbeat throws), and the
        // stretch ends at once, its finished messages recorded, so the group never waits on the rest of it.
        await heartbeat();
      }
    } finally {
      await settleFinished();
    }
    await payload.commitOffsetsIfNecessary();
  }

  /** The stretch's events handled before (by id) and its guarded subjects erased, in two reads. */
  private async knownOutcomes(events: DecodedEvent[], heartbeat: () => Promise<void>): Promise<KnownOutcomes> {
    const { handlers } = this.options.spec;
    const eventIds = [
      ...new Set(events.filter((event) => handlers[event.type]).map((event) => event.envelope.eventId)),
    ];
    const guard = this.options.erasure?.guard;
    const subjects = guard ? [...new Set(events.flatMap((event) => guardedSubjectOf(event) ?? []))] : [];
    const [processed, erased] = await this.withDatabaseRetries(
      () =>
        Promise.all([
          eventIds.length > 0
            ? this.processed.find({ _id: { $in: eventIds } }, { projection: { outcome: 1 } }).toArray()
            : [],
          guard && subjects.length > 0 ? guard.erasedAmong(subjects) : new Set<string>(),
        ]),
      heartbeat,
    );
    // A dead-lettered id may come back on purpose (a redrive), so only "handled" skips.
    const handled = new Set(processed.filter((record) => record.outcome === 'handled').map((record) => record._id));
    return { handled, erased, askAgain: new Set() };
  }

  /** Handles one message; returns the event to record as handled, or null when there is nothing to record. */
  private async handle(
    delivery: Delivery,
    decoding: Decoding,
    known: KnownOutcomes,
    settleFinished: () => Promise<void>,
  ): Promise<HandledEvent | null> {
    const { topic, partition, message, heartbeat } = delivery;
    const { log } = this.options;
    if (!decoding.ok) {
      if (decoding.error instanceof UnknownEventError) {
        // A producer deployed before its consumers: not this group's business yet, and not an error.
        log.info({ topic, partition, offset: message.offset, err: decoding.error }, 'unknown event type skipped');
        return null;
      }
      await this.deadLetterOnce(delivery, decoding.error);
      return null;
    }
    const event = decoding.event;
    const handler = this.options.spec.handlers[event.type] as EventHandler<EventType> | undefined;
    if (!handler) return null;
    if (topic !== topicOf(producerOf(event.type))) {
      // Only the type's own service publishes on its topic: anything else is forged or misrouted, never acted on.
      log.warn(
        { topic, partition, offset: message.offset, eventType: event.type },
        'event on a topic not its own; dead-lettered',
      );
      await this.deadLetterOnce(
        delivery,
        new Error(`${event.type} belongs on ${topicOf(producerOf(event.type))}, not ${topic}`),
      );
      return null;
    }
    const eventId = event.envelope.eventId;
    if (known.handled.has(eventId)) {
      log.debug({ eventId, type: event.type }, 'event already processed; skipped');
      return null;
    }
    known.handled.add(eventId);
    const guard = this.options.erasure;
    const subjectId = guard ? guardedSubjectOf(event) : null;
    if (subjectId && (await this.erasedNow(subjectId, known, heartbeat))) {
      log.debug({ eventId, type: event.type }, 'event about an erased subject; skipped');
      return { eventId, type: event.type, subjectId: null };
    }
    const context: HandlerContext = {
      eventId,
      correlationId: event.envelope.correlationId,
      occurredAt: event.envelope.occurredAt ? timestampDate(event.envelope.occurredAt) : new Date(),
      log: log.child({ eventId, eventType: event.type, correlationId: event.envelope.correlationId }),
    };
    const maxAttempts = this.options.maxAttempts ?? 5;
    const initialBackoff = this.options.initialBackoffMs ?? 200;
    const attemptTimeout = this.options.attemptTimeoutMs ?? 10_000;
    const keyring = this.options.spec.personKeyring;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const opened = keyring
          ? await withPersonalFieldsOpened(event, (subject, sealed) => keyring.open(subject, sealed))
          : event;
        if (!opened) {
          context.log.info('event about a person whose key is gone (erased); skipped');
          return { eventId, type: event.type, subjectId: null };
        }
        // Each attempt a span of the trace the event came with (the publishing span in its headers).
        const work = inSpan(
          `consume ${event.type}`,
          {
            kind: SpanKind.CONSUMER,
            parent: contextOfTraceparent(message.headers?.traceparent?.toString()),
            attributes: {
              'messaging.system': 'kafka',
              'messaging.destination.name': topic,
              'messaging.consumer.group.name': this.options.spec.groupId,
              'messaging.message.id': eventId,
              'haven.event.type': event.type,
              'haven.attempt': attempt,
            },
          },
          () => handler(opened.payload, context),
        );
        this.keepUntilSettled(work);
        await whileHeartbeating(heartbeat, withTimeout(work, attemptTimeout, 'handling the event'));
      } catch (error) {
        // Stopping: the offset stays uncommitted and the event goes to the group's next owner, not to the
        // dead letters (a dependency stopping beside this service is no fault of the event), and the stop
        // does not wait out the back-offs.
        if (this.stopping) throw error;
        countOn(this.metrics.failures, topic);
        if (attempt === 1) await settleFinished();
        if (attempt >= maxAttempts) {
          context.log.error({ err: error, attempt }, 'event handler failed every attempt; dead-lettering');
          await this.deadLetterOnce(delivery, error);
          // Written after the dead letter and not fatal: a failure here must not dead-letter it twice.
          await this.withDatabaseRetries(
            () => this.markProcessed(eventId, event.type, 'dead-lettered'),
            heartbeat,
          ).catch((markError: unknown) =>
            context.log.error({ err: markError }, 'cannot record the dead-lettering (database error)'),
          );
          return null;
        }
        const backoff = initialBackoff * 2 ** (attempt - 1);
        context.log.warn({ err: error, attempt, retryInMs: backoff }, 'event handler failed; retrying');
        await whileHeartbeating(heartbeat, sleep(backoff));
        continue;
      }
      countOn(this.metrics.handled, topic);
      // The subject of an erasure the stretch just handled is asked about afresh from here on.
      if (erasureEventTypes.has(event.type) && event.envelope.subjectId) known.askAgain.add(event.envelope.subjectId);
      return subjectId
        ? { eventId, type: event.type, subjectId, context }
        : { eventId, type: event.type, subjectId: null };
    }
  }

  /** Whether the subject is erased: as read for the stretch, or read again after the stretch erased it. */
  private async erasedNow(subjectId: string, known: KnownOutcomes, heartbeat: () => Promise<void>): Promise<boolean> {
    const guard = this.options.erasure?.guard;
    if (!guard) return false;
    if (!known.askAgain.has(subjectId)) return known.erased.has(subjectId);
    return this.withDatabaseRetries(() => guard.isErased(subjectId), heartbeat);
  }

  /**
   * Records the handled events, after erasing again each subject erased while its handlers ran: what they
   * wrote may have missed the erasure. Only the records are retried from here, never the handlers.
   */
  private async recordHandled(handled: HandledEvent[], heartbeat: () => Promise<void>): Promise<void> {
    if (handled.length === 0) return;
    const guard = this.options.erasure;
    const written = new Map(handled.flatMap((each) => (each.subjectId ? [[each.subjectId, each.context]] : [])));
    if (guard && written.size > 0) {
      await this.withDatabaseRetries(async () => {
        for (const subjectId of await guard.guard.erasedAmong([...written.keys()])) {
          await guard.reErase(subjectId, written.get(subjectId)!);
        }
      }, heartbeat);
    }
    const processedAt = new Date();
    await this.withDatabaseRetries(
      () =>
        this.processed.bulkWrite(
          handled.map(({ eventId, type }) => ({
            updateOne: {
              filter: { _id: eventId },
              update: { $set: { type, outcome: 'handled' as const, processedAt } },
              upsert: true,
            },
          })),
          { ordered: false },
        ),
      heartbeat,
    );
  }

  private async markProcessed(eventId: string, type: string, outcome: ProcessedEvent['outcome']): Promise<void> {
    await this.processed.updateOne(
      { _id: eventId },
      { $set: { type, outcome, processedAt: new Date() } },
      { upsert: true },
    );
  }

  /** Retries a database call a few times with back-off, heartbeating meanwhile. */
  private async withDatabaseRetries<T>(work: () => Promise<T>, heartbeat: () => Promise<void>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= 5 || this.stopping) throw error;
        this.options.log.warn({ err: error, attempt }, 'event consumer database call failed; retrying');
        await whileHeartbeating(heartbeat, sleep(100 * 2 ** attempt));
      }
    }
  }

  /**
   * Sends the message to the group's dead-letter topic, retrying the send alone (the handler is not run
   * again). Gives up only when the consumer stops: the offset is then not committed, and the message
   * comes back after the restart.
   */
  private async deadLetterOnce(delivery: Delivery, error: unknown): Promise<void> {
    const { topic, partition, message, heartbeat, producer } = delivery;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await producer.send({
          topic: this.deadLetterTopic,
          messages: [
            {
              key: message.key,
              value: message.value,
              headers: {
                ...message.headers,
                'dlt-source-topic': topic,
                'dlt-source-partition': String(partition),
                'dlt-source-offset': message.offset,
                'dlt-error': error instanceof Error ? error.message : String(error),
              },
            },
          ],
        });
        countOn(this.metrics.deadLettered, topic);
        return;
      } catch (sendError) {
        if (this.stopping) throw sendError;
        const retryInMs = Math.min(5_000, 200 * 2 ** Math.min(attempt, 5));
        this.options.log.error(
          { err: sendError, attempt, retryInMs },
          'cannot write to the dead-letter topic; retrying',
        );
        await whileHeartbeating(heartbeat, sleep(retryInMs));
      }
    }
  }
}

/** Messages handled between two writes of their records: a crash repeats at most this many handlers. */
const recordEvery = 50;

type Decoding = { ok: true; event: DecodedEvent } | { ok: false; error: unknown };

function decodeOrFailure(message: KafkaMessage): Decoding {
  try {
    return { ok: true, event: decodeEvent(message.value ?? new Uint8Array()) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The subject an erasure guard checks the event against: none for the erasure's own events. */
function guardedSubjectOf(event: DecodedEvent): string | null {
  return event.envelope.subjectId && !erasureEventTypes.has(event.type) ? event.envelope.subjectId : null;
}

/** What a stretch of messages knows of its events' bookkeeping, kept current as it goes. */
interface KnownOutcomes {
  /** Ids handled before, or earlier in the stretch: skipped. */
  handled: Set<string>;
  /** Subjects erased when the stretch began. */
  erased: Set<string>;
  /** Subjects of erasures handled in the stretch: asked about again. */
  askAgain: Set<string>;
}

/** An event to record as handled; with its subject (and context) when the erasure re-check covers it. */
type HandledEvent =
  | { eventId: string; type: string; subjectId: string; context: HandlerContext }
  | { eventId: string; type: string; subjectId: null; context?: undefined };

interface Delivery {
  topic: string;
  partition: number;
  message: KafkaMessage;
  heartbeat: () => Promise<void>;
  /** The dead-letter producer of the consumer that received the message (not whatever is current). */
  producer: Producer;
}

/** Heartbeats while `work` runs, so a slow handler or a back-off is not mistaken for a dead consumer. */
async function whileHeartbeating<T>(heartbeat: () => Promise<void>, work: Promise<T>): Promise<T> {
  const beat = () => void heartbeat().catch(() => undefined); // a failed beat shows up as a rebalance
  beat();
  const ticker = setInterval(beat, 1_000);
  try {
    return await work;
  } finally {
    clearInterval(ticker);
  }
}
