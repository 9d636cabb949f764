/**
 * Expired sessions and abandoned federated sign-ins leave the database on the sweep, driven here with a chosen
 * clock: what has expired at that instant goes, what has not stays.
 */
import mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { sweepExpired } from '../src/events/expiry-sweep';
import { sessionModel } from '../src/model/session';
import { signInFlowModel } from '../src/model/sign-in-flow';
import { testInfra } from '../../../tools/testing/test-env';

let connection: mongoose.Connection;

beforeAll(async () => {
  connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `expiry_${randomBytes(4).toString('hex')}` })
    .asPromise();
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

const hour = 60 * 60 * 1000;

it('deletes the sessions and sign-in flows expired at the sweep, and keeps the others until theirs', async () => {
  const sessions = sessionModel(connection);
  const flows = signInFlowModel(connection);
  const now = new Date('2026-11-28T12:00:00Z');
  const at = (offset: number) => new Date(now.getTime() + offset);
  const session = (expiresAt: Date) =>
    sessions.create({ _id: randomUUID(), userId: randomUUID(), createdAt: at(-7 * 24 * hour), expiresAt });
  const flow = (expiresAt: Date) =>
    flows.create({
      _id: randomBytes(32).toString('hex'),
      provider: 'google',
      codeVerifier: randomBytes(32).toString('base64url'),
      nonce: randomUUID(),
      bindingHash: randomBytes(32).toString('hex'),
      createdAt: at(-hour),
      expiresAt,
    });
  const [, liveSession] = await Promise.all([session(at(-1)), session(at(hour))]);
  const [, liveFlow] = await Promise.all([flow(at(-1)), flow(at(hour))]);

  expect(await sweepExpired({ sessions, flows }, now)).toEqual({ sessions: 1, flows: 1 });
  expect((await sessions.find().lean()).map((each) => each._id)).toEqual([liveSession._id]);
  expect((await flows.find().lean()).map((each) => each._id)).toEqual([liveFlow._id]);

  // Swept again once the rest expired: nothing is left, and a sweep with nothing to do changes nothing.
  expect(await sweepExpired({ sessions, flows }, at(2 * hour))).toEqual({ sessions: 1, flows: 1 });
  expect(await sweepExpired({ sessions, flows }, at(2 * hour))).toEqual({ sessions: 0, flows: 0 });
  expect(await sessions.countDocuments()).toBe(0);
  expect(await flows.countDocuments()).toBe(0);
});
