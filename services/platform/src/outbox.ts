import { encodeEvent, type EventType, type NewEvent } from '@haven/proto';
import type { Kafka, Message, Producer, TopicMessages } from 'kafkajs';
import { mongo, Schema, type Collection } from 'mongoose';
import { ensureTopics } from './kafka';
import type { Logger } from './logger';

/**
 * Transactional-style outbox without transactions: an entity carries its own
 * pending events, so the entity and its events are written in one document
 * write. A relay publishes them and clears the list; consumers are idempotent,
 * so a publish that is repeated after a crash is harmless.
 */
export interface OutboxEntry {
  eventId: string;
  type: string;
  topic: string;
  key: string;
  value: Buffer;
}

/** Haven's entities use string ids (UUIDs), which travel unchanged in events. */
export interface WithOutbox {
  _id: string;
  outbox: OutboxEntry[];
  // Bumped on every append, so the relay clears only what it actually published.
  outboxVersion: number;
  outboxPending: boolean;
}

const outboxEntrySchema = new Schema<OutboxEntry>(
  {
    eventId: { type: String, required: true },
    type: { type: String, required: true },
    topic: { type: String, required: true },
    key: { type: String, required: true },
    value: { type: Buffer, required: true },
  },
  { _id: false },
);

export function outboxPlugin(schema: Schema): void {
  schema.add({
    outbox: { type: [outboxEntrySchema], default: [] },
    outboxVersion: { type: Number, default: 0 },
    outboxPending: { type: Boolean, default: false },
  });
  schema.index({ outboxPending: 1 });
}

/** Adds an event to the entity's outbox; it is stored by the entity's next save. */
export function recordEvent<T extends EventType>(doc: WithOutbox, event: NewEvent<T>): string {
  const encoded = encodeEvent(event);
  doc.outbox.push({
    eventId: encoded.eventId,
    type: encoded.type,
    topic: encoded.topic,
    key: encoded.key,
    value: Buffer.from(encoded.value),
  });
  doc.outboxVersion += 1;
  doc.outboxPending = true;
  return encoded.eventId;
}

/** Any model whose schema uses outboxPlugin; the relay needs only its collection. */
export interface OutboxModel {
  modelName: string;
  collection: Collection;
}

export interface OutboxRelayOptions {
  kafka: Kafka;
  models: OutboxModel[];
  topics: string[];
  log: Logger;
  idleIntervalMs?: number;
  maxBackoffMs?: number;
  batchSize?: number;
}

/** Publishes pending outbox events; keeps trying, with back-off, while Kafka is away. */
export class OutboxRelay {
  private producer: Producer | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private flushing: Promise<number> | null = null;
  private failures = 0;
  private wake: (() => void) | null = null;
  private loopDone: Promise<void> | null = null;
  private topicsReady = false;

  constructor(private readonly options: OutboxRelayOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Asks the relay to publish now instead of at its next tick (called after a write). */
  nudge(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loopDone;
    await this.producer?.disconnect().catch(() => undefined);
    this.producer = null;
  }

  /** Publishes everything pending once; returns how many events went out. */
  flushOnce(): Promise<number> {
    this.flushing ??= this.publishPending().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async loop(): Promise<void> {
    const idle = this.options.idleIntervalMs ?? 500;
    const maxBackoff = this.options.maxBackoffMs ?? 5_000;
    while (this.running) {
      let delay = idle;
      try {
        const published = await this.flushOnce();
        if (this.failures > 0) this.options.log.info('outbox relay reconnected to Kafka');
        this.failures = 0;
        if (published > 0) delay = 0;
      } catch (error) {
        this.failures += 1;
        delay = Math.min(maxBackoff, 200 * 2 ** Math.min(this.failures, 10));
        const log = this.failures === 1 ? 'warn' : 'debug';
        this.options.log[log]({ err: error, retryInMs: delay }, 'outbox relay cannot publish yet; events stay stored');
        await this.resetProducer();
      }
      if (this.running && delay > 0) await this.sleep(delay);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.timer = setTimeout(resolve, ms);
      this.wake = () => {
        if (this.timer) clearTimeout(this.timer);
        resolve();
      };
    }).finally(() => {
      this.wake = null;
      this.timer = null;
    });
  }

  private async connectedProducer(): Promise<Producer> {
    if (!this.topicsReady) {
      await ensureTopics(this.options.kafka, this.options.topics);
      this.topicsReady = true;
    }
    if (!this.producer) {
      const producer = this.options.kafka.producer({ allowAutoTopicCreation: false, idempotent: false });
      await producer.connect();
      this.producer = producer;
    }
    return this.producer;
  }

  private async resetProducer(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    await producer?.disconnect().catch(() => undefined);
  }

  private async publishPending(): Promise<number> {
    let published = 0;
    const batchSize = this.options.batchSize ?? 100;
    for (const model of this.options.models) {
      const pending = (await model.collection
        .find({ outboxPending: true }, { projection: { outbox: 1, outboxVersion: 1 }, limit: batchSize })
        // The driver types _id as ObjectId; Haven's are strings, passed back unchanged below.
        .toArray()) as unknown as Array<{ _id: mongo.ObjectId; outbox: OutboxEntry[]; outboxVersion: number }>;
      if (pending.length === 0) continue;
      const producer = await this.connectedProducer();
      for (const doc of pending) {
        if (doc.outbox.length > 0) await producer.sendBatch({ acks: -1, topicMessages: groupByTopic(doc.outbox) });
        // Cleared only if nothing was appended meanwhile; otherwise the next pass publishes again.
        await model.collection.updateOne(
          { _id: doc._id, outboxVersion: doc.outboxVersion },
          { $set: { outbox: [], outboxPending: false } },
        );
        published += doc.outbox.length;
      }
    }
    return published;
  }
}

function groupByTopic(entries: OutboxEntry[]): TopicMessages[] {
  const byTopic = new Map<string, Message[]>();
  for (const entry of entries) {
    const messages = byTopic.get(entry.topic) ?? [];
    messages.push({
      key: entry.key,
      value: asBuffer(entry.value),
      headers: { 'event-type': entry.type, 'event-id': entry.eventId },
    });
    byTopic.set(entry.topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/** Raw driver reads return BSON Binary for Buffer fields. */
function asBuffer(value: Buffer | mongo.Binary | Uint8Array): Buffer {
  return value instanceof mongo.Binary ? Buffer.from(value.buffer) : Buffer.from(value);
}
