/**
 * The retained billing records of erased accounts and the trial claims, driven with a chosen clock (the embedded
 * database ignores TTL indexes, and the periods are years): a record whose account closed just over seven years
 * ago goes, one closed just under seven years ago stays, as does every younger one; a trial claim goes three years
 * after it was made.
 */
import type mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { retainedBillingRecordYears, trialClaimYears } from '../src/domain/retention';
import { sweepRetainedRecords, sweepTrialClaims } from '../src/jobs/retained-records-sweep';
import { retainedBillingRecordModel, type RetainedBillingRecord } from '../src/model/retained-record';
import { trialClaimModel, trialClaims } from '../src/model/trial-claim';
import { useOwnDatabase } from '../../../tools/testing/own-database';

let connection: mongoose.Connection;

useOwnDatabase('retained_records', (opened) => (connection = opened));

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

it('deletes the trial claims made over three years ago and keeps the younger ones', async () => {
  expect(trialClaimYears).toBe(3);
  const claims = trialClaimModel(connection);
  const claim = (claimedAt: Date) => ({ _id: randomBytes(32).toString('hex'), claimedAt });
  const pastThePeriod = claim(yearsBefore(3, -day));
  const justInside = claim(yearsBefore(3, day));
  const lastYear = claim(yearsBefore(1));
  await claims.insertMany([pastThePeriod, justInside, lastYear]);

  expect(await sweepTrialClaims(claims, now)).toBe(1);
  const left = await claims.find({}, { _id: 1 }).lean();
  expect(left.map((each) => each._id).sort()).toEqual([justInside._id, lastYear._id].sort());

  // Two days on, the one just inside has passed too; a pass with nothing due deletes nothing.
  expect(await sweepTrialClaims(claims, new Date(now.getTime() + 2 * day))).toBe(1);
  expect(await sweepTrialClaims(claims, new Date(now.getTime() + 2 * day))).toBe(0);
  expect(await claims.countDocuments({ _id: lastYear._id })).toBe(1);
});

it('offers the trial again to an address once its claim has gone', async () => {
  const trials = trialClaims(connection, { ERASURE_HMAC_SECRET: 'a test secret of enough length' });
  const email = `claimed-${randomBytes(4).toString('hex')}@example.test`;
  await trials.record(email);
  expect(await trials.claimed(email)).toBe(true);
  // Swept three years and a day after the claim, by the wall clock that wrote it.
  const later = new Date(Date.now() + day);
  later.setUTCFullYear(later.getUTCFullYear() + trialClaimYears);
  expect(await sweepTrialClaims(trialClaimModel(connection), later)).toBe(1);
  expect(await trials.claimed(email)).toBe(false);
});
