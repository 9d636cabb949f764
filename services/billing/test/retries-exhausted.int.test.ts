/**
 * A failed payment on the local test-mode provider is retried on Stripe's schedule (3, 7 and 14 days after it), and
 * when the last retry fails the subscription ends, as Stripe cancels one whose retries are exhausted: the same
 * status and event as Stripe's deletion webhook, access closed everywhere, and a new subscription may start.
 */
import { eventuallyExpect } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import {
  billingEmailTo,
  confirmedLocalSetup,
  goodTestCard,
  subscribedWithCard,
} from '../../../tools/testing/subscription';
import { advanceBillingClock, entitlementCopy, eventTypes, storedSubscription, subscriptionStatus } from './support';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

const day = 24 * 60 * 60;
const failsAtRenewal = '4000 0000 0000 0341';

const openInvoices = async (customerId: string) =>
  (await haven.collection('billing', 'local_invoices')).countDocuments({ customerId, status: 'open' });

/** A trial whose charge at its end fails: the subscription waits in "Payment Failed". */
async function failedAfterTrial(name: string) {
  const person = await subscribedWithCard(haven.gatewayUrl, failsAtRenewal, name);
  await advanceBillingClock(haven, 3 * day + 60);
  expect(await subscriptionStatus(person.client)).toMatchObject({ status: 'payment_failed', needsSetup: true });
  return person;
}

it('retries a failed payment on the schedule, then ends the subscription when the last retry fails', async () => {
  const { client, userId } = await failedAfterTrial('retries');
  const failed = await storedSubscription(haven, userId);
  expect(failed).toMatchObject({ paymentRetries: 0 });
  await billingEmailTo(failed!.email as string, "We couldn't take your Haven payment");

  // The first and second retries fail: still "Payment Failed", the same open charge, nothing new to tell anyone.
  await advanceBillingClock(haven, 3 * day);
  expect(await storedSubscription(haven, userId)).toMatchObject({ status: 'payment_failed', paymentRetries: 1 });
  await advanceBillingClock(haven, 4 * day);
  expect(await storedSubscription(haven, userId)).toMatchObject({ status: 'payment_failed', paymentRetries: 2 });
  expect(await subscriptionStatus(client)).toMatchObject({ status: 'payment_failed' });
  expect(await openInvoices(failed!.customerId as string)).toBe(1);
  expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started', 'billing.payment_failed']);

  // The last retry fails: the subscription ends, at the provider too.
  await advanceBillingClock(haven, 7 * day);
  expect(await storedSubscription(haven, userId)).toMatchObject({ status: 'canceled', paymentRetryAt: null });
  expect(await subscriptionStatus(client)).toMatchObject({ status: 'canceled', planType: 'free', needsSetup: true });
  expect(await eventTypes(haven, userId)).toEqual(['billing.trial_started', 'billing.payment_failed', 'billing.ended']);
  expect(
    await (await haven.collection('billing', 'local_subscriptions')).findOne({ _id: failed!.subscriptionId as never }),
  ).toMatchObject({ status: 'canceled' });
  await eventuallyExpect('the copy closed by the end', async () =>
    expect(await entitlementCopy(haven, userId)).toMatchObject({ granted: false, status: 'canceled' }),
  );
  // The person is told, by Haven, that it has ended.
  await billingEmailTo(failed!.email as string, 'Your Haven Premium subscription has ended');

  // Later passes change nothing more, and the person may subscribe again (a new card, charged at once).
  await advanceBillingClock(haven, 30 * day);
  expect(await eventTypes(haven, userId)).toHaveLength(3);
  await confirmedLocalSetup(client, goodTestCard, 'START');
  const started = await client.post<{ subscriptionStatus: { status: string } }>('/api/create-subscription-after-setup');
  expect(started.status).toBe(200);
  expect(started.body.subscriptionStatus).toMatchObject({ status: 'active' });
});

it('stops retrying once a new card has paid: the month paid for runs on', async () => {
  const { client, userId } = await failedAfterTrial('retries-stopped');
  await confirmedLocalSetup(client, goodTestCard, 'CHANGE_CARD');
  const changed = await client.graphql('mutation { updatePaymentMethodAfterSetup { message } }');
  expect(changed.body.errors).toBeUndefined();
  expect(await storedSubscription(haven, userId)).toMatchObject({
    status: 'active',
    paymentRetryAt: null,
    paymentRetries: 0,
  });

  // Past every retry's day: nothing ends; the month paid for runs on.
  await advanceBillingClock(haven, 15 * day);
  expect(await subscriptionStatus(client)).toMatchObject({ status: 'active', planType: 'premium' });
  expect(await eventTypes(haven, userId)).toEqual([
    'billing.trial_started',
    'billing.payment_failed',
    'billing.activated',
  ]);
});
