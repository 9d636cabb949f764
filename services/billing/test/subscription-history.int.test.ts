/**
 * The data export's history of subscription changes lives in a collection of its own (the subscription's
 * published events leave it) and is kept for BILLING_HISTORY_RETENTION_DAYS of billing's clock.
 */
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTrial } from '../../../tools/testing/subscription';
import { advanceBillingClock } from './support';

const retentionDays = 30;
let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven({
    env: { BILLING_TEST_CLOCK: '1', BILLING_HISTORY_RETENTION_DAYS: String(retentionDays) },
  });
});

afterAll(async () => {
  await haven?.stop();
});

async function exportedHistory(client: ApiClient): Promise<Array<{ event: string; status: string }>> {
  const exported = await client.get<{
    billing: { subscription: { history: Array<{ event: string; status: string }> } };
  }>('/api/user/data-export');
  expect(exported.status).toBe(200);
  return exported.body.billing.subscription.history;
}

it('exports the changes, and sweeps those older than the retention by billing’s clock', async () => {
  const client = new ApiClient(haven.gatewayUrl);
  expect(
    (await client.post('/api/auth/register', { email: uniqueEmail('history'), password: 'history password' })).status,
  ).toBe(201);
  await startTrial(client);
  expect(await exportedHistory(client)).toEqual([
    expect.objectContaining({ event: 'billing.trial_started', status: 'trialing' }),
  ]);

  // A day short of the retention: kept (the trial's own steps are recorded beside it).
  await advanceBillingClock(haven, (retentionDays - 1) * 24 * 60 * 60);
  const kept = (await exportedHistory(client)).map((entry) => entry.event);
  expect(kept[0]).toBe('billing.trial_started');

  // Two days later the trial's start is past the retention and the sweep (the scheduler's pass) deletes it;
  // the changes since stay.
  await advanceBillingClock(haven, 2 * 24 * 60 * 60);
  const later = (await exportedHistory(client)).map((entry) => entry.event);
  expect(later).not.toContain('billing.trial_started');
  expect(later.slice(0, kept.length - 1)).toEqual(kept.slice(1));
});
