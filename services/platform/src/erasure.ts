/**
 * Erasure: what every service shares for the account-deletion saga (see
 * docs/decisions/privacy-and-erasure/erased-subjects.md). Compliance publishes `account.deletion_requested`; each
 * service's erasure consumer (made here) records the user as erased, erases what the service holds, and confirms with
 * `<service>.user_data_purged`. The record of who was erased is a keyed hash of the id (HMAC with the service's key),
 * never the id: it lets the consumers skip any later event about that user (a redelivery, a late event from another
 * service) so nothing comes back, and it says nothing about the person.
 */
import { topicOf, userDataPurgedType, type EventType, type NewEvent, type ProducerService } from '@haven/proto';
import { Schema, type Connection, type Model } from 'mongoose';
import { createHmac, randomUUID } from 'node:crypto';
import type { ConsumerSpec, ErasedSubjects, HandlerContext } from './consumer';
import type { Logger } from './logger';
import { outboxPlugin, recordEvent, type WithOutbox } from './outbox';
import { erasureGroupOf } from './kafka-access';
import { leasesCollection } from './lease';

export const erasureCollections = {
  /** Keyed hashes of the erased subjects (user ids, and ids a service keys a user's events by). */
  erasedSubjects: 'erased_subjects',
  /** Events that belong to no lasting entity, each written as a tombstone the relay deletes once published. */
  standaloneEvents: 'outbox_events',
} as const;

/** Outside production with neither secret set (a lone service in a test): a fixed, public key. */
const developmentKey = 'haven-development-erasure-key';

/**
 * The service's erasure key: HMAC of the service's name under ERASURE_HMAC_SECRET (or, unset, the subgraph
 * secret), so the same user hashes differently in each service's records.
 */
export function erasureKey(
  service: string,
  config: { ERASURE_HMAC_SECRET?: string; SUBGRAPH_SECRET?: string },
): Buffer {
  const secret = config.ERASURE_HMAC_SECRET ?? config.SUBGRAPH_SECRET ?? developmentKey;
  return createHmac('sha256', secret).update(`haven-erasure:${service}`).digest();
}

/** The keyed hash erasure records hold instead of an id (hex). */
export function keyedHash(key: Buffer, id: string): string {
  return createHmac('sha256', key).update(id).digest('hex');
}

interface ErasedSubject {
  _id: string; // keyedHash(subject id)
  erasedAt: Date;
}

const erasedSubjectSchema = new Schema<ErasedSubject>(
  { _id: { type: String, required: true }, erasedAt: { type: Date, required: true } },
  { collection: erasureCollections.erasedSubjects, versionKey: false },
);

export interface ErasureGuard extends ErasedSubjects {
  /** The keyed hash of an id, for records the erasure keeps (saga state, retained billing records). */
  keyOf(id: string): string;
  /** Records subjects as erased; done before their data is erased, so a consumer racing the erasure notices. */
  markErased(subjectIds: readonly string[]): Promise<void>;
}

export function erasureGuard(connection: Connection, key: Buffer): ErasureGuard {
  const erased =
    (connection.models.ErasedSubject as Model<ErasedSubject> | undefined) ??
    connection.model<ErasedSubject>('ErasedSubject', erasedSubjectSchema);
  const erasedSubjects = connection.collection<ErasedSubject>(erased.collection.collectionName);
  const keyOf = (id: string) => keyedHash(key, id);
  // Asked for every stretch of events a guarded consumer handles, twice: through the driver, without mongoose's casting.
  const erasedAmong = async (subjectIds: readonly string[]) => {
    const subjectOfKey = new Map(subjectIds.map((id) => [keyOf(id), id]));
    const found = await erasedSubjects
      .find({ _id: { $in: [...subjectOfKey.keys()] } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(found.map((record) => subjectOfKey.get(record._id)!));
  };
  return {
    keyOf,
    erasedAmong,
    isErased: async (subjectId) => (await erasedAmong([subjectId])).has(subjectId),
    markErased: async (subjectIds) => {
      const ids = [...new Set(subjectIds.filter(Boolean))];
      if (ids.length === 0) return;
      const erasedAt = new Date();
      await erased.bulkWrite(
        ids.map((id) => ({
          updateOne: { filter: { _id: keyOf(id) }, update: { $setOnInsert: { erasedAt } }, upsert: true },
        })),
        { ordered: false },
      );
    },
  };
}

interface StandaloneEvent extends WithOutbox {
  createdAt: Date;
}

const standaloneEventSchema = new Schema<StandaloneEvent>(
  { _id: { type: String, required: true }, createdAt: { type: Date, required: true } },
  { collection: erasureCollections.standaloneEvents, versionKey: false },
);
standaloneEventSchema.plugin(outboxPlugin);

export function standaloneEventModel(connection: Connection): Model<StandaloneEvent> {
  return (
    (connection.models.StandaloneEvent as Model<StandaloneEvent> | undefined) ??
    connection.model<StandaloneEvent>('StandaloneEvent', standaloneEventSchema)
  );
}

/**
 * Records an event that belongs to no lasting entity (a saga step, a confirmation) through the outbox: a
 * document holding only the event, written as a tombstone, so the relay deletes it once it is published and
 * nothing of it stays in the database.
 */
export async function recordStandaloneEvent(
  model: Model<StandaloneEvent>,
  event: NewEvent<EventType>,
): Promise<string> {
  const carrier = new model({ _id: randomUUID(), createdAt: new Date(), outboxTombstone: true });
  const eventId = recordEvent(carrier, event);
  await carrier.save();
  return eventId;
}

/** What one service erased for a subject. */
export interface ErasureOutcome {
  /** How many records went (a repeated request erases nothing more: 0). */
  records: number;
}

export interface ErasureContext {
  log: Logger;
  /** Records further ids the service keys this user's events by (a newsletter subscriber id) as erased. */
  markErased(subjectIds: readonly string[]): Promise<void>;
}

/** What a service tells the platform about its own data (ServiceParts.erasure). */
export interface ServiceErasure {
  /**
   * Erases everything the service holds about the subject (a user id; for the consumers' race check also
   * any id the service keyed the user's events by), keeping only what the law requires, without personal
   * data. Idempotent: called again for a repeated request or a redelivery.
   */
  erase(subjectId: string, context: ErasureContext): Promise<ErasureOutcome>;
}

/** What the platform gives a service's build for its erasure (ServiceRuntime.erasure). */
export interface ErasureRuntime {
  guard: ErasureGuard;
  /** Records a standalone event (recordStandaloneEvent) and wakes the relay. */
  publish(event: NewEvent<EventType>): Promise<void>;
}

/** Per-user collections the platform itself keeps in a service's database (the entitlement copy). */
const platformUserCollections = ['entitlements'];

/** The platform's own per-user records and then the service's: one erasure of one subject. */
export async function eraseSubject(
  connection: Connection,
  erasure: ServiceErasure,
  subjectId: string,
  context: ErasureContext,
): Promise<number> {
  let records = 0;
  for (const name of platformUserCollections) {
    records += (await connection.collection(name).deleteMany({ _id: subjectId as never })).deletedCount;
  }
  return records + (await erasure.erase(subjectId, context)).records;
}

/**
 * The service's consumer of `account.deletion_requested` (group `<service>-erasure`): marks the user erased,
 * erases the platform's own per-user records and the service's, then confirms with
 * `<service>.user_data_purged` (keyed by the request id, no user id).
 */
export function erasureConsumer(options: {
  service: ProducerService;
  connection: Connection;
  runtime: ErasureRuntime;
  erasure: ServiceErasure;
}): ConsumerSpec {
  const { service, connection, runtime, erasure } = options;
  return {
    groupId: erasureGroupOf(service),
    topics: [topicOf('compliance')],
    handlers: {
      'account.deletion_requested': async (event, context: HandlerContext) => {
        if (event.services.length > 0 && !event.services.includes(service)) return;
        if (!event.userId || !event.requestId) return;
        await runtime.guard.markErased([event.userId]);
        const records = await eraseSubject(connection, erasure, event.userId, {
          log: context.log,
          markErased: runtime.guard.markErased,
        });
        await runtime.publish({
          type: userDataPurgedType(service),
          producer: service,
          subjectId: event.requestId,
          correlationId: context.correlationId,
          payload: { requestId: event.requestId, service, erasedRecords: BigInt(records) },
        });
        context.log.info({ requestId: event.requestId, records }, 'erased a deleted account’s data');
      },
    },
  };
}

/**
 * Where each collection of a service's database stands towards a user's data (the export's completeness
 * test reads every service's map; docs/decisions/privacy-and-erasure/data-export.md):
 * - exported: the path in the data export that holds it, and `leftOut`: each stored field (a dotted path, `[]` for
 *   an array's items; a path covers what is under it) whose value the export does not carry, with the reason
 *   (a secret, bookkeeping, or exported in another form); every other field's value is in the export;
 * - copyOf: a copy of data exported elsewhere (the path), with the reason it is kept;
 * - erasureRecord: what the erasure itself keeps, under keyed hashes;
 * - bookkeeping: the outbox's and consumers' own records, which may name an entity by its id (a user's id
 *   for the account itself) but hold nothing else about anyone, and go with the entity;
 * - noUserData: nothing about users at all, with the reason.
 */
export type CollectionRole =
  | { exported: string; leftOut?: Record<string, string> }
  | { copyOf: string; reason: string }
  | { erasureRecord: string }
  | { bookkeeping: string }
  | { noUserData: string };

export type DataMap = Record<string, CollectionRole>;

/**
 * A service's part of the data export (`User.<service>Export`): the file's top-level sections it owns, as JSON
 * text, so the gateway joins the parts without knowing a field of them.
 */
export function dataExportPart(sections: Record<string, unknown>): { sections: string } {
  return { sections: JSON.stringify(sections) };
}

/** Fields the storage itself adds to documents, left out of every export: they say nothing about anyone. */
export const storageFields: Record<string, string> = {
  __v: 'Mongoose’s version key',
  outbox: 'events not yet published (the outbox), gone once published',
  outboxVersion: 'how many events the record has published (the outbox)',
  outboxTombstone: 'a deleted record waiting for its last events to be published',
};

/** The collections the platform makes in every service's database; `processed_events_*` by prefix. */
export const platformDataMap: DataMap = {
  outbox_pending: { bookkeeping: 'which entities have unpublished events: collection name and entity id' },
  outbox_marks: { bookkeeping: 'how far each entity’s events are published: collection name and entity id' },
  [leasesCollection]: { noUserData: 'which replica runs the outbox relay and each scheduled job (lease.ts)' },
  [erasureCollections.standaloneEvents]: {
    bookkeeping: 'events waiting for the relay (a deletion request names the user id), deleted once published',
  },
  [erasureCollections.erasedSubjects]: { erasureRecord: 'keyed hashes of erased users’ ids' },
  entitlements: { copyOf: 'billing.subscription', reason: 'billing’s access decision, copied from its events' },
  rate_limit_logs: {
    noUserData:
      'times of the latest accepted attempts per rate-limited field and keyed hash of a client address, an account id or a recipient address (limits.ts); gone after the window',
  },
  'processed_events_*': { noUserData: 'ids and types of the events a consumer group handled' },
};
