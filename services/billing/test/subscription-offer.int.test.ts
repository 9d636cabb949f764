/**
 * What subscribing would do, asked before the card (`subscriptionOffer`): a first-timer gets the 3-day trial with
 * nothing charged today and the first payment at the trial's end by billing's clock; an account whose trial is
 * over is charged the first month today and monthly after.
 */
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import type { ApiClient } from '../../../tools/testing/http';
import { signedUpPerson, startTrial } from '../../../tools/testing/subscription';
import { advanceBillingClock } from './support';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
  await Promise.all(Object.values(haven.services).map((service) => service.eventsReady));
});

afterAll(async () => {
  await haven?.stop();
});

interface Offer {
  trial: boolean;
  trialDays: number;
  amountDueToday: number;
  monthlyAmount: number;
  currency: string;
  firstChargeAt: number;
}

async function offerFor(client: ApiClient): Promise<Offer> {
  const answer = await client.graphql<{ me: { trialAvailable: boolean; subscriptionOffer: Offer } }>(
    '{ me { trialAvailable subscriptionOffer { trial trialDays amountDueToday monthlyAmount currency firstChargeAt } } }',
  );
  expect(answer.body.errors).toBeUndefined();
  const { trialAvailable, subscriptionOffer } = answer.body.data!.me;
  // The older field follows the same rule.
  expect(trialAvailable).toBe(subscriptionOffer.trial);
  return subscriptionOffer;
}

const day = 24 * 60 * 60;
/** Billing's time (epoch seconds), read by moving its clock the least it moves: one second. */
const billingNow = () => advanceBillingClock(haven, 1);
/** Requests take a moment: billing's now when asked lies between these bounds (epoch seconds). */
const within = (actual: number, from: number, to: number) => {
  expect(actual).toBeGreaterThanOrEqual(from);
  expect(actual).toBeLessThanOrEqual(to);
};

it('offers a first-timer the 3-day trial: nothing today, the first £4.99 three days on by billing’s clock', async () => {
  // Billing's clock runs ten days ahead of the wall clock here, so the date can only come from it.
  const before = await advanceBillingClock(haven, 10 * day);
  const { client } = await signedUpPerson(haven.gatewayUrl, 'offer-first');
  const offer = await offerFor(client);
  const after = await billingNow();
  expect(offer).toMatchObject({ trial: true, trialDays: 3, amountDueToday: 0, monthlyAmount: 499, currency: 'gbp' });
  within(offer.firstChargeAt, before + 3 * day, after + 3 * day);
});

it('charges an account whose trial is over £4.99 today, then monthly', async () => {
  const { client } = await signedUpPerson(haven.gatewayUrl, 'offer-again');
  await startTrial(client);
  const cancelled = await client.graphql('mutation { cancelSubscription { message } }');
  expect(cancelled.body.errors).toBeUndefined();
  await advanceBillingClock(haven, 4 * day);
  await eventually('the cancelled trial to run out', async () => {
    const status = await client.get<{ status: string }>('/api/subscription-status');
    return status.body.status === 'trial_expired';
  });

  const before = await billingNow();
  const offer = await offerFor(client);
  const after = await billingNow();
  expect(offer).toMatchObject({ trial: false, trialDays: 0, amountDueToday: 499, monthlyAmount: 499, currency: 'gbp' });
  within(offer.firstChargeAt, before, after);
});
