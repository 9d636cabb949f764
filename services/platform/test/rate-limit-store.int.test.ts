/**
 * MongoRateLimitStore against the real (embedded) database: the conditional `findOneAndUpdate` it relies
 * on ($push with $each/$sort/$slice, a positional `hits.N` path under $not) decides like
 * `decideSlidingWindow`, stays atomic under a concurrent burst from two connections (two replicas), and
 * stores nothing for a refused attempt.
 */
import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { MongoRateLimitStore, type RateLimit } from '../src';
import { testInfra } from '../../../tools/testing/test-env';

const connections: mongoose.Connection[] = [];
let dbName: string;
let logs: mongoose.mongo.Collection<{ _id: string; hits: number[]; expiresAt: Date }>;

const connect = async () => {
  const connection = await mongoose.createConnection(testInfra().mongoUrl, { dbName }).asPromise();
  connections.push(connection);
  return connection;
};

beforeAll(async () => {
  dbName = `t${randomBytes(4).toString('hex')}_ratelimit`;
  logs = (await connect()).db!.collection('rate_limit_logs');
});

afterAll(async () => {
  await connections[0]?.dropDatabase().catch(() => undefined);
  await Promise.all(connections.map((connection) => connection.close()));
});

const limit: RateLimit = { max: 10, windowMs: 60_000 };

it('gives no second budget at what used to be a fixed window’s boundary, and frees it one window later', async () => {
  let now = 1_800_000_000_000 + 59_900; // 100 ms before a minute boundary
  const store = new MongoRateLimitStore(await connect(), () => now);
  for (let i = 0; i < limit.max; i += 1)
    expect(await store.hit('login:boundary', 1, limit)).toEqual({ allowed: true, retryAfterMs: 0 });
  now += 200;
  expect(await store.hit('login:boundary', 1, limit)).toEqual({ allowed: false, retryAfterMs: 59_800 });
  now += 59_799;
  expect((await store.hit('login:boundary', 1, limit)).allowed).toBe(false);
  now += 1;
  expect(await store.hit('login:boundary', 2, limit)).toEqual({ allowed: true, retryAfterMs: 0 });
  const log = await logs.findOne({ _id: 'login:boundary' });
  expect(log?.hits).toHaveLength(limit.max);
  expect(log?.hits.slice(0, 3)).toEqual([now, now, now - 60_000]);
  expect(log?.expiresAt.getTime()).toBe(now + limit.windowMs);
});

it('does not store refused attempts, nor an attempt that costs more than the limit', async () => {
  let now = 1_800_000_000_000;
  const store = new MongoRateLimitStore(await connect(), () => now);
  expect(await store.hit('login:big', limit.max + 1, limit)).toEqual({ allowed: false, retryAfterMs: limit.windowMs });
  expect(await logs.countDocuments({ _id: 'login:big' })).toBe(0);

  expect((await store.hit('login:hammer', limit.max, limit)).allowed).toBe(true);
  for (let i = 0; i < 5; i += 1) {
    now += 1_000;
    expect(await store.hit('login:hammer', 1, limit)).toEqual({
      allowed: false,
      retryAfterMs: 60_000 - (now - 1_800_000_000_000),
    });
  }
  expect((await logs.findOne({ _id: 'login:hammer' }))?.hits).toEqual(Array(limit.max).fill(1_800_000_000_000));
});

it('accepts exactly the budget from a concurrent burst through two connections (two replicas)', async () => {
  const replicas = [new MongoRateLimitStore(await connect()), new MongoRateLimitStore(await connect())];
  const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => replicas[i % 2]!.hit('login:burst', 1, limit)));
  expect(burst.filter((decision) => decision.allowed)).toHaveLength(limit.max);
  for (const refused of burst.filter((decision) => !decision.allowed)) {
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(limit.windowMs);
  }
  expect((await logs.findOne({ _id: 'login:burst' }))?.hits).toHaveLength(limit.max);

  // Mixed costs: what is accepted never adds up to more than the limit.
  const costs = Array.from({ length: 20 }, (_, i) => 1 + (i % 3));
  const mixed = await Promise.all(costs.map((cost, i) => replicas[i % 2]!.hit('register:mixed', cost, limit)));
  const spent = costs.filter((_, i) => mixed[i]!.allowed).reduce((sum, cost) => sum + cost, 0);
  expect(spent).toBeLessThanOrEqual(limit.max);
  expect(spent).toBeGreaterThanOrEqual(limit.max - 2); // only a cost that no longer fits was refused
  expect((await logs.findOne({ _id: 'register:mixed' }))?.hits).toHaveLength(spent);
});
