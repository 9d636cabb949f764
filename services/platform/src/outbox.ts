import { encodeEvent, personalFieldsOf, withPersonalFieldsSealed, type EventType, type NewEvent } from '@haven/proto';
import type { PersonKeyring } from './person-keys';
import type { Kafka, Message, PartitionMetadata, Producer } from 'kafkajs';
import { mongo, Schema, type Collection, type Connection, type Model, type UpdateQuery } from 'mongoose';
import type { GraphQLError } from 'graphql';
import { randomUUID } from 'node:crypto';
import { defaultOutboxBacklog } from './config';
import { tooManyRequests } from './errors';
import { createProducer, ensureTopics, partitionOfKey, topicPartitions, type TopicPolicy } from './kafka';
import type { Logger } from './logger';
import { createLease, type Lease } from './lease';
import { groupByPartition, logProgress } from './outbox-progress';
import { currentTraceparent, publishSpan, SpanStatusCode } from './tracing';

/**
 * Outbox without transactions (see docs/events.md). An entity carries its unpublished events, `outbox`,
 * appended in the same single-document write as the change it describes: `$push` of the events and
 * `$inc` of `outboxVersion` (how many events were ever appended), never a `$set` of a version read earlier.
 * Once Kafka acknowledged them, the relay `$pull`s exactly the published entries by event id, so the log
 * in the document is the unpublished tail: its first entry's version is `outboxVersion - outbox.length + 1`.
 * A write that would grow the tail past its bound is refused (HTTP 429). The relay owns two collections and
 * a lease:
 * - `outbox_pending`: which entities have work, one document per entity, read by `_id` (cheap when idle);
 * - `outbox_marks`: how far each entity's log is published, whether it is parked, and which of its events
 *   are out past one the broker refused;
 * - the lease `outbox-relay` (lease.ts): which relay replica is active (one per service database).
 * A slow sweep compares every entity's version with its mark, the backstop for a writer that crashed
 * between its entity write and its pending mark.
 */
export interface OutboxEntry {
  eventId: string;
  type: string;
  topic: string;
  key: string;
  value: Buffer;
  /** The trace of the request that caused the event (W3C traceparent), so its publishing and handling join it. */
  traceparent?: string;
}

/** Haven's entities use string ids (UUIDs), which travel unchanged in events. */
export interface WithOutbox {
  _id: string;
  /** The events not yet published (and, briefly, published ones the relay has not removed yet). */
  outbox: OutboxEntry[];
  /** The number of events ever appended, incremented in the write that appends them. */
  outboxVersion: number;
  /** Set by deleteKeepingEvents: the entity is gone for readers; the relay deletes it once its log is out. */
  outboxTombstone?: boolean;
}

export const outboxCollections = {
  pending: 'outbox_pending',
  marks: 'outbox_marks',
} as const;

/** The relay's lease (lease.ts): one active relay per service database. */
export const outboxRelayLease = 'outbox-relay';

const outboxEntrySchema = new Schema<OutboxEntry>(
  {
    eventId: { type: String, required: true },
    type: { type: String, required: true },
    topic: { type: String, required: true },
    key: { type: String, required: true },
    value: { type: Buffer, required: true },
    traceparent: { type: String },
  },
  { _id: false },
);

// Readers never see a tombstone: the entity is deleted as far as the service is concerned.
const hideTombstones = { outboxTombstone: { $ne: true } };

const backlogBounds = new WeakMap<Connection, number>();

/** Sets the backlog bound of the entities stored through `connection` (OUTBOX_MAX_PENDING). */
export function limitOutboxBacklog(connection: Connection, maxPending: number): void {
  backlogBounds.set(connection, maxPending);
}

const backlogBoundOf = (connection: Connection) => backlogBounds.get(connection) ?? defaultOutboxBacklog;

/**
 * The filter that lets an append of `count` events match only while the log has room for them: part of the
 * atomic update, so concurrent writers cannot overshoot the bound together.
 */
function roomFor(bound: number, count: number): Record<string, unknown> {
  return Number.isFinite(bound) ? { [`outbox.${Math.max(0, bound - count)}`]: { $exists: false } } : {};
}

/** The opposite: the log has no room for `count` more entries. */
const roomFull = (bound: number, count: number) => ({
  [`outbox.${Math.max(0, bound - count)}`]: { $exists: true },
});

export const outboxBacklogMessage =
  'Too many requests for this account are still being processed. Please try again in a few minutes.';

/** The refusal of a write whose entity holds too many unpublished events (the relay is behind, or under attack). */
export function outboxBacklogFull(): GraphQLError {
  return tooManyRequests(outboxBacklogMessage, 60);
}

export function outboxPlugin(schema: Schema): void {
  schema.add({
    // Reads leave the log out unless they ask for it (`+outbox`): only the write paths that record events need it.
    outbox: { type: [outboxEntrySchema], default: [], select: false },
    outboxVersion: { type: Number, default: 0 },
    outboxTombstone: { type: Boolean },
  });
  for (const operation of ['find', 'findOne', 'countDocuments', 'findOneAndUpdate', 'updateOne'] as const) {
    schema.pre(operation, function () {
      this.where(hideTombstones);
    });
  }
  // The entity write is done; tell the relay (a crash before this line is what the sweep is for).
  schema.post('save', async function (doc: OutboxDocument) {
    if (!doc.$locals.outboxAppended) return;
    doc.$locals.outboxAppended = 0;
    forgetRoomCondition(doc);
    const model = this.constructor as Model<WithOutbox>;
    await markPending(model.db, model.collection.collectionName, doc._id);
  });
  // A save that appended found no entity with room for its events: said as the backlog it is.
  schema.post('save', function (error: Error, doc: OutboxDocument, next: (error?: Error) => void) {
    const appended = doc.$locals.outboxAppended as number | undefined;
    // Mongoose says VersionError instead when the save also checks the document's version.
    const noMatch = error.name === 'DocumentNotFoundError' || error.name === 'VersionError';
    if (!noMatch || !appended) return next(error);
    const model = doc.constructor as Model<WithOutbox>;
    const bound = backlogBoundOf(model.db);
    model.collection
      .findOne({ _id: doc._id, ...roomFull(bound, appended) } as unknown as mongo.Filter<mongo.Document>, {
        projection: { _id: 1 },
      })
      .then((full) => next(full ? outboxBacklogFull() : error), next);
  });
}

function toEntry<T extends EventType>(event: NewEvent<T>): OutboxEntry {
  const encoded = encodeEvent(event);
  const traceparent = currentTraceparent();
  return {
    eventId: encoded.eventId,
    type: encoded.type,
    topic: encoded.topic,
    key: encoded.key,
    value: Buffer.from(encoded.value),
    ...(traceparent ? { traceparent } : {}),
  };
}

type OutboxDocument = WithOutbox & {
  $inc(path: string, value: number): unknown;
  isNew: boolean;
  isSelected(path: string): boolean;
  $where: Record<string, unknown> | undefined;
  $locals: Record<string, unknown>;
  constructor: unknown;
};

/**
 * Adds an event to the entity's log; it is stored by the entity's next `save()`, which sends it as
 * `$push` + `$inc` (mongoose's atomic array push), so concurrent saves of one entity both keep their
 * events. Fields set on the same document still follow mongoose's last-writer-wins `$set`. The document
 * must have been read with its log (`select('+outbox')`); the save is refused (429) when the log is full.
 */
export function recordEvent<T extends EventType>(doc: WithOutbox, event: NewEvent<T>): string {
  const entry = toEntry(event);
  const outboxDoc = doc as OutboxDocument;
  if (!outboxDoc.isNew && !outboxDoc.isSelected('outbox')) {
    throw new Error('recordEvent needs the entity read with its outbox: select("+outbox")');
  }
  doc.outbox.push(entry);
  const appended = ((outboxDoc.$locals.outboxAppended as number | undefined) ?? 0) + 1;
  outboxDoc.$locals.outboxAppended = appended;
  if (outboxDoc.isNew) doc.outboxVersion = doc.outbox.length;
  else {
    outboxDoc.$inc('outboxVersion', 1);
    const bound = backlogBoundOf((outboxDoc.constructor as Model<WithOutbox>).db);
    if (appended > bound) throw outboxBacklogFull();
    // The save's filter: room for every event appended since the last save.
    forgetRoomCondition(outboxDoc);
    const room = roomFor(bound, appended);
    outboxDoc.$locals.outboxRoomKey = Object.keys(room)[0];
    outboxDoc.$where = { ...outboxDoc.$where, ...room };
  }
  return entry.eventId;
}

function forgetRoomCondition(doc: OutboxDocument): void {
  const key = doc.$locals.outboxRoomKey as string | undefined;
  if (!key || !doc.$where) return;
  const { [key]: _room, ...rest } = doc.$where;
  doc.$where = rest;
  doc.$locals.outboxRoomKey = undefined;
}

/**
 * Inserts a new entity with its first events in one write, straight through the driver: for a hot path whose
 * caller has already validated the record, where building a mongoose document (casting, validation, change
 * tracking) costs more than the insert. The record is stored as given; a duplicate `_id` throws as `insertOne`
 * does, and then nothing is stored.
 */
export async function insertWithEvents<E extends WithOutbox>(
  model: Model<E>,
  record: Omit<E, keyof WithOutbox> & { _id: string },
  events: Array<NewEvent<EventType>>,
): Promise<void> {
  const entries = events.map((event) => toEntry(event));
  if (entries.length > backlogBoundOf(model.db)) throw outboxBacklogFull();
  await model.collection.insertOne({ ...record, outbox: entries, outboxVersion: entries.length } as mongo.Document);
  await markPending(model.db, model.collection.collectionName, record._id);
}

/**
 * Appends events to an existing entity in one atomic update, together with `change` (for example a
 * `$set` of the fields the events describe; its own `$push` and `$inc` are kept beside the outbox's). Returns
 * false when no entity matched `filter`; throws the backlog refusal (429) when one did but its log is full,
 * and then nothing is stored.
 */
export async function appendEvents<E extends WithOutbox>(
  model: Model<E>,
  filter: { _id: string } & Record<string, unknown>,
  events: Array<NewEvent<EventType>>,
  change: UpdateQuery<WithOutbox> = {},
  options: { bounded?: boolean } = {},
): Promise<boolean> {
  const entries = events.map((event) => toEntry(event));
  // Unbounded appends (a deletion) are never refused: the log still empties as the relay publishes.
  const bound = options.bounded === false ? Infinity : backlogBoundOf(model.db);
  if (entries.length > bound) throw outboxBacklogFull();
  const update: Record<string, unknown> = {
    ...change,
    $push: { ...(change.$push as object | undefined), outbox: { $each: entries } },
    $inc: { ...(change.$inc as object | undefined), outboxVersion: entries.length },
  };
  const result = await model.collection.updateOne(
    { ...filter, ...hideTombstones, ...roomFor(bound, entries.length) } as unknown as mongo.Filter<mongo.Document>,
    update as mongo.UpdateFilter<mongo.Document>,
  );
  if (result.matchedCount === 0) {
    if (!Number.isFinite(bound)) return false;
    const full = await model.collection.findOne(
      { ...filter, ...hideTombstones, ...roomFull(bound, entries.length) } as unknown as mongo.Filter<mongo.Document>,
      { projection: { _id: 1 } },
    );
    if (full) throw outboxBacklogFull();
    return false;
  }
  await markPending(model.db, model.collection.collectionName, filter._id);
  return true;
}

/**
 * Deletes an entity without dropping its events: the deletion event is appended, the listed fields
 * are removed (personal data goes now), and the entity becomes a tombstone that readers never see.
 * The relay deletes the tombstone once every event in its log is published.
 */
export async function deleteKeepingEvents<E extends WithOutbox>(
  model: Model<E>,
  id: string,
  deletionEvent: NewEvent<EventType>,
  removeFields: string[] = [],
): Promise<boolean> {
  const unset = Object.fromEntries(removeFields.map((field) => [field, '']));
  return appendEvents(
    model,
    { _id: id },
    [deletionEvent],
    { $set: { outboxTombstone: true }, ...(removeFields.length > 0 ? { $unset: unset } : {}) },
    { bounded: false },
  );
}

/**
 * Erases entities for good, with the events they still hold: the documents (tombstones too), their pending
 * marks and their publish marks. Unpublished events go with them (an erased user's events are not sent
 * after the erasure). Returns how many entities were erased.
 */
export async function eraseOutboxed(
  model: { collection: Collection; db: Connection },
  filter: Record<string, unknown>,
): Promise<number> {
  const raw = model.collection as unknown as mongo.Collection<{ _id: string }>;
  const ids = (await raw.find(filter as mongo.Filter<{ _id: string }>, { projection: { _id: 1 } }).toArray()).map(
    (entity) => entity._id,
  );
  if (ids.length === 0) return 0;
  await raw.deleteMany({ _id: { $in: ids } });
  await forgetOutboxMarks(model, ids);
  return ids.length;
}

/** The relay's pending and publish marks of entities deleted for good, which would otherwise outlive them. */
export async function forgetOutboxMarks(
  model: { collection: Collection; db: Connection },
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  const keys = ids.map((id) => pendingId(model.collection.collectionName, id));
  await model.db.collection<PendingMark>(outboxCollections.pending).deleteMany({ _id: { $in: keys } });
  await model.db.collection<PublishMark>(outboxCollections.marks).deleteMany({ _id: { $in: keys } });
}

/** Tells the relay that an entity has events to publish; a fresh nonce, so a relay pass in flight keeps it. */
export async function markPending(db: Connection, collectionName: string, entityId: string): Promise<void> {
  await db
    .collection<PendingMark>(outboxCollections.pending)
    .updateOne(
      { _id: pendingId(collectionName, entityId) },
      { $set: { collection: collectionName, entityId, nonce: randomUUID(), at: new Date() } },
      { upsert: true },
    );
}

interface PendingMark {
  _id: string;
  collection: string;
  entityId: string;
  nonce: string;
  at: Date;
}

interface PublishMark {
  _id: string;
  publishedUpTo: number;
  /** Events past `publishedUpTo` already on their topics (an earlier event of the entity was refused). */
  alsoPublished?: string[];
  state: 'ok' | 'parked';
  failures: number;
  lastError?: string;
  parkedAt?: Date;
}

interface EntityWork {
  pending: PendingMark;
  entity: WithOutbox;
  mark: PublishMark | null;
  /** Entries the mark says are out already (a pass stopped before removing them). */
  confirmed: OutboxEntry[];
  /** The log past the mark; its first entry's version is `firstTailVersion`. */
  tail: OutboxEntry[];
  firstTailVersion: number;
  /** Entries of the tail an earlier pass published past a refused one (the mark's `alsoPublished`). */
  earlier: Set<string>;
  /** The tail without those. */
  unpublished: OutboxEntry[];
  /** The entity's version once its tail is out. */
  version: number;
}

/** What one pass's requests to Kafka did. */
interface SendOutcome {
  /** Events the broker acknowledged. */
  published: Set<string>;
  /** Entities whose events the broker refuses for a reason of their own (too large, invalid). */
  refused: Map<EntityWork, unknown>;
  /** The broker could not take some partition's events (away, no leader): those are tried again after a back-off. */
  brokerError: unknown;
}

const pendingId = (collectionName: string, entityId: string) => `${collectionName}:${entityId}`;

/** Entities the sweep reads per page (one database round trip each). */
const sweepPageSize = 500;

/** The longest pause a sweep beside the passes takes between pages. */
const sweepPauseMaxMs = 250;

/** How long the relay trusts its copy of the topics' partitions (KafkaJS's own metadata age). */
const partitionsMaxAgeMs = 5 * 60_000;

/** Any model whose schema uses outboxPlugin; the relay needs its collection and its connection. */
export interface OutboxModel {
  modelName: string;
  collection: Collection;
  db: Connection;
}

export interface OutboxRelayOptions {
  kafka: Kafka;
  models: OutboxModel[];
  topics: string[];
  log: Logger;
  /** Names this replica in the lease (default: a random id). */
  owner?: string;
  /** How long an idle relay waits before looking again (a write in this process wakes it sooner). */
  idleIntervalMs?: number;
  /**
   * After a pass that published, how long the relay lets more events gather before the next (writes do not
   * cut it short): under load one pass, with its lease renewal and reads, carries many writes' events instead
   * of one. An event waits at most this much longer; the first after a quiet spell leaves at once.
   */
  lingerMs?: number;
  maxBackoffMs?: number;
  batchSize?: number;
  /** How long a replica stays the active relay without renewing. */
  leaseMs?: number;
  /** How often the full backstop sweep runs. */
  sweepIntervalMs?: number;
  /** Consecutive failures of one entity's publish before it is parked. */
  parkAfterFailures?: number;
  /** How the topics are created and held (KAFKA_TOPIC_PARTITIONS, KAFKA_RETENTION_MS); ensureTopics' defaults otherwise. */
  topicPolicy?: TopicPolicy;
  /**
   * Seals each event's personal fields (address, names) under its subject's own key as it leaves for Kafka
   * (person-keys.ts): a topic never holds them in clear. The entity's own copy holds them anyway.
   */
  personKeyring?: PersonKeyring;
}

export interface OutboxRelayMetrics {
  published: number;
  /** Entities parked since start; each also logged at error level. */
  parked: number;
  documentFailures: number;
  /** Passes that could not publish (Kafka away, or the database), each followed by a back-off and a retry. */
  failedPasses: number;
  sweeps: number;
  isLeader: boolean;
}

/** A database call failed: said as such in the logs, not mistaken for Kafka being away. */
class OutboxDatabaseError extends Error {
  constructor(override readonly cause: unknown) {
    super(`outbox database error: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

async function db<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw new OutboxDatabaseError(error);
  }
}

/**
 * Kafka refused this entity's messages for a reason that retrying will not fix (too large, invalid):
 * the entity's fault, not the broker's. Anything else (connection, timeouts, leadership) is the broker's.
 */
function isDocumentFault(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error as { retriable?: boolean; name?: string; cause?: unknown } | undefined; current;) {
    if (seen.has(current)) break;
    seen.add(current);
    if (current.name === 'KafkaJSProtocolError' && current.retriable === false) return true;
    current = current.cause as typeof current;
  }
  return false;
}

/** Publishes pending outbox events; one active replica per service; keeps trying while Kafka is away. */
export class OutboxRelay {
  private producer: Producer | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private flushing: Promise<number> | null = null;
  private failures = 0;
  private wake: (() => void) | null = null;
  private loopDone: Promise<void> | null = null;
  private topicsReady = false;
  private partitions: { readAt: number; byTopic: Map<string, PartitionMetadata[]> } | null = null;
  private sweeping: Promise<void> | null = null;
  private lastSweep = 0;
  private readonly owner: string;
  private readonly lease: Lease | null;
  readonly metrics: OutboxRelayMetrics = {
    published: 0,
    parked: 0,
    documentFailures: 0,
    failedPasses: 0,
    sweeps: 0,
    isLeader: false,
  };

  constructor(private readonly options: OutboxRelayOptions) {
    this.owner = options.owner ?? randomUUID();
    const db = options.models[0]?.db;
    this.lease = db ? createLease(db, outboxRelayLease, { ms: options.leaseMs ?? 15_000, owner: this.owner }) : null;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // The first sweep comes one interval after start (at most a minute): a start is busy enough already.
    const sweepEvery = this.options.sweepIntervalMs ?? 10 * 60_000;
    this.lastSweep = Date.now() - sweepEvery + Math.min(sweepEvery, 60_000);
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
    await this.sweeping;
    await this.releaseLease().catch(() => undefined);
    await this.resetProducer();
  }

  /** One pass: takes or renews the lease, then publishes what is pending; returns how many events went out. */
  flushOnce(): Promise<number> {
    this.flushing ??= this.pass().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** The backstop: finds entities whose log is ahead of their mark but have no pending mark. */
  sweepOnce(): Promise<number> {
    return this.sweep(() => true, false);
  }

  /**
   * Reads every entity a page at a time and gives the event loop back between pages, so it runs beside
   * publishing: the passes go on (and keep renewing the lease) while it reads. `paced`, it then leaves the
   * database alone for as long as the page kept it busy (at most `sweepPauseMaxMs`), so a pass meets a sweep's
   * query at most half the time. It stops early once `proceed` says so (the relay stopped, or another replica
   * holds the lease).
   */
  private async sweep(proceed: () => boolean, paced: boolean): Promise<number> {
    let found = 0;
    for (const model of this.options.models) {
      const marks = model.db.collection<PublishMark>(outboxCollections.marks);
      const entities = model.collection.find(
        { outboxVersion: { $gt: 0 } },
        { projection: { outboxVersion: 1 }, batchSize: sweepPageSize },
      );
      let page: Array<{ _id: string; outboxVersion: number }> = [];
      const check = async () => {
        const ids = page.map((entity) => pendingId(model.collection.collectionName, entity._id));
        const known = new Map((await marks.find({ _id: { $in: ids } }).toArray()).map((mark) => [mark._id, mark]));
        for (const entity of page) {
          const mark = known.get(pendingId(model.collection.collectionName, entity._id));
          if (mark?.state === 'parked' || (mark?.publishedUpTo ?? 0) >= entity.outboxVersion) continue;
          await markPending(model.db, model.collection.collectionName, entity._id);
          found += 1;
        }
        page = [];
      };
      let pageStarted = Date.now();
      for await (const entity of entities) {
        page.push(entity as unknown as { _id: string; outboxVersion: number });
        if (page.length < sweepPageSize) continue;
        await check();
        if (!proceed()) return found;
        const pause = paced ? Math.min(Date.now() - pageStarted, sweepPauseMaxMs) : 0;
        await new Promise<void>((resolve) => (pause > 0 ? setTimeout(resolve, pause) : setImmediate(resolve)));
        pageStarted = Date.now();
      }
      await check();
    }
    this.metrics.sweeps += 1;
    if (found > 0) this.options.log.warn({ found }, 'outbox sweep found unpublished events without a pending mark');
    return found;
  }

  /** Starts a sweep beside the loop when one is due and none is running. */
  private sweepIfDue(sweepEvery: number): void {
    if (!this.metrics.isLeader || this.sweeping || Date.now() - this.lastSweep < sweepEvery) return;
    this.lastSweep = Date.now();
    this.sweeping = this.sweep(() => this.running && this.metrics.isLeader, true)
      .then((found) => {
        if (found > 0) this.nudge();
      })
      .catch((error: unknown) => {
        this.options.log.error({ err: error }, 'outbox sweep failed; the next one runs at its interval');
      })
      .finally(() => {
        this.sweeping = null;
      });
  }

  private async loop(): Promise<void> {
    const idle = this.options.idleIntervalMs ?? 2_000;
    const linger = this.options.lingerMs ?? 25;
    const maxBackoff = this.options.maxBackoffMs ?? 5_000;
    const sweepEvery = this.options.sweepIntervalMs ?? 10 * 60_000;
    while (this.running) {
      let delay = idle;
      let lingering = false;
      try {
        const published = await this.flushOnce();
        if (this.failures > 0) this.options.log.info('outbox relay publishing again');
        this.failures = 0;
        if (published > 0) {
          delay = linger;
          lingering = true;
        }
        this.sweepIfDue(sweepEvery);
      } catch (error) {
        this.failures += 1;
        this.metrics.failedPasses += 1;
        delay = Math.min(maxBackoff, 200 * 2 ** Math.min(this.failures, 10));
        const level = this.failures === 1 ? 'warn' : 'debug';
        if (error instanceof OutboxDatabaseError) {
          this.options.log.error(
            { err: error.cause, retryInMs: delay },
            'outbox relay cannot read or write its database',
          );
        } else {
          this.options.log[level](
            { err: error, retryInMs: delay },
            'outbox relay cannot publish yet; events stay stored',
          );
          await this.resetProducer();
        }
      }
      if (this.running && delay > 0) await this.sleep(delay, !lingering);
    }
  }

  /** Waits `ms`; a write's nudge ends the wait when `wakeable`, a stop always. */
  private sleep(ms: number, wakeable: boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      this.timer = setTimeout(resolve, ms);
      this.wake = () => {
        if (wakeable || !this.running) {
          if (this.timer) clearTimeout(this.timer);
          resolve();
        }
      };
    }).finally(() => {
      this.wake = null;
      this.timer = null;
    });
  }

  private async holdLease(): Promise<boolean> {
    if (!this.lease) return false;
    try {
      return await this.lease.hold();
    } catch (error) {
      throw new OutboxDatabaseError(error);
    }
  }

  private async releaseLease(): Promise<void> {
    if (!this.metrics.isLeader || !this.lease) return;
    await this.lease.release();
    this.metrics.isLeader = false;
  }

  private async connectedProducer(): Promise<Producer> {
    if (!this.topicsReady) {
      await ensureTopics(this.options.kafka, this.options.topics, this.options.topicPolicy);
      this.topicsReady = true;
    }
    if (!this.producer) {
      const producer = createProducer(this.options.kafka, { allowAutoTopicCreation: false, idempotent: false });
      this.producer = producer;
      try {
        await producer.connect();
      } catch (error) {
        await this.resetProducer();
        throw error;
      }
    }
    return this.producer;
  }

  private async resetProducer(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    this.partitions = null;
    await producer?.disconnect().catch(() => undefined);
  }

  private async pass(): Promise<number> {
    if (this.options.models.length === 0) return 0;
    const leader = await this.holdLease();
    if (leader !== this.metrics.isLeader) {
      this.options.log.info({ owner: this.owner }, leader ? 'outbox relay is now active' : 'outbox relay on standby');
    }
    this.metrics.isLeader = leader;
    if (!leader) return 0;
    const pendings = this.options.models[0]!.db.collection<PendingMark>(outboxCollections.pending);
    const batch = await db(pendings.find({}, { limit: this.options.batchSize ?? 100 }).toArray());
    let published = 0;
    let brokerError: unknown = null;
    for (const model of this.options.models) {
      const mine = batch.filter((pending) => pending.collection === model.collection.collectionName);
      if (mine.length === 0) continue;
      const result = await this.publishBatch(model, mine);
      published += result.published;
      brokerError ??= result.brokerError;
    }
    this.metrics.published += published;
    // What the broker took is recorded; what it could not take is tried again after the loop's back-off.
    if (brokerError) throw brokerError;
    return published;
  }

  /** Each topic's partitions, read again when the copy is old or names no partition for a topic in use. */
  private async partitionsOf(topics: string[]): Promise<Map<string, PartitionMetadata[]>> {
    const fresh = this.partitions && Date.now() - this.partitions.readAt < partitionsMaxAgeMs;
    if (!fresh || topics.some((topic) => !this.partitions!.byTopic.get(topic)?.length)) {
      const wanted = [...new Set([...this.options.topics, ...topics])];
      this.partitions = { readAt: Date.now(), byTopic: await topicPartitions(this.options.kafka, wanted) };
    }
    return this.partitions!.byTopic;
  }

  /** Each event's bytes as they leave: personal fields sealed under the subject's key, when the service has keys. */
  private async valuesToPublish(items: EntityWork[]): Promise<Map<string, Buffer>> {
    const keyring = this.options.personKeyring;
    const values = new Map<string, Buffer>();
    if (!keyring) return values;
    await Promise.all(
      items.flatMap((item) =>
        item.unpublished.map(async (entry) => {
          if (personalFieldsOf(entry.type).length === 0) return;
          const sealed = await withPersonalFieldsSealed(asBuffer(entry.value), (subjectId, fields) =>
            keyring.trySeal(subjectId, fields),
          );
          values.set(entry.eventId, Buffer.from(sealed));
        }),
      ),
    );
    return values;
  }

  /**
   * Sends the entities' events with one request per partition, all at once. The broker takes or refuses a
   * partition's records together, so the outcome is known event by event: nothing it took is sent again.
   * When a partition's records are refused for a reason that is some entity's fault, each entity's part is
   * sent on its own, so the faulty one is found and the others go out.
   */
  private async send(items: EntityWork[]): Promise<SendOutcome> {
    const producer = await this.connectedProducer();
    const partitions = await this.partitionsOf([
      ...new Set(items.flatMap((item) => item.unpublished.map((entry) => entry.topic))),
    ]);
    const batches = groupByPartition(
      items.map((item) => ({ owner: item, events: item.unpublished })),
      (topic, key) => partitionOfKey(topic, key, partitions.get(topic) ?? []),
    );
    const outcome: SendOutcome = { published: new Set(), refused: new Map(), brokerError: null };
    const values = await this.valuesToPublish(items);
    const deliver = async (topic: string, partition: number, entries: OutboxEntry[]) => {
      // Each event's publishing is a span of the trace that caused it; its message carries that span on.
      const spans = entries.map((entry) => publishSpan(entry));
      try {
        await producer.send({
          topic,
          acks: -1,
          messages: entries.map((entry, index) =>
            toMessage(entry, partition, values.get(entry.eventId), spans[index]!.traceparent),
          ),
        });
      } catch (error) {
        for (const { span } of spans) span.setStatus({ code: SpanStatusCode.ERROR, message: 'refused by the broker' });
        throw error;
      } finally {
        for (const { span } of spans) span.end();
      }
      for (const entry of entries) outcome.published.add(entry.eventId);
    };
    await Promise.all(
      batches.map(async ({ topic, partition, parts }) => {
        try {
          await deliver(
            topic,
            partition,
            parts.flatMap((part) => part.events),
          );
          return;
        } catch (error) {
          if (!isDocumentFault(error)) {
            outcome.brokerError ??= error;
            return;
          }
        }
        for (const part of parts) {
          try {
            await deliver(topic, partition, part.events);
          } catch (error) {
            if (!isDocumentFault(error)) {
              outcome.brokerError ??= error;
              return;
            }
            outcome.refused.set(part.owner, error);
          }
        }
      }),
    );
    return outcome;
  }

  /**
   * Publishes the unpublished events of a batch of entities, each entity's in log order, and records how far
   * each entity's log is out: its mark, the published entries removed from the document, its pending mark
   * gone once its whole log is out.
   */
  private async publishBatch(
    model: OutboxModel,
    batch: PendingMark[],
  ): Promise<{ published: number; brokerError: unknown }> {
    const marks = model.db.collection<PublishMark>(outboxCollections.marks);
    const entities = model.collection as unknown as mongo.Collection<WithOutbox>;
    const [entityList, markList] = await db(
      Promise.all([
        entities
          .find(
            { _id: { $in: batch.map((pending) => pending.entityId) } },
            { projection: { outbox: 1, outboxVersion: 1, outboxTombstone: 1 } },
          )
          .toArray(),
        marks.find({ _id: { $in: batch.map((pending) => pending._id) } }).toArray(),
      ]),
    );
    const entityById = new Map(entityList.map((entity) => [entity._id, entity]));
    const markById = new Map(markList.map((mark) => [mark._id, mark]));
    const work: EntityWork[] = [];
    for (const pending of batch) {
      const entity = entityById.get(pending.entityId);
      const mark = markById.get(pending._id) ?? null;
      if (!entity || mark?.state === 'parked') continue; // nothing to do: the pending mark just goes
      // The log holds the tail from version outboxVersion - length + 1; the mark may cover its start.
      const log = entity.outbox ?? [];
      const firstVersion = entity.outboxVersion - log.length + 1;
      const alreadyOut = Math.min(log.length, Math.max(0, (mark?.publishedUpTo ?? 0) - firstVersion + 1));
      const tail = log.slice(alreadyOut);
      const earlier = new Set(mark?.alsoPublished ?? []);
      work.push({
        pending,
        entity,
        mark,
        confirmed: log.slice(0, alreadyOut),
        tail,
        firstTailVersion: firstVersion + alreadyOut,
        earlier,
        unpublished: tail.filter((entry) => !earlier.has(entry.eventId)),
        version: entity.outboxVersion,
      });
    }

    const toSend = work.filter((item) => item.unpublished.length > 0);
    const outcome: SendOutcome =
      toSend.length > 0 ? await this.send(toSend) : { published: new Set(), refused: new Map(), brokerError: null };

    const progress = new Map(
      work.map((item) => {
        const isOut = (eventId: string) => outcome.published.has(eventId) || item.earlier.has(eventId);
        return [item, logProgress(item.tail, item.firstTailVersion, isOut)] as const;
      }),
    );
    // A mark moves when the entity's log moved: events out now, or a mark behind a log that is out.
    const moved = work.filter((item) => {
      const state = progress.get(item)!;
      return (
        state.publishedUpTo > (item.mark?.publishedUpTo ?? 0) ||
        state.alsoPublished.length !== item.earlier.size ||
        (state.complete && item.unpublished.length > 0)
      );
    });
    if (moved.length > 0) {
      await db(
        marks.bulkWrite(
          moved.map((item) => {
            const state = progress.get(item)!;
            const settled = { state: 'ok' as const, failures: 0 };
            const update: mongo.UpdateFilter<PublishMark> = { $max: { publishedUpTo: state.publishedUpTo } };
            // A failure count goes back to zero only once the whole log is out.
            if (state.complete) update.$set = settled;
            else update.$setOnInsert = settled;
            if (state.alsoPublished.length > 0) update.$set = { ...update.$set, alsoPublished: state.alsoPublished };
            else update.$unset = { alsoPublished: '' };
            return { updateOne: { filter: { _id: item.pending._id }, update, upsert: true } };
          }),
          { ordered: false },
        ),
      );
      // An entity erased while its events were on the way (eraseOutboxed) must not keep a mark named
      // after it: the mark written just now goes again.
      const movedIds = moved.map((item) => item.entity._id);
      const remaining = new Set(
        (await db(entities.find({ _id: { $in: movedIds } }, { projection: { _id: 1 } }).toArray())).map(
          (entity) => entity._id,
        ),
      );
      const erased = moved.filter((item) => !remaining.has(item.entity._id)).map((item) => item.pending._id);
      if (erased.length > 0) await db(marks.deleteMany({ _id: { $in: erased } }));
    }
    for (const [item, error] of outcome.refused) await this.recordFailure(model, item.pending, item.mark, error);

    const unfinished = new Set(work.filter((item) => !progress.get(item)!.complete).map((item) => item.pending._id));
    const removals: Array<mongo.AnyBulkWriteOperation<WithOutbox>> = [];
    for (const item of work) {
      const state = progress.get(item)!;
      if (item.entity.outboxTombstone && state.complete) {
        // Only if nothing was appended meanwhile; otherwise the next pass publishes that first.
        const deleted = await db(entities.deleteOne({ _id: item.entity._id, outboxVersion: item.version }));
        if (deleted.deletedCount === 1) {
          await db(marks.deleteOne({ _id: item.pending._id }));
          continue;
        }
      }
      // The published head of the log leaves the document, by id: entries appended meanwhile stay.
      const out = [...item.confirmed, ...item.tail.slice(0, state.prefix)];
      if (out.length > 0) {
        removals.push({
          updateOne: {
            filter: { _id: item.entity._id },
            update: { $pull: { outbox: { eventId: { $in: out.map((entry) => entry.eventId) } } } },
          },
        });
      }
    }
    if (removals.length > 0) await db(entities.bulkWrite(removals, { ordered: false }));
    // An unfinished entity keeps its pending mark (retried, or parked); a writer that appended meanwhile
    // left a new nonce, so its mark stays too and the entity is read again next pass.
    const done = batch.filter((pending) => !unfinished.has(pending._id));
    if (done.length > 0) {
      await db(
        model.db.collection<PendingMark>(outboxCollections.pending).bulkWrite(
          done.map((pending) => ({ deleteOne: { filter: { _id: pending._id, nonce: pending.nonce } } })),
          { ordered: false },
        ),
      );
    }
    const published = toSend.reduce(
      (total, item) => total + item.unpublished.filter((entry) => outcome.published.has(entry.eventId)).length,
      0,
    );
    return { published, brokerError: outcome.brokerError };
  }

  private async recordFailure(
    model: OutboxModel,
    pending: PendingMark,
    mark: PublishMark | null,
    error: unknown,
  ): Promise<void> {
    const marks = model.db.collection<PublishMark>(outboxCollections.marks);
    const failures = (mark?.failures ?? 0) + 1;
    const park = failures >= (this.options.parkAfterFailures ?? 3);
    const message = error instanceof Error ? error.message : String(error);
    this.metrics.documentFailures += 1;
    await db(
      marks.updateOne(
        { _id: pending._id },
        {
          $set: {
            failures,
            lastError: message,
            state: park ? 'parked' : 'ok',
            ...(park ? { parkedAt: new Date() } : {}),
          },
          $setOnInsert: { publishedUpTo: 0 },
        },
        { upsert: true },
      ),
    );
    const context = { err: error, collection: model.collection.collectionName, entityId: pending.entityId, failures };
    if (park) {
      this.metrics.parked += 1;
      this.options.log.error(context, 'outbox relay parked an entity whose events Kafka keeps refusing');
    } else {
      this.options.log.error(context, 'Kafka refused an entity’s events; will retry before parking it');
    }
  }
}

function toMessage(entry: OutboxEntry, partition: number, value = asBuffer(entry.value), traceparent = ''): Message {
  return {
    key: entry.key,
    value,
    partition,
    headers: { 'event-type': entry.type, 'event-id': entry.eventId, ...(traceparent ? { traceparent } : {}) },
  };
}

/** Raw driver reads return BSON Binary for Buffer fields. */
function asBuffer(value: Buffer | mongo.Binary | Uint8Array): Buffer {
  return value instanceof mongo.Binary ? Buffer.from(value.buffer) : Buffer.from(value);
}
