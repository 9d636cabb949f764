/**
 * Entity lookups are batched: the N users of a list (N `__resolveReference` calls in one request) leave as
 * one `$in` query, counted on the real database through the driver's command monitoring.
 */
import { requestLoader } from '@haven/platform';
import mongoose from 'mongoose';
import { findUsersByIds, userModel } from '../src/model/user';
import { testInfra } from '../../../tools/testing/test-env';

let connection: mongoose.Connection;
const finds: unknown[] = [];

beforeAll(async () => {
  connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `t_lookup_${process.pid}`, monitorCommands: true })
    .asPromise();
  connection.getClient().on('commandStarted', (event) => {
    if (event.commandName === 'find') finds.push(event.command.filter);
  });
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

it('loads N users of one request with one query, null for an unknown id', async () => {
  const users = userModel(connection);
  const ids = Array.from({ length: 12 }, (_, index) => `user-${index}`);
  await users.insertMany(
    ids.map((id) => ({ _id: id, email: `${id}@example.test`, authProvider: 'email', outbox: [] })),
  );
  finds.length = 0;

  const request = {}; // one request's context
  const load = (id: string) => requestLoader(request, 'users', (batch) => findUsersByIds(users, batch)).load(id);
  const loaded = await Promise.all([...ids, 'nobody', ids[0]!].map(load));

  expect(loaded.slice(0, 12).map((user) => user?.email)).toEqual(ids.map((id) => `${id}@example.test`));
  expect(loaded[12]).toBeNull();
  expect(loaded[13]?._id).toBe('user-0');
  expect(finds).toHaveLength(1);
  // objectContaining: the outbox plugin adds its tombstone guard to every find.
  expect(finds[0]).toEqual(expect.objectContaining({ _id: { $in: [...ids, 'nobody'] } }));

  // Another request does not see this one's cache.
  await requestLoader({}, 'users', (batch) => findUsersByIds(users, batch)).load('user-3');
  expect(finds).toHaveLength(2);
});
