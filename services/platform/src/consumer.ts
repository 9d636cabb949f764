import { deadLetterTopicOf, decodeEvent, type DecodedEvent, type EventPayload, type EventType } from '@haven/proto';
import type { Consumer, Kafka, KafkaMessage, Producer } from 'kafkajs';
import { Schema, type Connection } from 'mongoose';
import { ensureTopics } from './kafka';
import type { Logger } from './logger';
import { isDuplicateKeyError } from './mongo';

export interface HandlerContext {
  eventId: string;
  correlationId: string;
  log: Logger;
}

export type EventHandler<T extends EventType> = (payload: EventPayload<T>, context: HandlerContext) => Promise<void>;
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

export interface ConsumerSpec {
  /** Kafka consumer group; one per service unless a service needs two independent readers. */
  groupId: string;
  topics: string[];
  handlers: EventHandlers;
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
    processedAt: { type: Date, required: true },
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
    this.processed = options.connection.model<ProcessedEvent>(
      `ProcessedEvent_${options.spec.groupId}`,
      processedEventSchema,
      `processed_events_${options.spec.groupId.replace(/[^a-z0-9]+/gi, '_')}`,
    );
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
    this.supervising = (async () => {
      for (let attempt = 1; !this.stopping; attempt += 1) {
        try {
          this.attempt = this.connect();
          const { crashed } = await withTimeout(
            this.attempt,
            this.options.startTimeoutMs ?? 30_000,
            'joining the consumer group',
          );
          attempt = 0;
          this.markReady();
          await Promise.race([crashed, this.stopped]);
          if (this.stopping) break;
          this.options.log.warn({ groupId: this.options.spec.groupId }, 'event consumer crashed; rejoining');
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
    const producer = kafka.producer();
    const consumer = kafka.consumer({
      groupId: spec.groupId,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      // Brief outages are ridden out by kafkajs itself; longer ones end in a crash we rejoin from.
      retry: { retries: 8, initialRetryTime: 300, maxRetryTime: 5_000 },
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
    const crashed = new Promise<void>((resolve) => {
      consumer.on(consumer.events.CRASH, (event) => {
        if (!event.payload.restart) resolve();
      });
    });
    await ensureTopics(kafka, [...spec.topics, this.deadLetterTopic]);
    await stillWanted();
    await producer.connect();
    await stillWanted();
    await consumer.connect();
    await stillWanted();
    await consumer.subscribe({ topics: spec.topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        await this.handle(topic, partition, message);
      },
    });
    await stillWanted();
    log.info({ groupId: spec.groupId, topics: spec.topics }, 'event consumer started');
    // Wrapped: an async function returning a bare promise would wait for it.
    return { crashed };
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.signalStopped();
    // kafkajs cannot cancel a join in progress; let the attempt finish (it then disconnects itself).
    await Promise.race([this.attempt?.catch(() => undefined), sleep(15_000)]);
    await this.disconnect();
    await this.supervising;
  }

  private async disconnect(): Promise<void> {
    const consumer = this.consumer;
    const producer = this.dltProducer;
    this.consumer = null;
    this.dltProducer = null;
    await consumer?.disconnect().catch(() => undefined);
    await producer?.disconnect().catch(() => undefined);
  }

  private async handle(topic: string, partition: number, message: KafkaMessage): Promise<void> {
    const { log } = this.options;
    let event: DecodedEvent;
    try {
      event = decodeEvent(message.value ?? new Uint8Array());
    } catch (error) {
      await this.deadLetter(topic, partition, message, error);
      return;
    }
    const handler = this.options.spec.handlers[event.type] as EventHandler<EventType> | undefined;
    if (!handler) return;
    const eventId = event.envelope.eventId;
    if (await this.processed.exists({ _id: eventId })) {
      log.debug({ eventId, type: event.type }, 'event already processed; skipped');
      return;
    }
    const context: HandlerContext = {
      eventId,
      correlationId: event.envelope.correlationId,
      log: log.child({ eventId, eventType: event.type, correlationId: event.envelope.correlationId }),
    };
    const maxAttempts = this.options.maxAttempts ?? 5;
    const initialBackoff = this.options.initialBackoffMs ?? 200;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await handler(event.payload, context);
        await this.markProcessed(eventId, event.type, 'handled');
        return;
      } catch (error) {
        if (attempt >= maxAttempts) {
          context.log.error({ err: error, attempt }, 'event handler failed every attempt; dead-lettering');
          await this.deadLetter(topic, partition, message, error);
          await this.markProcessed(eventId, event.type, 'dead-lettered');
          return;
        }
        const backoff = initialBackoff * 2 ** (attempt - 1);
        context.log.warn({ err: error, attempt, retryInMs: backoff }, 'event handler failed; retrying');
        await sleep(backoff);
      }
    }
  }

  private async markProcessed(eventId: string, type: string, outcome: ProcessedEvent['outcome']): Promise<void> {
    try {
      await this.processed.create({ _id: eventId, type, outcome, processedAt: new Date() });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  private async deadLetter(topic: string, partition: number, message: KafkaMessage, error: unknown): Promise<void> {
    // If this send fails the handler throws, kafkajs does not commit, and the message comes back later.
    await this.dltProducer!.send({
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
  }
}
