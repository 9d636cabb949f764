/**
 * The retained billing records of erased accounts, driven with a chosen clock (the embedded database ignores TTL
 * indexes, and the period is years): a record whose account closed just over seven years ago goes, one closed just
 * under seven years ago stays, as does every younger one.
 */
import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { retainedBillingRecordYears } from '../src/domain/retention';
import { sweepRetainedRecords } from '../src/events/retained-records-sweep';
import { retainedBillingRecordModel, type RetainedBillingRecord } from '../src/model/retained-record';
import { testInfra } from '../../../tools/testing/test-env';

let connection: mongoose.Connection;

beforeAll(async () => {
  connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `retained_records_${randomBytes(4).toString('hex')}` })
    .asPromise();
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

const day = 24 * 60 * 60 * 1000;
const now = new Date('2033-12-01T12:00:00Z');
const yearsBefore = (years: number, offset = 0) => {
  const when = new Date(now.getTime() + offset);
  when.setUTCFullYear(when.getUTCFullYear() - years);
  return when;
};

const record = (closedAt: Date): RetainedBillingRecord => ({
  _id: randomBytes(32).toString('hex'),
  provider: 'stripe',
  providerSubscriptionId: `sub_${randomBytes(6).toString('hex')}`,
  statusAtDeletion: 'canceled',
  startedAt: new Date(closedAt.getTime() - 200 * day),
  trialEnd: null,
  currentPeriodEnd: closedAt,
  closedAt,
});

it('deletes the records of accounts closed over seven years ago and keeps the younger ones', async () => {
  expect(retainedBillingRecordYears).toBe(7);
  const retained = retainedBillingRecordModel(connection);
  const pastThePeriod = record(yearsBefore(7, -day));
  const justInside = record(yearsBefore(7, day));
  const lastYear = record(yearsBefore(1));
  await retained.insertMany([pastThePeriod, justInside, lastYear]);

  expect(await sweepRetainedRecords(retained, now)).toBe(1);
  const left = await retained.find({}, { _id: 1 }).lean();
  expect(left.map((each) => each._id).sort()).toEqual([justInside._id, lastYear._id].sort());

  // Two days on, the one just inside has passed too; a pass with nothing due deletes nothing.
  expect(await sweepRetainedRecords(retained, new Date(now.getTime() + 2 * day))).toBe(1);
  expect(await sweepRetainedRecords(retained, new Date(now.getTime() + 2 * day))).toBe(0);
  expect(await retained.countDocuments({ _id: lastYear._id })).toBe(1);
});
