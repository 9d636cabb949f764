/**
 * Expired sessions, abandoned federated sign-ins and an account's pending address change or provider link whose
 * link expired leave the database on the sweep, driven here with a chosen clock: what has expired at that instant
 * goes, what has not stays.
 */
import type mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { sweepExpired } from '../src/jobs/expiry-sweep';
import { sessionModel } from '../src/model/session';
import { signInFlowModel } from '../src/model/sign-in-flow';
import { userModel, type UserRecord } from '../src/model/user';
import { useOwnDatabase } from '../../../tools/testing/own-database';

let connection: mongoose.Connection;

useOwnDatabase('expiry', (opened) => (connection = opened));

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

  const users = userModel(connection);
  const none = { pendingEmails: 0, pendingLinks: 0 };

  expect(await sweepExpired({ sessions, flows, users }, now)).toEqual({ sessions: 1, flows: 1, ...none });
  expect((await sessions.find().lean()).map((each) => each._id)).toEqual([liveSession._id]);
  expect((await flows.find().lean()).map((each) => each._id)).toEqual([liveFlow._id]);

  // Swept again once the rest expired: nothing is left, and a sweep with nothing to do changes nothing.
  expect(await sweepExpired({ sessions, flows, users }, at(2 * hour))).toEqual({ sessions: 1, flows: 1, ...none });
  expect(await sweepExpired({ sessions, flows, users }, at(2 * hour))).toEqual({ sessions: 0, flows: 0, ...none });
  expect(await sessions.countDocuments()).toBe(0);
  expect(await flows.countDocuments()).toBe(0);
});

it('clears an address change and a provider link whose link expired, and keeps the ones still open', async () => {
  const sessions = sessionModel(connection);
  const flows = signInFlowModel(connection);
  const users = userModel(connection);
  const now = new Date('2026-11-28T12:00:00Z');
  const at = (offset: number) => new Date(now.getTime() + offset);
  const hash = () => randomBytes(32).toString('hex');
  const pendingEmail = (expiresAt: Date) => ({
    address: `new-${randomUUID()}@example.test`,
    tokenHash: hash(),
    expiresAt,
  });
  const pendingLink = (expiresAt: Date) => ({
    tokenHash: hash(),
    provider: 'google' as const,
    subject: randomUUID(),
    email: `linked-${randomUUID()}@example.test`,
    emailVerified: true,
    bindingHash: hash(),
    expiresAt,
  });
  const user = async (pending: Partial<Pick<UserRecord, 'pendingEmail' | 'pendingLink'>>) => {
    const id = randomUUID();
    await users.insertMany([{ _id: id, email: `${id}@example.test`, authProvider: 'email', ...pending }]);
    return id;
  };
  const stale = await user({ pendingEmail: pendingEmail(at(-1)), pendingLink: pendingLink(at(-hour)) });
  const open = await user({ pendingEmail: pendingEmail(at(hour)), pendingLink: pendingLink(at(1)) });
  const mixed = await user({ pendingEmail: pendingEmail(at(hour)), pendingLink: pendingLink(now) });
  const neither = await user({});
  const pendingOf = async (id: string) => {
    const found = await users.findById(id, { email: 1, pendingEmail: 1, pendingLink: 1 }).lean<UserRecord>();
    return { email: found?.email, pendingEmail: found?.pendingEmail ?? null, pendingLink: found?.pendingLink ?? null };
  };
  const before = await Promise.all([stale, open, mixed, neither].map(pendingOf));

  expect(await sweepExpired({ sessions, flows, users }, now)).toEqual({
    sessions: 0,
    flows: 0,
    pendingEmails: 1,
    pendingLinks: 2,
  });
  // The account itself stays: only the address it never confirmed goes.
  expect(await pendingOf(stale)).toEqual({ email: before[0]!.email, pendingEmail: null, pendingLink: null });
  expect(await pendingOf(open)).toEqual(before[1]);
  expect(await pendingOf(mixed)).toEqual({ ...before[2]!, pendingLink: null });
  expect(await pendingOf(neither)).toEqual(before[3]);

  // Two hours on the open ones have expired too; then there is nothing left to clear.
  expect(await sweepExpired({ sessions, flows, users }, at(2 * hour))).toMatchObject({
    pendingEmails: 2,
    pendingLinks: 1,
  });
  expect(await sweepExpired({ sessions, flows, users }, at(2 * hour))).toMatchObject({
    pendingEmails: 0,
    pendingLinks: 0,
  });
  expect(await users.countDocuments({ $or: [{ pendingEmail: { $ne: null } }, { pendingLink: { $ne: null } }] })).toBe(
    0,
  );
  expect(await users.countDocuments()).toBe(4);
});
