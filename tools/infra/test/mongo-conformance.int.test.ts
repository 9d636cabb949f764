/**
 * The MongoDB semantics Haven relies on, checked against whichever server the test run uses: the embedded
 * server of `make dev` and `make test` (mongo-java-server), or MongoDB 7 where the containers path runs it.
 * A server that fails this suite cannot be Haven's development database (docs/decisions.md, "The development
 * database"). Each property is one that a service or the event toolkit depends on; the comment says which.
 * To judge a candidate server, point the suite at it: HAVEN_CONFORMANCE_MONGO_URL=mongodb://host:port.
 */
import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { testInfra } from '../../testing/test-env';

let client: mongoose.mongo.MongoClient;
let db: mongoose.mongo.Db;

beforeAll(async () => {
  const url = process.env.HAVEN_CONFORMANCE_MONGO_URL || testInfra().mongoUrl;
  client = new mongoose.mongo.MongoClient(url, { maxPoolSize: 50 });
  await client.connect();
  db = client.db(`conformance_${randomBytes(4).toString('hex')}`);
});

afterAll(async () => {
  await db?.dropDatabase().catch(() => undefined);
  await client?.close();
});

// Loosely typed documents with string ids (as Haven's): the suite speaks the driver's plain update dialect.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = { _id: string } & Record<string, any>;
// The driver's types refuse $push/$pull on an open-ended document; the server is what is under test here.
const update = (operators: Record<string, unknown>) => operators as mongoose.mongo.UpdateFilter<Doc>;
const collection = (name: string) => db.collection<Doc>(`${name}_${randomBytes(3).toString('hex')}`);
const times = <T>(n: number, make: (index: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, index) => make(index)));

describe('single-document atomicity under concurrent writers', () => {
  // Counters (stats, rate limits, outbox versions) must not lose increments.
  it('200 concurrent $inc of one field add up to 200', async () => {
    const counters = collection('inc');
    await counters.insertOne({ _id: 'c', n: 0 });
    await times(200, () => counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } }));
    expect((await counters.findOne({ _id: 'c' }))?.n).toBe(200);
  });

  // Appending an event to an entity's outbox while others append must keep every element.
  it('200 concurrent $push to one array keep all 200 elements', async () => {
    const lists = collection('push');
    await lists.insertOne({ _id: 'l', items: [] });
    await times(200, (index) => lists.updateOne({ _id: 'l' }, update({ $push: { items: index } })));
    const items = ((await lists.findOne({ _id: 'l' }))?.items ?? []) as number[];
    expect(items).toHaveLength(200);
    expect(new Set(items).size).toBe(200);
  });

  // Optimistic concurrency (compare-and-set on a version): exactly one of the racing writers wins.
  it('50 concurrent version-guarded updates: exactly one reports success and takes effect', async () => {
    const guarded = collection('cas');
    await guarded.insertOne({ _id: 'g', v: 1, winner: null });
    const results = await times(50, (index) =>
      guarded.updateOne({ _id: 'g', v: 1 }, { $set: { v: 2, winner: index } }),
    );
    const winners = results.filter((result) => result.modifiedCount === 1);
    expect(winners).toHaveLength(1);
    const stored = await guarded.findOne({ _id: 'g' });
    expect(stored?.v).toBe(2);
    expect(typeof stored?.winner).toBe('number');
  });

  // A $set and an $inc in one update land together or not at all, even while others write the document.
  it('a multi-operator update is applied whole while other writers touch the same document', async () => {
    const entities = collection('mixed');
    await entities.insertOne({ _id: 'e', version: 0, events: [], name: 'a' });
    await times(100, (index) =>
      entities.updateOne(
        { _id: 'e' },
        update({ $push: { events: `event-${index}` }, $inc: { version: 1 }, $set: { [`field${index}`]: index } }),
      ),
    );
    const stored = await entities.findOne({ _id: 'e' });
    expect(stored?.version).toBe(100);
    expect(stored?.events).toHaveLength(100);
    for (let index = 0; index < 100; index += 1) expect(stored?.[`field${index}`]).toBe(index);
  });

  // A lease or a claim (one relay, one sender) is a findOneAndUpdate that only one caller can win.
  it('concurrent findOneAndUpdate claims of a free lease: exactly one caller gets it', async () => {
    const leases = collection('lease');
    await leases.insertOne({ _id: 'relay', holder: null, until: new Date(0) });
    const now = new Date();
    const claims = await times(30, (index) =>
      leases.findOneAndUpdate(
        { _id: 'relay', until: { $lt: now } },
        { $set: { holder: `replica-${index}`, until: new Date(now.getTime() + 10_000) } },
        { returnDocument: 'after' },
      ),
    );
    const won = claims.filter((claim) => claim !== null);
    expect(won).toHaveLength(1);
    expect((await leases.findOne({ _id: 'relay' }))?.holder).toBe(won[0]?.holder);
  });
});

describe('unique indexes', () => {
  // One account per address; a retried insert (an event id, a claim) is refused rather than doubled.
  it('refuse a second document with the same key with duplicate-key error 11000', async () => {
    const users = collection('unique');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertOne({ _id: 'u1', email: 'a@example.com' });
    await expect(users.insertOne({ _id: 'u2', email: 'a@example.com' })).rejects.toMatchObject({ code: 11000 });
    expect(await users.countDocuments({ email: 'a@example.com' })).toBe(1);
  });

  it('let exactly one of 50 concurrent inserts of one key through', async () => {
    const claims = collection('unique_race');
    await claims.createIndex({ key: 1 }, { unique: true });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) => claims.insertOne({ _id: `c${index}`, key: 'same' })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 11000 });
    }
  });

  it('apply to compound keys (one delivery per event, kind and recipient)', async () => {
    const deliveries = collection('compound');
    await deliveries.createIndex({ eventId: 1, kind: 1, to: 1 }, { unique: true });
    await deliveries.insertOne({ _id: 'd1', eventId: 'e', kind: 'welcome', to: 'a@example.com' });
    await deliveries.insertOne({ _id: 'd2', eventId: 'e', kind: 'welcome', to: 'b@example.com' });
    await expect(
      deliveries.insertOne({ _id: 'd3', eventId: 'e', kind: 'welcome', to: 'a@example.com' }),
    ).rejects.toMatchObject({ code: 11000 });
  });

  // An owner check ({ _id, userId }) and the outbox's tombstone guard ({ _id, outboxDeletedAt }) name the key
  // and more: the embedded server narrows by the index and must still apply every other condition.
  it('narrow a query that names the key and more, and still apply every other condition', async () => {
    const quotes = collection('narrowed');
    await quotes.createIndex({ email: 1 }, { unique: true });
    await quotes.insertMany([
      { _id: 'q1', userId: 'alice', email: 'a@example.com', deleted: false },
      { _id: 'q2', userId: 'bob', email: 'b@example.com', deleted: true },
      { _id: 'q3', userId: 'alice', email: 'c@example.com' },
    ]);
    const ids = async (filter: Record<string, unknown>) =>
      (await quotes.find(filter).toArray()).map((doc) => doc._id).sort();
    expect(await ids({ _id: 'q1', userId: 'alice' })).toEqual(['q1']);
    expect(await ids({ _id: 'q1', userId: 'bob' })).toEqual([]);
    expect(await ids({ _id: { $in: ['q1', 'q2', 'q3'] }, userId: 'alice' })).toEqual(['q1', 'q3']);
    expect(await ids({ _id: 'q3', deleted: { $exists: false } })).toEqual(['q3']);
    expect(await ids({ _id: 'q2', deleted: { $ne: true } })).toEqual([]);
    expect(await ids({ email: 'b@example.com', userId: 'bob' })).toEqual(['q2']);
    expect(await ids({ email: 'b@example.com', userId: 'alice' })).toEqual([]);
    // Writes and deletes with such filters touch exactly the matching document.
    expect((await quotes.updateOne({ _id: 'q1', userId: 'bob' }, { $set: { stolen: true } })).matchedCount).toBe(0);
    expect((await quotes.updateOne({ _id: 'q1', userId: 'alice' }, { $set: { seen: true } })).modifiedCount).toBe(1);
    expect((await quotes.deleteOne({ _id: 'q3', userId: 'bob' })).deletedCount).toBe(0);
    expect(await ids({ seen: true })).toEqual(['q1']);
    expect(await ids({ stolen: true })).toEqual([]);
    expect(await quotes.countDocuments()).toBe(3);
  });

  // A user's quotes, check-ins and deliveries are listed by a non-unique key, often with a range or a sort on
  // a second key of a compound index; writes move documents between keys. The embedded server keeps such
  // indexes itself: each answer must be exactly what a scan would give.
  it('answer by non-unique and compound indexes exactly as a scan would, through inserts, updates and deletes', async () => {
    const quotes = collection('secondary');
    await quotes.createIndex({ userId: 1 });
    await quotes.createIndex({ owner: 1, day: -1 });
    await quotes.createIndex({ tags: 1 });
    await quotes.insertMany(
      Array.from({ length: 60 }, (_, n) => ({
        _id: `q${n}`,
        userId: `u${n % 3}`,
        owner: `o${n % 4}`,
        day: n,
        tags: n % 2 ? ['calm', `t${n % 5}`] : `t${n % 5}`,
      })),
    );
    await quotes.updateMany({ userId: 'u1', day: { $lt: 30 } }, { $set: { userId: 'u2' } });
    await quotes.deleteMany({ owner: 'o3', day: { $gte: 40 } });
    await quotes.insertOne({ _id: 'late', userId: 'u1', owner: 'o1', day: 100, tags: 'calm' });
    const ids = async (filter: Record<string, unknown>, sort: Record<string, 1 | -1> = { _id: 1 }) =>
      (await quotes.find(filter).sort(sort).toArray()).map((doc) => doc._id);
    const scan = async (keep: (doc: Doc) => boolean, sort: (a: Doc, b: Doc) => number) =>
      (await quotes.find({}).toArray())
        .filter(keep)
        .sort(sort)
        .map((doc) => doc._id);
    const byId = (a: Doc, b: Doc) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
    expect(await ids({ userId: 'u1' })).toEqual(await scan((doc) => doc.userId === 'u1', byId));
    expect(await ids({ userId: 'u2' })).toEqual(await scan((doc) => doc.userId === 'u2', byId));
    expect(await ids({ owner: 'o1' }, { day: -1 })).toEqual(
      await scan(
        (doc) => doc.owner === 'o1',
        (a, b) => b.day - a.day,
      ),
    );
    expect(await ids({ owner: 'o2', day: { $gte: 20, $lt: 50 } })).toEqual(
      await scan((doc) => doc.owner === 'o2' && doc.day >= 20 && doc.day < 50, byId),
    );
    expect(await ids({ owner: 'o3', day: 3 })).toEqual(['q3']);
    expect(await ids({ tags: 'calm' })).toEqual(
      await scan((doc) => (Array.isArray(doc.tags) ? doc.tags.includes('calm') : doc.tags === 'calm'), byId),
    );
    expect(await ids({ tags: 't2' })).toEqual(
      await scan((doc) => (Array.isArray(doc.tags) ? doc.tags.includes('t2') : doc.tags === 't2'), byId),
    );
    expect(await ids({ userId: 'nobody' })).toEqual([]);
    expect(await quotes.countDocuments({ userId: 'u0' })).toBe((await scan((doc) => doc.userId === 'u0', byId)).length);
  });

  it('are listed back as declared', async () => {
    const indexed = collection('list');
    await indexed.createIndex({ userId: 1, createdAt: -1 });
    await indexed.createIndex({ email: 1 }, { unique: true });
    const indexes = await indexed.listIndexes().toArray();
    expect(indexes.map((index) => index.key)).toEqual(
      expect.arrayContaining([{ _id: 1 }, { userId: 1, createdAt: -1 }, { email: 1 }]),
    );
    expect(indexes.find((index) => index.key.email === 1)?.unique).toBe(true);
  });
});

describe('the query shapes the services use', () => {
  const day = (n: number) => new Date(Date.UTC(2026, 0, n));

  async function seededCheckIns() {
    const checkIns = collection('checkins');
    await checkIns.createIndex({ userId: 1, createdAt: -1 });
    await checkIns.insertMany(
      Array.from({ length: 12 }, (_, index) => ({
        _id: `c${index}`,
        userId: index % 3 === 0 ? 'other' : 'me',
        createdAt: day(index + 1),
        mood: (index % 5) + 1,
        favorite: index % 2 === 0,
      })),
    );
    return checkIns;
  }

  it('filter by equality, range and $in; sort, skip, limit and project', async () => {
    const checkIns = await seededCheckIns();
    const page = await checkIns
      .find(
        { userId: 'me', createdAt: { $gte: day(2), $lt: day(12) }, mood: { $in: [2, 3, 4] } },
        { projection: { mood: 1, createdAt: 1 }, sort: { createdAt: -1 }, skip: 1, limit: 3 },
      )
      .toArray();
    expect(page.map((doc) => doc._id)).toEqual(['c7', 'c2', 'c1']);
    expect(Object.keys(page[0]!).sort()).toEqual(['_id', 'createdAt', 'mood']);
  });

  it('count and aggregate with $match, $group, $sort, $limit, $project and $count', async () => {
    const checkIns = await seededCheckIns();
    expect(await checkIns.countDocuments({ userId: 'me', favorite: true })).toBe(4);
    const perUser = await checkIns
      .aggregate<{ _id: string; entries: number; averageMood: number }>([
        { $match: { createdAt: { $gte: day(1) } } },
        { $group: { _id: '$userId', entries: { $sum: 1 }, averageMood: { $avg: '$mood' } } },
        { $sort: { entries: -1 } },
        { $limit: 2 },
        { $project: { entries: 1, averageMood: 1 } },
      ])
      .toArray();
    expect(perUser).toEqual([
      { _id: 'me', entries: 8, averageMood: (2 + 3 + 5 + 1 + 3 + 4 + 1 + 2) / 8 },
      { _id: 'other', entries: 4, averageMood: (1 + 4 + 2 + 5) / 4 },
    ]);
    const [counted] = await checkIns.aggregate<{ n: number }>([{ $match: { mood: 1 } }, { $count: 'n' }]).toArray();
    expect(counted?.n).toBe(3);
  });

  // The admin's user search matches e-mail, first and last name whatever the case.
  it('match case-insensitively with an escaped regular expression over several fields', async () => {
    const users = collection('search');
    await users.insertMany([
      { _id: 'u1', email: 'dana.smith@example.com', firstName: 'Dana', lastName: 'Smith' },
      { _id: 'u2', email: 'li@example.com', firstName: 'Li', lastName: 'SMITHSON' },
      { _id: 'u3', email: 'sam@example.com', firstName: 'Sam', lastName: 'Jones' },
      { _id: 'u4', email: 'a.b+c@example.com', firstName: 'A', lastName: 'B' },
    ]);
    const search = (text: string) => {
      const pattern = { $regex: text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), $options: 'i' };
      return users
        .find({ $or: [{ email: pattern }, { firstName: pattern }, { lastName: pattern }] }, { sort: { _id: 1 } })
        .toArray();
    };
    expect((await search('smith')).map((user) => user._id)).toEqual(['u1', 'u2']);
    expect((await search('DANA')).map((user) => user._id)).toEqual(['u1']);
    expect((await search('b+c')).map((user) => user._id)).toEqual(['u4']);
  });

  it('upsert with $setOnInsert, and $addToSet, $pull and $unset', async () => {
    const preferences = collection('upsert');
    const upsert = () =>
      preferences.updateOne(
        { _id: 'p' },
        { $setOnInsert: { createdAt: day(1) }, $set: { newsletter: true } },
        { upsert: true },
      );
    await upsert();
    await upsert();
    expect(await preferences.countDocuments({})).toBe(1);
    await preferences.updateOne({ _id: 'p' }, { $addToSet: { tags: { $each: ['a', 'b', 'a'] } } });
    await preferences.updateOne({ _id: 'p' }, update({ $pull: { tags: 'a' }, $unset: { newsletter: '' } }));
    const stored = await preferences.findOne({ _id: 'p' });
    expect(stored).toEqual({ _id: 'p', createdAt: day(1), tags: ['b'] });
  });

  // Outbox events are stored as bytes; dates travel as dates.
  it('keep binary values and dates exactly', async () => {
    const values = collection('types');
    const bytes = Buffer.from(randomBytes(64));
    await values.insertOne({ _id: 'v', bytes, at: day(3) });
    const stored = await values.findOne({ _id: 'v' });
    expect(Buffer.from((stored?.bytes as mongoose.mongo.Binary).buffer)).toEqual(bytes);
    expect(stored?.at).toEqual(day(3));
  });

  it('delete by filter, leaving the rest', async () => {
    const checkIns = await seededCheckIns();
    const result = await checkIns.deleteMany({ userId: 'other' });
    expect(result.deletedCount).toBe(4);
    expect(await checkIns.countDocuments({})).toBe(8);
  });
});

describe('the collection catalogue under concurrent first use', () => {
  // A service starting up sends `create` (mongoose autoCreate), `createIndexes` and its first writes for a
  // new collection at once; every test file does so again in its own database. None of them may fail.
  it('create, createIndexes and inserts racing on 20 new collections all succeed', async () => {
    const outcomes = await times(20, async () => {
      const name = `first_use_${randomBytes(3).toString('hex')}`;
      return Promise.allSettled([
        db.createCollection(name),
        db.collection(name).createIndex({ email: 1 }, { unique: true }),
        db.collection(name).createIndex({ createdAt: -1 }),
        ...Array.from({ length: 4 }, (_, index) =>
          db.collection<Doc>(name).insertOne({ _id: `d${index}`, email: `${index}@example.com` }),
        ),
      ]);
    });
    const failures = outcomes
      .flat()
      .filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
      // Real MongoDB answers a racing explicit `create` with NamespaceExists (48); mongoose tolerates it.
      .filter((outcome) => (outcome.reason as { code?: number }).code !== 48)
      .map((outcome) => String(outcome.reason));
    expect(failures).toEqual([]);
  });

  it('a dropped database can be used again at once', async () => {
    const scratch = client.db(`conformance_drop_${randomBytes(3).toString('hex')}`);
    for (let round = 0; round < 3; round += 1) {
      await Promise.all([
        scratch.collection<Doc>('things').insertOne({ _id: `t${round}` }),
        scratch.collection('things').createIndex({ n: 1 }),
      ]);
      expect(await scratch.collection('things').countDocuments({})).toBe(1);
      await scratch.dropDatabase();
    }
  });
});
