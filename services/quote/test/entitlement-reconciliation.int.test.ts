/**
 * The quote service's copy of billing's access decisions, compared with billing's record by the reconciliation
 * (a scheduled job here every second): a copy made wrong on purpose is set back to billing's record and the repair
 * is counted on it; a copy for a user billing has no subscription for is removed.
 */
import { periodicLeaseMs, serviceCredentialHeader, subgraphSecretHeader } from '@haven/platform';
import { randomUUID } from 'node:crypto';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, testServiceSecret, testSubgraphSecret, type TestHaven } from '../../../tools/testing/haven';
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
  // after another and renew the lease only as one starts (at most once a third of the lease), so two renewals
  // after the repair span a whole pass.
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

/** Billing's `entitlementRecords`, asked straight at billing with the given secret header. */
async function askBillingRecords(header: Record<string, string>, variables: Record<string, unknown>) {
  const response = await fetch(haven.services.billing.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...header },
    body: JSON.stringify({
      query: 'query($ids: [ID!]!) { entitlementRecords(userIds: $ids) { userId granted } }',
      variables,
    }),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      data?: unknown;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    },
  };
}

it('answers billing’s records to Haven’s services only, and refuses a list that is missing, too long or of the wrong type, by name', async () => {
  const person = await signedUpPerson(haven.gatewayUrl, 'records');
  await startTrial(person.client);
  const asService = { [serviceCredentialHeader]: testServiceSecret };

  // The gateway's secret (what a user's request carries) does not open it.
  const asGateway = await askBillingRecords({ [subgraphSecretHeader]: testSubgraphSecret }, { ids: [person.userId] });
  expect(asGateway.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  expect(asGateway.body.data ?? null).toBeNull();

  const answered = await askBillingRecords(asService, { ids: [person.userId, randomUUID()] });
  expect(answered.body).toEqual({ data: { entitlementRecords: [{ userId: person.userId, granted: true }] } });

  const tooMany = await askBillingRecords(asService, { ids: Array.from({ length: 501 }, () => randomUUID()) });
  expect(tooMany.body.errors?.[0]).toMatchObject({
    message: 'Ask for at most 500 users at a time',
    extensions: { code: 'BAD_USER_INPUT' },
  });
  for (const variables of [{}, { ids: [{ id: person.userId }] }]) {
    const refused = await askBillingRecords(asService, variables);
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.message).toMatch(/\$ids/);
  }
});
