/**
 * The restore drill: Haven backed up as its backup jobs do it (the data, and the people's data keys apart), a person
 * erased after the backup, every one of its databases destroyed, both backups restored as the backup tool does it
 * (erasures since the backup replayed first), and a person signs in again and finds their history, what they wrote
 * included, while the erased person stays erased.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { backUp, backupScope, restore } from '../src/backup';
import { ServicesStillRunning, replayErasuresSince } from '../src/erasure-replay';
import { createKafka } from '../src/kafka';
import { createLogger } from '../src/logger';
import { tracesOf, deletionProgress } from '../../../tools/testing/erasure';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTrial } from '../../../tools/testing/subscription';
import { testInfra } from '../../../tools/testing/test-env';

const folder = mkdtempSync(join(tmpdir(), 'haven-backup-'));
let client: mongoose.mongo.MongoClient;
const havens: TestHaven[] = [];

beforeAll(async () => {
  client = await new mongoose.mongo.MongoClient(testInfra().mongoUrl).connect();
});

afterAll(async () => {
  for (const haven of havens) await haven.stop().catch(() => undefined);
  await client?.close();
  await rm(folder, { recursive: true, force: true });
});

interface Entry {
  text: string;
  notes: string | null;
}

async function historyOf(person: ApiClient): Promise<{ entries: Entry[]; totalEntries: number }> {
  const read = await person.graphql<{ me: { recentQuotes: Entry[]; analytics: { totalEntries: number } } }>(
    '{ me { recentQuotes(limit: 5) { text notes } analytics { totalEntries } } }',
  );
  expect(read.body.errors).toBeUndefined();
  return { entries: read.body.data!.me.recentQuotes, totalEntries: read.body.data!.me.analytics.totalEntries };
}

/** Every byte of every `.bson` file under a folder. */
async function bsonBytesUnder(root: string): Promise<Buffer> {
  const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.bson'));
  return Buffer.concat(await Promise.all(files.map((file) => readFile(join(root, file)))));
}

/** Moves the erasure groups back to the backup's time, as the backup tool's restore does, once the stopped Haven's consumers have left. */
async function replayErasures(since: Date): Promise<number> {
  const kafka = createKafka('restore-drill', testInfra().kafkaBrokers, createLogger('restore-drill', 'silent'));
  const replay = await eventually('the stopped Haven’s consumers leaving their groups', async () => {
    try {
      return await replayErasuresSince(kafka, since);
    } catch (error) {
      if (error instanceof ServicesStillRunning) return null;
      throw error;
    }
  });
  return replay.records;
}

it("brings back a person's account and history, their notes included, from the data backup and the keys backup, and not a person erased since", async () => {
  const first = await startTestHaven();
  havens.push(first);
  const email = uniqueEmail('restored');
  const password = 'a backup keeps this';
  const person = new ApiClient(first.gatewayUrl);
  expect((await person.post('/api/auth/register', { email, password })).status).toBe(201);
  await startTrial(person);
  const note = 'A long walk by the sea, then soup with my sister.';
  expect((await person.post('/api/quotes/generate', { notes: note })).status).toBe(200);
  expect((await person.post('/api/quotes/generate', {})).status).toBe(200);
  const before = await historyOf(person);
  expect(before.totalEntries).toBe(2);
  expect(before.entries.map((entry) => entry.notes)).toEqual([null, note]);
  const leaverEmail = uniqueEmail('erased-after-backup');
  const leaver = new ApiClient(first.gatewayUrl);
  const leaverRegistered = await leaver.post<{ user: { id: string } }>('/api/auth/register', {
    email: leaverEmail,
    password,
  });
  expect(leaverRegistered.status).toBe(201);
  const leaverId = leaverRegistered.body.user.id;
  await startTrial(leaver);
  const leaverNote = 'Told nobody about the interview yet.';
  expect((await leaver.post('/api/quotes/generate', { notes: leaverNote })).status).toBe(200);

  const databases = first.databaseNames;
  const userDatabase = first.dbName('user');
  const takenAt = new Date();
  const data = await backUp(client, backupScope('data', databases, userDatabase), join(folder, 'data'));
  const keys = await backUp(client, backupScope('keys', databases, userDatabase), join(folder, 'keys'));
  expect(data.documents).toBeGreaterThan(0);
  expect(keys.collections).toBe(1);
  expect(await readdir(join(folder, 'keys'))).toEqual([userDatabase]);
  expect(await readdir(join(folder, 'keys', userDatabase))).toEqual(['person_keys.bson', 'person_keys.metadata.json']);
  // The data backup holds no data key, and what the person wrote only sealed.
  expect(await readdir(join(folder, 'data', userDatabase))).not.toContain('person_keys.bson');
  expect((await bsonBytesUnder(join(folder, 'data'))).includes(Buffer.from('soup with my sister'))).toBe(false);

  // After the backup, the second person deletes their account, and every service erases them.
  const deleted = await leaver.request('DELETE', '/api/user/delete-account');
  expect(deleted.status).toBe(200);
  const requestId = deleted.body.requestId as string;
  await eventually('the deletion completing', async () =>
    (await deletionProgress(first, requestId)).status === 'completed' ? true : null,
  );

  await first.stop();
  havens.splice(havens.indexOf(first), 1);
  for (const name of databases) await client.db(name).dropDatabase();
  const left = (await client.db('admin').admin().listDatabases({ nameOnly: true })).databases.map(({ name }) => name);
  expect(left.filter((name) => databases.includes(name))).toEqual([]);

  expect(await replayErasures(takenAt)).toBeGreaterThan(0);
  await restore(client, join(folder, 'data'));
  await restore(client, join(folder, 'keys'));
  // The backup still holds the erased person, their key included.
  expect(
    await client
      .db(userDatabase)
      .collection('users')
      .countDocuments({ _id: leaverId as never }),
  ).toBe(1);
  const restored = await startTestHaven({ databasesOf: first });
  havens.push(restored);
  // Each service erases them again as it starts: they cannot sign in, and nothing of them is left in any database.
  await eventually('the person erased after the backup erased again', async () =>
    (await tracesOf(restored, [leaverId, leaverEmail, leaverNote])).length === 0 ? true : null,
  );
  const leaverAgain = await new ApiClient(restored.gatewayUrl).post('/api/auth/login', {
    email: leaverEmail,
    password,
  });
  expect(leaverAgain.status).toBe(401);
  const again = new ApiClient(restored.gatewayUrl);
  expect((await again.post('/api/auth/login', { email, password })).status).toBe(200);
  expect(await historyOf(again)).toEqual(before);
  // The restored indexes hold as the originals did: the address is still taken.
  const twin = await new ApiClient(restored.gatewayUrl).post('/api/auth/register', { email, password });
  expect(twin.status).toBe(409);
});
