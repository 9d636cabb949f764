/**
 * The quote service's copy of billing's access decisions, compared with billing's record by the reconciliation
 * (a scheduled job here every second): a copy made wrong on purpose is set back to billing's record and the repair
 * is counted on it; a copy for a user billing has no subscription for is removed.
 */
import { periodicLeaseMs } from '@haven/platform';
import { randomUUID } from 'node:crypto';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { signedUpPerson, startTrial } from '../../../tools/testing/subscription';

const reconcileIntervalMs = 1_000;
let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven({ env: { ENTITLEMENT_RECONCILE_INTERVAL_MS: String(reconcileIntervalMs) } });
}, 180_000);

afterAll(async () => {
  await haven?.stop();
});

it('sets a copy made wrong on purpose back to billing’s record, counts the repair, and removes a copy billing does not know', async () => {
  const person = await signedUpPerson(haven.gatewayUrl, 'reconcile');
  await startTrial(person.client);
  const copies = await haven.collection('quote', 'entitlements');
  const truth = await eventually('the quote service’s copy granting the trial', () =>
    copies.findOne({ _id: person.userId, granted: true }),
  );

  // A denial the person never had, at the copy's own revision: nothing but the reconciliation would undo it.
  await copies.updateOne(
    { _id: person.userId },
    { $set: { granted: false, status: 'payment_failed', reason: 'payment_failed' } },
  );
  // A grant for someone billing has never heard of.
  const stranger = randomUUID();
  await copies.insertOne({
    _id: stranger,
    revision: 7,
    status: 'active',
    granted: true,
    reason: '',
    validUntil: null,
    updatedAt: new Date(),
  });

  const repaired = await eventually('the made-wrong copy repaired', () =>
    copies.findOne({ _id: person.userId, granted: true }),
  );
  expect(repaired).toMatchObject({
    revision: truth.revision,
    status: 'trialing',
    reason: '',
    repairs: 1,
    repairedAt: expect.any(Date),
  });
  await eventually(
    'the copy billing does not know removed',
    async () => (await copies.findOne({ _id: stranger })) === null,
  );

  // A copy that agrees with billing is left as it is: a whole later pass counts no repair on it. Passes run one
  // after another, each renewing the lease as it starts, so two renewals after the repair span a whole pass.
  const leases = await haven.collection('quote', 'leases');
  const leaseMs = periodicLeaseMs(reconcileIntervalMs);
  const passStartedAfter = (time: number) =>
    eventually(`a reconciliation pass started after ${new Date(time).toISOString()}`, async () => {
      const lease = await leases.findOne({ _id: 'entitlement-reconciliation' });
      const renewedAt = lease ? (lease.expiresAt as Date).getTime() - leaseMs : 0;
      return renewedAt > time ? renewedAt : null;
    });
  await passStartedAfter(await passStartedAfter((repaired.repairedAt as Date).getTime()));
  expect(await copies.findOne({ _id: person.userId })).toMatchObject({ repairs: 1, granted: true });
});
