/**
 * Signed-out visitors' cookie choices, driven with a chosen clock (the embedded database ignores TTL indexes, and
 * the period is 400 days): a choice last updated just over 400 days ago goes, one just under stays, as does every
 * younger one and every account's choice.
 */
import type mongoose from 'mongoose';
import { randomUUID } from 'node:crypto';
import { visitorConsentCleanupSeconds } from '../src/domain/consent';
import { sweepVisitorConsents } from '../src/jobs/visitor-consent-sweep';
import { userConsentModel, visitorConsentModel, type ConsentRecord } from '../src/model/consent';
import { useOwnDatabase } from '../../../tools/testing/own-database';

let connection: mongoose.Connection;

useOwnDatabase('visitor_consents', (opened) => (connection = opened));

const day = 24 * 60 * 60 * 1000;
// Ahead of the wall clock: on MongoDB the TTL index would otherwise delete the old choices before the sweep does.
const now = new Date('2036-11-28T12:00:00Z');
const at = (offset: number) => new Date(now.getTime() + offset);

const choice = (updatedAt: Date): ConsentRecord => ({
  _id: randomUUID(),
  necessary: true,
  analytics: false,
  marketing: false,
  preferences: true,
  consentGivenAt: updatedAt,
  policyVersion: '2025-01-28',
  updatedAt,
});

it('deletes the visitors’ choices not updated for 400 days and keeps the younger ones', async () => {
  expect(visitorConsentCleanupSeconds * 1000).toBe(400 * day);
  const visitors = visitorConsentModel(connection);
  const accounts = userConsentModel(connection);
  const pastThePeriod = choice(at(-400 * day - 60_000));
  const justInside = choice(at(-400 * day + 60_000));
  const lastMonth = choice(at(-30 * day));
  await visitors.insertMany([pastThePeriod, justInside, lastMonth]);
  // An account's choice stays until the account is erased, however old.
  const account = choice(at(-1000 * day));
  await accounts.insertMany([account]);

  expect(await sweepVisitorConsents(visitors, now)).toBe(1);
  const left = await visitors.find({}, { _id: 1 }).lean();
  expect(left.map((each) => each._id).sort()).toEqual([justInside._id, lastMonth._id].sort());

  // Two minutes on, the one just inside has passed too; a pass with nothing due deletes nothing.
  expect(await sweepVisitorConsents(visitors, at(2 * 60_000))).toBe(1);
  expect(await sweepVisitorConsents(visitors, at(2 * 60_000))).toBe(0);
  expect((await visitors.find({}, { _id: 1 }).lean()).map((each) => each._id)).toEqual([lastMonth._id]);
  expect(await accounts.countDocuments({ _id: account._id })).toBe(1);
});
