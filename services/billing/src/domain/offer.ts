/** What subscribing would do for a person now, from the plan: the free trial first, or the first month at once. */
import { plan, trialEndFrom } from './lifecycle';

export interface SubscriptionOffer {
  trial: boolean;
  /** 0 without the trial. */
  trialDays: number;
  /** In minor units, VAT included: nothing with the trial, the first month without it. */
  amountDueToday: number;
  /** In minor units, VAT included. */
  monthlyAmount: number;
  currency: string;
  /** The trial's end when it comes first, else now: the first charge is made on subscribing. */
  firstChargeAt: Date;
}

/** The offer for someone whose trial is (or is not) still there, subscribing at `now` (billing's clock). */
export function subscriptionOfferAt(trialAvailable: boolean, now: Date): SubscriptionOffer {
  return {
    trial: trialAvailable,
    trialDays: trialAvailable ? plan.trialDays : 0,
    amountDueToday: trialAvailable ? 0 : plan.priceMinor,
    monthlyAmount: plan.priceMinor,
    currency: plan.currency,
    firstChargeAt: trialAvailable ? trialEndFrom(now) : now,
  };
}
