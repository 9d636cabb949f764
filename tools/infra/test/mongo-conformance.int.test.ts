/**
 * The MongoDB semantics Haven relies on, checked against whichever server the test run uses: the embedded server of
 * `make dev` and `make test` (mongo-java-server), or MongoDB 7 where the containers path runs it. A server that fails
 * this suite cannot be Haven's development database (see docs/decisions/development-and-tests/development-database.md).
 * Each property is one that a service or the event toolkit depends on; the comment says which. To judge a candidate
 * server, point the suite at it: HAVEN_CONFORMANCE_MONGO_URL=mongodb://host:port.
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

  // The days of a person's progress are bits of words: every day set at once is kept, and one day clears alone.
  it('200 concurrent $bit or of distinct bits into missing words keep every bit, upserted, and and clears one', async () => {
    const words = collection('bit');
    await times(200, (index) =>
      words.updateOne(
        { _id: 'w' },
        update({ $inc: { n: 1 }, $bit: { [`bits.w${index >> 5}`]: { or: 1 << (index & 31) } } }),
        {
          upsert: true,
        },
      ),
    );
    const kept = await words.findOne({ _id: 'w' });
    expect(kept?.n).toBe(200);
    // 200 bits: six full 32-bit words (-1, the sign bit set too) and eight bits of a seventh.
    expect(kept?.bits).toEqual({ w0: -1, w1: -1, w2: -1, w3: -1, w4: -1, w5: -1, w6: 255 });
    await words.updateOne({ _id: 'w' }, update({ $bit: { 'bits.w6': { and: ~(1 << 3) } } }));
    await words.updateOne({ _id: 'w' }, update({ $bit: { 'bits.w0': { xor: 1 << 31 } } }));
    expect((await words.findOne({ _id: 'w' }))?.bits).toMatchObject({ w0: 2 ** 31 - 1, w6: 255 - 8 });
  });

  it('$bit on 64-bit integers, on many documents, and refused on a non-integer or beside a $set of its field', async () => {
    const words = collection('bit64');
    await words.insertMany([
      { _id: 'a', group: 'g', word: mongoose.mongo.Long.fromString('4294967296') },
      { _id: 'b', group: 'g', word: 1 },
      { _id: 'c', group: 'other', word: 1 },
      { _id: 'd', group: 'text', word: 'one' },
    ]);
    const result = await words.updateMany({ group: 'g' }, update({ $bit: { word: { or: 2 } } }));
    expect(result).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    const read = await words.find({}, { promoteLongs: false, sort: { _id: 1 } }).toArray();
    expect(read.map((doc) => [doc._id, String(doc.word)])).toEqual([
      ['a', '4294967298'],
      ['b', '3'],
      ['c', '1'],
      ['d', 'one'],
    ]);
    await expect(words.updateOne({ _id: 'd' }, update({ $bit: { word: { or: 1 } } }))).rejects.toThrow(/non-integral/);
    await expect(
      words.updateOne({ _id: 'b' }, update({ $set: { word: 5 }, $bit: { word: { or: 1 } } })),
    ).rejects.toThrow(/conflict/);
    expect((await words.findOne({ _id: 'b' }))?.word).toBe(3);
    expect(await words.updateOne({ _id: 'nobody' }, update({ $bit: { word: { or: 1 } } }))).toMatchObject({
      matchedCount: 0,
      upsertedCount: 0,
    });
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

describe('sorted pages and counts from indexes', () => {
  // The admin's user list pages through 100,000 accounts newest first, filtered by a status or not, and counts
  // them. The embedded server walks its ordered indexes for these and counts on them; every answer must be the
  // one a scan gives. Each check runs the same query on two collections holding the same documents, one with
  // the indexes and one without (a scan on any server), through inserts, updates and deletes made after the
  // indexes were built. Sorts that leave ties compare the sort keys, and the whole set of ids apart.
  type Filter = Record<string, unknown>;
  type SortSpec = Record<string, 1 | -1>;
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 3_600_000);
  const groups = ['g0', 'g1', 'g2', null, undefined] as const;
  const statuses = ['active', 'trialing', 'trial_expired', null, undefined] as const;

  /** A document with null and missing values, ties on `day`, and a few days that are text or dates. */
  function make(n: number): Doc {
    const doc: Doc = { _id: `d${String(n).padStart(3, '0')}`, day: n % 37, tomb: n % 11 === 0 ? true : undefined };
    const group = groups[n % groups.length];
    if (group !== undefined) doc.group = group;
    const status = statuses[n % statuses.length];
    if (status !== undefined) doc.status = status;
    if (n % 3 === 1) doc.verifiedAt = at(n);
    else if (n % 3 === 2) doc.verifiedAt = null;
    if (n % 29 === 0) doc.day = `day ${n}`;
    if (n % 31 === 0) doc.day = at(n);
    if (n % 23 === 0) delete doc.day;
    if (n % 19 === 0) doc.day = null;
    if (doc.tomb === undefined) delete doc.tomb;
    // Something large before the fields queried (as the outbox is), so reading fields past it is tested too.
    doc.events = Array.from({ length: n % 4 }, (_, index) => ({ type: `e${index}`, value: Buffer.alloc(200, n) }));
    return doc;
  }

  async function twins() {
    const name = `pages_${randomBytes(3).toString('hex')}`;
    const indexed = db.collection<Doc>(`${name}_indexed`);
    const plain = db.collection<Doc>(`${name}_plain`);
    const both = async (write: (target: mongoose.mongo.Collection<Doc>) => Promise<unknown>) => {
      await write(indexed);
      await write(plain);
    };
    await both((target) => target.insertMany(Array.from({ length: 240 }, (_, n) => make(n))));
    await indexed.createIndex({ day: -1, _id: -1 });
    await indexed.createIndex({ group: 1, day: -1, _id: -1 });
    await indexed.createIndex({ verifiedAt: 1, day: -1, _id: -1 });
    await indexed.createIndex({ status: 1 });
    // After the indexes exist: documents arrive, move within and between keys, lose and gain fields, go.
    await both((target) => target.insertMany(Array.from({ length: 60 }, (_, n) => make(240 + n))));
    await both((target) => target.updateMany({ group: 'g1', day: { $lt: 10 } }, { $set: { group: 'g2' } }));
    await both((target) => target.updateMany({ status: 'trialing', day: { $gte: 30 } }, { $set: { day: 3 } }));
    await both((target) => target.updateMany({ day: 7 }, { $unset: { group: '' }, $set: { tomb: true } }));
    await both((target) => target.updateMany({ verifiedAt: null, day: 12 }, { $set: { verifiedAt: at(1000) } }));
    await both((target) => target.deleteMany({ group: 'g0', day: { $gte: 20 } }));
    return { indexed, plain, both };
  }

  // A missing field sorts as null (they tie), so both read as null here.
  const keysOf = (docs: Doc[], sort: SortSpec) => docs.map((doc) => Object.keys(sort).map((key) => doc[key] ?? null));
  const idsOf = (docs: Doc[]) => docs.map((doc) => doc._id);

  it('give the pages a scan gives: sorted both ways, skipped, limited, filtered on and off the index', async () => {
    const { indexed, plain } = await twins();
    const page = (
      target: mongoose.mongo.Collection<Doc>,
      filter: Filter,
      sort: SortSpec,
      skip: number,
      limit: number,
    ) => target.find(filter, { sort, skip, limit }).toArray();
    const filters: Filter[] = [
      {},
      { tomb: { $ne: true } },
      { group: 'g1' },
      { group: 'g2', tomb: { $ne: true } },
      { group: null },
      { group: 'g2', day: { $gte: 5, $lt: 20 } },
      { day: { $gt: 30 } },
      { day: { $ne: null }, tomb: { $exists: false } },
      { verifiedAt: { $ne: null } },
      { verifiedAt: null, group: { $in: ['g0', 'g2'] } },
      { $or: [{ status: 'active' }, { group: 'g0' }], tomb: { $ne: true } },
      // Equalities the walk's stretch decides, alone, as $eq, with a rival on the same key, on a number.
      { group: 'g2', day: 12 },
      { group: { $eq: 'g1' }, day: { $eq: 3 } },
      { $and: [{ group: 'g1' }, { group: 'g2' }] },
      { group: 'g2', day: 12.5 },
      { group: 'nobody' },
    ];
    const sorts: SortSpec[] = [
      { day: -1, _id: -1 },
      { day: 1, _id: 1 },
      { group: 1, day: -1, _id: -1 },
      { group: -1, day: 1, _id: 1 },
    ];
    let compared = 0;
    for (const filter of filters) {
      for (const sort of sorts) {
        for (const [skip, limit] of [
          [0, 0],
          [0, 1],
          [0, 25],
          [7, 10],
          [50, 25],
          [280, 25],
        ] as const) {
          const expected = await page(plain, filter, sort, skip, limit);
          expect({ filter, sort, skip, limit, ids: idsOf(await page(indexed, filter, sort, skip, limit)) }).toEqual({
            filter,
            sort,
            skip,
            limit,
            ids: idsOf(expected),
          });
          compared += expected.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
    // The whole documents come back, fields past the large one included, and projections as asked.
    const [first] = await page(indexed, { group: 'g2' }, { day: -1, _id: -1 }, 0, 1);
    expect(first).toEqual((await plain.findOne({ _id: first!._id }))!);
    const projected = await indexed
      .find(
        { tomb: { $ne: true } },
        { sort: { day: -1, _id: -1 }, skip: 3, limit: 5, projection: { day: 1, group: 1 } },
      )
      .toArray();
    expect(projected).toEqual(
      await plain
        .find(
          { tomb: { $ne: true } },
          { sort: { day: -1, _id: -1 }, skip: 3, limit: 5, projection: { day: 1, group: 1 } },
        )
        .toArray(),
    );
    expect(Object.keys(projected[0]!).every((key) => ['_id', 'day', 'group'].includes(key))).toBe(true);
  });

  it('order ties, nulls, missing fields and mixed types as a scan does', async () => {
    const { indexed, plain } = await twins();
    for (const [filter, sort] of [
      [{}, { day: -1 }],
      [{}, { day: 1 }],
      [{ group: 'g2' }, { day: 1 }],
      [{ tomb: { $ne: true } }, { day: -1 }],
      [{ status: 'active' }, { status: 1 }],
    ] as Array<[Filter, SortSpec]>) {
      const all = await plain.find(filter, { sort }).toArray();
      const walked = await indexed.find(filter, { sort }).toArray();
      // The sort keys in the same order (nulls and missing first ascending, numbers before text before dates)…
      expect(keysOf(walked, sort)).toEqual(keysOf(all, sort));
      // …and the same documents; which of two equal keys comes first is not defined, here as on MongoDB.
      expect(idsOf(walked).sort()).toEqual(idsOf(all).sort());
      for (const [skip, limit] of [
        [0, 10],
        [13, 9],
        [100, 40],
      ] as const) {
        const part = await indexed.find(filter, { sort, skip, limit }).toArray();
        expect(keysOf(part, sort)).toEqual(keysOf(all.slice(skip, skip + limit), sort));
      }
    }
    // Written out for the plainest case, so the scan itself is checked too: numbers descending, then text.
    const days = keysOf(await indexed.find({ day: { $type: ['number', 'string'] } }, { sort: { day: -1 } }).toArray(), {
      day: -1,
    }).map(([day]) => day);
    const texts = days.filter((day) => typeof day === 'string');
    const numbers = days.filter((day) => typeof day === 'number');
    expect(days).toEqual([...texts, ...numbers]);
    expect(texts).toEqual([...texts].sort().reverse());
    expect(numbers).toEqual([...numbers].sort((a, b) => (b as number) - (a as number)));
  });

  it('count as a scan does, for each filter shape, with skip and limit, by count, countDocuments and $count', async () => {
    const { indexed, plain, both } = await twins();
    const filters: Filter[] = [
      {},
      { group: 'g1' },
      { group: 'g2' },
      { day: 12 },
      { group: null },
      { group: { $exists: false } },
      { group: 'g2', tomb: { $ne: true } },
      { group: 'g2', day: { $ne: null } },
      { verifiedAt: { $ne: null } },
      { verifiedAt: { $ne: null }, tomb: { $ne: true } },
      { verifiedAt: { $gte: at(100) } },
      { day: { $gt: 10 } },
      { day: { $gte: 3, $lte: 9 } },
      { day: { $lt: 'day 9' } },
      { day: { $gte: at(0) } },
      { day: 12, group: 'g2' },
      { status: 'active' },
      { status: { $in: ['active', 'trialing'] } },
      { status: 'trialing', tomb: { $ne: true } },
      { $and: [{ group: 'g2' }, { day: { $lt: 20 } }] },
      { tomb: { $ne: true } },
      { group: { $eq: 'g1' }, day: { $eq: 3 } },
      { $and: [{ group: 'g1' }, { group: 'g2' }] },
      { $and: [{ group: 'g2' }, { group: 'g2' }] },
      { status: 'active', group: 'g1' },
      { group: 'nobody' },
    ];
    for (const filter of filters) {
      const expected = await plain.countDocuments(filter);
      expect({ filter, n: await indexed.countDocuments(filter) }).toEqual({ filter, n: expected });
      expect({ filter, n: await indexed.countDocuments(filter, { skip: 5, limit: 20 }) }).toEqual({
        filter,
        n: Math.min(20, Math.max(0, expected - 5)),
      });
      const [counted] = await indexed.aggregate<{ n: number }>([{ $match: filter }, { $count: 'n' }]).toArray();
      // $count answers nothing at all when nothing matches.
      expect({ filter, counted }).toEqual({ filter, counted: expected === 0 ? undefined : { n: expected } });
      const [grouped] = await indexed
        .aggregate([{ $match: filter }, { $skip: 2 }, { $group: { _id: null, total: { $sum: 1 } } }])
        .toArray();
      expect({ filter, grouped }).toEqual({
        filter,
        grouped: expected <= 2 ? undefined : { _id: null, total: expected - 2 },
      });
    }
    // The legacy count command (estimatedDocumentCount and old drivers) agrees as well.
    const legacy = await db.command({ count: indexed.collectionName, query: { group: 'g2', tomb: { $ne: true } } });
    expect(legacy.n).toBe(await plain.countDocuments({ group: 'g2', tomb: { $ne: true } }));
    // A pipeline that does more than count is the library's: same answer on both.
    const perGroup = (target: mongoose.mongo.Collection<Doc>) =>
      target
        .aggregate([
          { $match: { day: { $ne: null } } },
          { $group: { _id: '$group', n: { $sum: 1 } } },
          { $sort: { _id: 1 } },
        ])
        .toArray();
    expect(await perGroup(indexed)).toEqual(await perGroup(plain));
    // Counts follow later writes.
    await both((target) => target.deleteMany({ group: 'g2', day: { $lt: 5 } }));
    await both((target) => target.updateMany({ status: 'active' }, { $set: { group: 'g1', tomb: true } }));
    for (const filter of filters) {
      expect({ filter, n: await indexed.countDocuments(filter) }).toEqual({
        filter,
        n: await plain.countDocuments(filter),
      });
    }
  });

  // MongoDB indexes each element of an array (multikey); the embedded server stops walking an index while it
  // holds an array or a document under a key, and answers as a scan does.
  it('answer the same while an indexed key holds an array or a document, and after', async () => {
    const { indexed, plain, both } = await twins();
    const check = async () => {
      for (const filter of [{}, { group: 'g1' }, { day: { $gte: 10 } }] as Filter[]) {
        expect(idsOf(await indexed.find(filter, { sort: { day: -1, _id: -1 }, skip: 2, limit: 30 }).toArray())).toEqual(
          idsOf(await plain.find(filter, { sort: { day: -1, _id: -1 }, skip: 2, limit: 30 }).toArray()),
        );
        expect(await indexed.countDocuments(filter)).toBe(await plain.countDocuments(filter));
      }
    };
    await both((target) => target.insertOne({ _id: 'array', day: [5, 40], group: 'g1' }));
    await both((target) => target.insertOne({ _id: 'embedded', day: { n: 1 }, group: ['g1', 'g2'] }));
    await check();
    await both((target) => target.deleteMany({ _id: { $in: ['array', 'embedded'] } }));
    await check();
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

  // The embedded server keeps documents as BSON and reads only the fields a query names: every type must come
  // back exactly, and fields stored after a large one (an outbox) must be found, sorted and projected.
  it('keep every BSON type exactly, and find, sort and project fields stored after large ones', async () => {
    const values = collection('bson');
    const { Decimal128, Double, Long, MaxKey, MinKey, ObjectId, Timestamp, BSONRegExp, UUID, BSON } = mongoose.mongo;
    const everything = {
      _id: 'all',
      big: Buffer.alloc(50_000, 7),
      int: 42,
      long: Long.fromString('9007199254740993'),
      double: new Double(1.5),
      decimal: Decimal128.fromString('12.345'),
      text: 'héllo ✓',
      nested: { list: [1, { deep: null }, 'x'], when: day(4), empty: {} },
      flag: false,
      nothing: null,
      objectId: new ObjectId(),
      uuid: new UUID(),
      pattern: new BSONRegExp('^a.c$', 'i'),
      min: new MinKey(),
      max: new MaxKey(),
      stamp: new Timestamp({ t: 1_700_000_000, i: 7 }),
      rank: 2,
    };
    await values.insertMany([everything, { _id: 'small', rank: 1, text: 'plain', big: Buffer.alloc(10) }]);
    const stored = await values.findOne({ _id: 'all' }, { promoteValues: false, promoteBuffers: false });
    expect(Buffer.from(BSON.serialize(stored!))).toEqual(Buffer.from(BSON.serialize(everything)));
    expect((await values.find({ text: 'héllo ✓' }).toArray()).map((doc) => doc._id)).toEqual(['all']);
    expect(await values.countDocuments({ 'nested.when': day(4), flag: false })).toBe(1);
    expect((await values.find({}, { sort: { rank: -1 } }).toArray()).map((doc) => doc._id)).toEqual(['all', 'small']);
    expect(
      await values.find({ rank: { $gte: 1 } }, { sort: { rank: 1 }, projection: { flag: 1, text: 1 } }).toArray(),
    ).toEqual([
      { _id: 'small', text: 'plain' },
      { _id: 'all', text: 'héllo ✓', flag: false },
    ]);
  });

  // $currentDate makes dates finer than a millisecond on the embedded server (MongoDB keeps milliseconds); such a
  // document must still be found, updated and deleted through a unique index on that date.
  it('update and delete documents dated by $currentDate through an index on the date', async () => {
    const stamps = collection('current_date');
    await stamps.createIndex({ at: 1 }, { unique: true });
    await stamps.createIndex({ owner: 1, at: -1 });
    await stamps.updateOne({ _id: 'a' }, { $currentDate: { at: true }, $set: { owner: 'o' } }, { upsert: true });
    await stamps.updateOne({ _id: 'b' }, { $currentDate: { at: true }, $set: { owner: 'o' } }, { upsert: true });
    await stamps.updateOne({ _id: 'a' }, { $currentDate: { at: true } });
    expect((await stamps.find({ owner: 'o' }, { sort: { at: -1 } }).toArray()).map((doc) => doc._id)).toEqual([
      'a',
      'b',
    ]);
    expect((await stamps.deleteOne({ _id: 'a' })).deletedCount).toBe(1);
    expect(await stamps.countDocuments({ owner: 'o', at: { $lte: new Date(Date.now() + 60_000) } })).toBe(1);
    await stamps.insertOne({ _id: 'c', owner: 'o', at: day(1) });
    expect((await stamps.find({ owner: 'o' }, { sort: { at: 1 } }).toArray()).map((doc) => doc._id)).toEqual([
      'c',
      'b',
    ]);
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
