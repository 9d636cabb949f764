/**
 * Moves billing's test clock (BILLING_TEST_CLOCK=1) as a Haven service does: advanceBillingClock is for services
 * only, so the call goes straight to billing with the service credential, not through the gateway.
 */
import { serviceCredentialHeader } from '@haven/platform';
import { testServiceSecret, type TestHaven } from '../../../../tools/testing/haven';

/** Billing's time after the move (epoch seconds); throws with billing's own error when it refuses. */
export async function advanceBillingClock(haven: TestHaven, seconds: number): Promise<number> {
  const response = await fetch(haven.services.billing.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [serviceCredentialHeader]: testServiceSecret },
    body: JSON.stringify({
      query: 'mutation($s: Int!) { advanceBillingClock(seconds: $s) }',
      variables: { s: seconds },
    }),
  });
  const body = (await response.json()) as { data?: { advanceBillingClock: number } | null; errors?: unknown[] };
  if (!body.data || body.errors) throw new Error(`advanceBillingClock answered ${JSON.stringify(body)}`);
  return body.data.advanceBillingClock;
}
