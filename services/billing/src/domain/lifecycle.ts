/** Pure rules of the subscription lifecycle: the plan, what the scheduler owes a subscription, access after a change. */
import { entitlementOf } from '@haven/platform';
import { subscriptionStatusOf, type StoredSubscription } from './access';

export const plan = {
  trialDays: 3,
  /** 4.99 GBP a month, in pence (what a provider charges). */
  priceMinor: 499,
  currency: 'gbp',
  productName: 'Haven Premium',
} as const;

/** A successful payment of the plan, as the event that records it carries it (the receipt's content). */
export interface ChargeRecord {
  /** In pence, VAT included: the price people are shown is the price they pay. */
  amountMinor: number;
  currency: string;
  planName: string;
  chargedAt: Date;
}

/**
 * The charge a change records, or null. A subscription becomes active (at once, after its trial, or after a
 * failed payment went through) or renews only when a period was paid: each of those is one charge of the plan.
 */
export function chargeRecordedBy(eventType: string, at: Date): ChargeRecord | null {
  if (eventType !== 'billing.activated' && eventType !== 'billing.renewed') return null;
  return { amountMinor: plan.priceMinor, currency: plan.currency, planName: plan.productName, chargedAt: at };
}

const day = 24 * 60 * 60 * 1000;
/** The trial reminder goes about a day before the trial ends (Stripe's own warning comes 3 days ahead: at once). */
export const trialReminderLeadMs = day;

export function trialEndFrom(start: Date): Date {
  return new Date(start.getTime() + plan.trialDays * day);
}

/** One calendar month later (the 31st of January renews on the last day of February). */
export function addMonth(date: Date): Date {
  const next = new Date(date.getTime());
  const dayOfMonth = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(dayOfMonth, lastDay));
  return next;
}

export interface ScheduledSubscription extends StoredSubscription {
  trialReminderSent: boolean;
}

/**
 * What the scheduler must do for a subscription now (the local provider's trial and period ends, and the
 * trial reminder for every provider), or null. One step per call; the scheduler calls again after it.
 */
export type DueStep = 'trial_will_end' | 'trial_expired' | 'charge_after_trial' | 'renew' | 'ended' | null;

export function dueStep(subscription: ScheduledSubscription, now: Date, providerRunsLifecycle: boolean): DueStep {
  const { status, trialEnd, currentPeriodEnd, cancelAtPeriodEnd } = subscription;
  if (status === 'trialing' && trialEnd) {
    if (trialEnd <= now) {
      if (!providerRunsLifecycle) return null;
      return cancelAtPeriodEnd ? 'trial_expired' : 'charge_after_trial';
    }
    if (
      !subscription.trialReminderSent &&
      !cancelAtPeriodEnd &&
      trialEnd.getTime() - trialReminderLeadMs <= now.getTime()
    )
      return 'trial_will_end';
    return null;
  }
  if (status === 'active' && currentPeriodEnd && currentPeriodEnd <= now && providerRunsLifecycle) {
    return cancelAtPeriodEnd ? 'ended' : 'renew';
  }
  return null;
}

export interface AccessAfterChange {
  status: string;
  granted: boolean;
  reason: string;
  /** When access ends by itself: the end of a cancelled trial or period. Null while a renewal is expected. */
  validUntil: Date | null;
}

export function accessAfter(subscription: StoredSubscription, now: Date): AccessAfterChange {
  const view = subscriptionStatusOf(subscription, now);
  const entitlement = entitlementOf(view);
  const end = view.isTrialing ? subscription.trialEnd : subscription.currentPeriodEnd;
  return {
    status: view.status,
    granted: entitlement.granted,
    reason: entitlement.granted ? '' : entitlement.reason,
    validUntil: entitlement.granted && subscription.cancelAtPeriodEnd ? end : null,
  };
}

/** Whether a user may start a (new) subscription: not while one is trialing or active. */
export function mayStartSubscription(subscription: StoredSubscription | null, now: Date): boolean {
  return !subscription || !subscriptionStatusOf(subscription, now).hasActiveSubscription;
}

/**
 * Whether the provider still runs this subscription (it could charge or renew): trialing and active ones,
 * cancelled at the period's end or not, and one whose payment failed (Stripe keeps retrying it). An account
 * deletion cancels these at the provider before it answers.
 */
export function openAtProvider(subscription: Pick<StoredSubscription, 'status'> | null): boolean {
  return (
    subscription !== null &&
    (subscription.status === 'trialing' || subscription.status === 'active' || subscription.status === 'payment_failed')
  );
}
