import mongoose, { type Model } from 'mongoose';
import { mongoCommandTracing } from './mongo-tracing';

// Mongoose keeps each query's call stack, only for the message of a query run twice ("Query was already
// executed"); formatting it through the source maps on every query costs a few per cent of a service's CPU.
mongoose.set('skipOriginalStackTraces', true);

/**
 * The driver's collection behind a model, typed by the model's records: for the writes and reads that skip
 * mongoose's casting and documents (string ids and values are stored as they are).
 */
export function collectionOf<T extends { _id: string }>(model: Model<T>): mongoose.mongo.Collection<T> {
  return model.collection as unknown as mongoose.mongo.Collection<T>;
}

/**
 * One record by its id, as `.lean()` reads it, straight through the driver: for the reads every request on a hot
 * path makes (a person's time zone, settings, kept progress), where building a mongoose query costs as much as
 * the read. A model whose records can be tombstones (the outbox's) never shows one, as its query hooks ensure.
 */
export function recordById<T extends { _id: string }>(
  model: Model<T>,
  id: string,
  projection?: Record<string, 0 | 1>,
): Promise<T | null> {
  const filter = model.schema.path('outboxTombstone') ? { _id: id, outboxTombstone: { $ne: true } } : { _id: id };
  return collectionOf(model).findOne(
    filter as mongoose.mongo.Filter<T>,
    projection ? { projection } : {},
  ) as Promise<T | null>;
}

/** How long a starting service waits for its database (a database starting beside it, a busy machine). */
const startupWaitMs = 30_000;

/**
 * One connection per service, to the service's own database. At start the first connection is tried again
 * until `startupWaitMs` has passed: a service and its database often start together.
 */
export async function connectMongo(url: string, dbName: string): Promise<mongoose.Connection> {
  const deadline = Date.now() + startupWaitMs;
  for (;;) {
    try {
      return await openConnection(url, dbName);
    } catch (error) {
      if (!(error instanceof mongoose.Error.MongooseServerSelectionError) || Date.now() >= deadline) throw error;
    }
  }
}

async function openConnection(url: string, dbName: string): Promise<mongoose.Connection> {
  const tracing = mongoCommandTracing();
  const connection = mongoose.createConnection(url, {
    dbName,
    // An outage must fail a request promptly (then 503): no waiting in mongoose's 10 s buffer, and the
    // driver gives up finding a server after 2 s instead of 30.
    serverSelectionTimeoutMS: 2_000,
    socketTimeoutMS: 10_000,
    // The driver's own check of a database that is just starting (and a new connection's handshake) gives up after
    // 5 s instead of 30, so a service notices its restarted database within seconds rather than failing meanwhile.
    connectTimeoutMS: 5_000,
    bufferCommands: false,
    // Index builds are explicit (see ensureIndexes) so start-up fails loudly when one cannot be made.
    autoIndex: false,
    monitorCommands: tracing.monitorCommands,
  });
  try {
    await connection.asPromise();
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
  tracing.traceClient(connection.getClient());
  return connection;
}

export async function pingMongo(connection: mongoose.Connection): Promise<boolean> {
  try {
    const db = connection.db;
    if (!db) return false;
    await db.admin().command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}

/** Builds the indexes each model declares (unique e-mail, outbox flag, …). */
export async function ensureIndexes(connection: mongoose.Connection): Promise<void> {
  for (const model of Object.values(connection.models)) {
    await model.createIndexes();
  }
}

/** True for MongoDB's duplicate-key error (a unique index refused the write). */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
