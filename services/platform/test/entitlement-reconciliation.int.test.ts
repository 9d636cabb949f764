/**
 * The entitlement reconciliation past a copy it cannot repair: a copy an older version wrote with its revision as
 * text, for someone billing has no subscription for, met first (its id sorts first), among copies that drifted.
 * Every drifted copy is set to billing's record (or removed), the bad one is logged by its user id, counted and
 * left as it was, and the next pass goes past it again. The copies are this file's own database; billing is a
 * real one (a test Haven's), asked with the service credential, as a service's reconciliation asks it.
 */
import { entitlementProjection, type PeriodicWork, type ReconciliationResult } from '@haven/platform';
import type mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { capturedLog } from '../../../tools/testing/captured-log';
import { startTestHaven, testServiceSecret, type TestHaven } from '../../../tools/testing/haven';
import { useOwnDatabase } from '../../../tools/testing/own-database';
import { signedUpPerson, startTrial } from '../../../tools/testing/subscription';

const hour = 60 * 60_000;
let haven: TestHaven;
let connection: mongoose.Connection;
let reconciliation: PeriodicWork<ReconciliationResult>;
const captured = capturedLog();

useOwnDatabase('entitlement_reconciliation', (opened) => (connection = opened));

beforeAll(async () => {
  haven = await startTestHaven();
}, 180_000);

afterAll(async () => {
  await reconciliation?.stop();
  await haven?.stop();
});

/** A copy as a service keeps it, wrong on purpose: a denial billing never decided. */
const deniedCopy = (userId: string, revision: unknown) => ({
  _id: userId,
  revision,
  status: 'payment_failed',
  granted: false,
  reason: 'payment_failed',
  validUntil: null,
  updatedAt: new Date(),
});

it('repairs every drifted copy past one it cannot repair, and counts and names that one, pass after pass', async () => {
  const people = await Promise.all(
    [0, 1, 2].map(async (n) => {
      const person = await signedUpPerson(haven.gatewayUrl, `reconciled${n}`);
      await startTrial(person.client);
      return person;
    }),
  );
  // Its id sorts before every other (the pass walks the copies by id): the pass meets it first.
  const bad = `00000000-0000-4000-8000-${randomBytes(6).toString('hex')}`;
  const stranger = randomUUID();
  const copies = connection.collection<Record<string, unknown> & { _id: string }>('entitlements');
  await copies.insertMany([
    deniedCopy(bad, 'seven'),
    ...people.map((person) => deniedCopy(person.userId, 1)),
    { ...deniedCopy(stranger, 3), granted: true, status: 'active', reason: '' },
  ]);

  reconciliation = entitlementProjection(connection, 'reconciliation-test').reconciliation(
    { BILLING_SERVICE_URL: haven.services.billing.url, SERVICE_SECRET: testServiceSecret },
    { intervalMs: hour, log: captured.log },
  );
  const first = await reconciliation.runOnce();
  expect(first).toEqual({ checked: 5, repaired: 4, failed: 1, failedIds: [bad] });
  for (const person of people) {
    expect(await copies.findOne({ _id: person.userId })).toMatchObject({
      revision: 1,
      status: 'trialing',
      granted: true,
      reason: '',
      repairs: 1,
    });
  }
  expect(await copies.findOne({ _id: stranger })).toBeNull();
  expect(await copies.findOne({ _id: bad })).toMatchObject({ revision: 'seven', granted: false });

  // What the operator reads: the copy's user id and the error, and the pass's counts.
  const [failure, ...moreFailures] = captured.withMessage('entitlement reconciliation could not check a copy');
  expect(moreFailures).toEqual([]);
  expect(failure).toMatchObject({ userId: bad, err: expect.objectContaining({ type: 'CastError' }) });
  expect(captured.withMessage('entitlement reconciliation skipped copies it could not check')).toEqual([
    expect.objectContaining({ checked: 5, repaired: 4, failed: 1, failedIds: [bad] }),
  ]);

  // The next pass meets the bad copy again, and still repairs a copy that drifted since.
  await copies.updateOne({ _id: people[2]!.userId }, { $set: { granted: false, reason: 'trial_expired' } });
  expect(await reconciliation.runOnce()).toEqual({ checked: 4, repaired: 1, failed: 1, failedIds: [bad] });
  expect(await copies.findOne({ _id: people[2]!.userId })).toMatchObject({ granted: true, repairs: 2 });
  expect(captured.withMessage('entitlement reconciliation could not check a copy')).toHaveLength(2);
});
