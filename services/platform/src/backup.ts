/**
 * Database backups in mongodump's layout — a folder per database holding `<collection>.bson` (the documents one after
 * another) and `<collection>.metadata.json` (its indexes, canonical extended JSON) — written and read through the
 * driver, so a real MongoDB and the embedded server of development and tests back up alike, and mongorestore reads
 * these backups too.
 *
 * The people's data keys (`haven_user.person_keys`) are backed up apart from the data, and kept for less time: a
 * person's sealed content in a data backup stays readable only while a key backup still holds their key
 * (docs/operations.md, "Backups and logs").
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import mongoose from 'mongoose';

type MongoClient = mongoose.mongo.MongoClient;
type Document = mongoose.mongo.Document;
const { BSON } = mongoose.mongo;

/**
 * What a backup holds: every collection of `databases`, less those in `leaveOut`; or, with `only`, just those.
 * Collections are named `<database>.<collection>`.
 */
export interface BackupScope {
  databases: readonly string[];
  leaveOut?: readonly string[];
  only?: readonly string[];
}

export interface BackupSummary {
  collections: number;
  documents: number;
}

/**
 * The two backups Haven takes: the data, without the people's data keys, and those keys alone (they live with the
 * user service, in its database's `person_keys`).
 */
export function backupScope(
  kind: 'data' | 'keys',
  databases: readonly string[],
  userDatabase = 'haven_user',
): BackupScope {
  const keys = `${userDatabase}.person_keys`;
  return kind === 'keys' ? { databases, only: [keys] } : { databases, leaveOut: [keys] };
}

/** Whether a collection is in a backup's scope (system collections never are). */
export function inScope(scope: BackupScope, database: string, collection: string): boolean {
  if (collection.startsWith('system.') || !scope.databases.includes(database)) return false;
  const name = `${database}.${collection}`;
  if (scope.only) return scope.only.includes(name);
  return !(scope.leaveOut ?? []).includes(name);
}

/** Writes every collection in `scope` into `dir` (which must not hold a backup yet). */
export async function backUp(client: MongoClient, scope: BackupScope, dir: string): Promise<BackupSummary> {
  const summary: BackupSummary = { collections: 0, documents: 0 };
  for (const database of scope.databases) {
    const db = client.db(database);
    const collections = await db.listCollections({ type: 'collection' }, { nameOnly: true }).toArray();
    const names = collections.map(({ name }) => name).filter((name) => inScope(scope, database, name));
    if (names.length === 0) continue;
    await mkdir(join(dir, database), { recursive: true });
    for (const name of names.sort()) {
      const collection = db.collection(name);
      const out = createWriteStream(join(dir, database, `${name}.bson`), { flags: 'wx' });
      for await (const document of collection.find({}, { raw: true, batchSize: 1000 })) {
        // The raw reply bytes of each document, written as they are: nothing is decoded and encoded again.
        if (!out.write(document as unknown as Buffer)) await once(out, 'drain');
        summary.documents += 1;
      }
      out.end();
      await finished(out);
      const metadata = { indexes: await collection.indexes(), collectionName: name, type: 'collection' };
      await writeFile(
        join(dir, database, `${name}.metadata.json`),
        BSON.EJSON.stringify(metadata, { relaxed: false }),
        {
          flag: 'wx',
        },
      );
      summary.collections += 1;
    }
  }
  return summary;
}

/**
 * Restores the databases of a backup folder, each collection replaced by the backup's (its documents and indexes);
 * with `databases`, only those. Collections the backup does not hold are left as they are.
 */
export async function restore(
  client: MongoClient,
  dir: string,
  options: { databases?: readonly string[] } = {},
): Promise<BackupSummary> {
  const summary: BackupSummary = { collections: 0, documents: 0 };
  const databases = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && (!options.databases || options.databases.includes(entry.name)))
    .map((entry) => entry.name);
  for (const database of databases.sort()) {
    const db = client.db(database);
    const files = await readdir(join(dir, database));
    const names = files.filter((file) => file.endsWith('.metadata.json')).map((file) => file.slice(0, -14));
    const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map(({ name }) => name));
    for (const name of names.sort()) {
      const metadata = BSON.EJSON.parse(await readFile(join(dir, database, `${name}.metadata.json`), 'utf8'), {
        relaxed: false,
      }) as { indexes?: Document[] };
      if (existing.has(name)) await db.collection(name).drop();
      const collection = await db.createCollection(name);
      let batch: Document[] = [];
      for await (const document of documentsIn(join(dir, database, `${name}.bson`))) {
        batch.push(document);
        if (batch.length === 1000) {
          await collection.insertMany(batch, { ordered: true });
          summary.documents += batch.length;
          batch = [];
        }
      }
      if (batch.length > 0) await collection.insertMany(batch, { ordered: true });
      summary.documents += batch.length;
      const indexes = (metadata.indexes ?? []).filter((index) => index.name !== '_id_').map(indexSpecOf);
      if (indexes.length > 0) await collection.createIndexes(indexes as mongoose.mongo.IndexDescription[]);
      summary.collections += 1;
    }
  }
  return summary;
}

/** An index as listed, as createIndexes takes it (without the listing's version and namespace). */
function indexSpecOf(index: Document): Document {
  const { v: _version, ns: _namespace, ...spec } = index;
  return spec;
}

/**
 * The documents of a `.bson` file, read a megabyte at a time. Values keep their BSON types (an integer-valued
 * double stays a double), so a restored document is byte for byte the one backed up.
 */
async function* documentsIn(file: string): AsyncGenerator<Document> {
  const handle = await open(file, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    let pending = Buffer.alloc(0);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      pending = Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
      let offset = 0;
      while (pending.length - offset >= 4) {
        const size = pending.readInt32LE(offset);
        if (size < 5) throw new Error(`${file}: not a BSON document at byte ${offset}`);
        if (pending.length - offset < size) break;
        yield BSON.deserialize(pending.subarray(offset, offset + size), { promoteValues: false, bsonRegExp: true });
        offset += size;
      }
      pending = pending.subarray(offset);
    }
    if (pending.length > 0) throw new Error(`${file}: ends inside a document`);
  } finally {
    await handle.close();
  }
}

/** A backup's folder name: the time it was taken, in UTC, sortable (2026-11-30T02-00-00Z). */
export function backupName(takenAt: Date): string {
  return takenAt
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
}

/** When a backup named by `backupName` was taken; null for any other name. */
export function takenAtOf(name: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z$/.exec(name);
  if (!match) return null;
  const takenAt = new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}Z`);
  return Number.isNaN(takenAt.getTime()) ? null : takenAt;
}

/** The backups among `names` older than `keepDays` at `now` (names that are not backups are never listed). */
export function expiredBackups(names: readonly string[], now: Date, keepDays: number): string[] {
  const oldest = now.getTime() - keepDays * 24 * 60 * 60 * 1000;
  return names.filter((name) => {
    const takenAt = takenAtOf(name);
    return takenAt !== null && takenAt.getTime() < oldest;
  });
}

/** Deletes the backups in `root` older than `keepDays`; returns their names. */
export async function deleteExpiredBackups(root: string, now: Date, keepDays: number): Promise<string[]> {
  const expired = expiredBackups(await readdir(root), now, keepDays);
  for (const name of expired) await rm(join(root, name), { recursive: true, force: true });
  return expired;
}
