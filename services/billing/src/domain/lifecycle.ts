/** Pure rules of the subscription lifecycle: the plan, what the scheduler owes a subscription, access after a change. */
import { entitlementOf } from '@haven/platform';
import { subscriptionStatusOf, type StoredSubscription, type SubscriptionState } from './access';

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
  /** When the failed payment is tried again (the local provider's retries); null without one due. */
  paymentRetryAt?: Date | null;
  /** How many retries of the failed payment were made (none on older records). */
  paymentRetries?: number;
}

/**
 * The local provider's retries of a failed payment, as Stripe's retry schedule runs them: each delay after the
 * attempt before it (3, 7 and 14 days after the failed payment). When the last retry fails too, the subscription
 * ends, as Stripe cancels it once its retries are exhausted.
 */
export const paymentRetryDelaysMs: readonly number[] = [3 * day, 4 * day, 7 * day];

/** What a failed payment's retry leaves: the next retry, or the end of the subscription. Pure. */
export function afterFailedRetry(
  retriesBefore: number,
  now: Date,
): { ends: true } | { ends: false; paymentRetries: number; paymentRetryAt: Date } {
  const made = retriesBefore + 1;
  if (made >= paymentRetryDelaysMs.length) return { ends: true };
  return { ends: false, paymentRetries: made, paymentRetryAt: new Date(now.getTime() + paymentRetryDelaysMs[made]!) };
}

/** The retry fields of a payment that has just failed (its first retry's time). */
export function retriesAfterFailure(now: Date): { paymentRetries: number; paymentRetryAt: Date } {
  return { paymentRetries: 0, paymentRetryAt: new Date(now.getTime() + paymentRetryDelaysMs[0]!) };
}

/**
 * What the scheduler must do for a subscription now (the local provider's trial and period ends, and the
 * trial reminder for every provider), or null. One step per call; the scheduler calls again after it.
 */
export type DueStep =
  'trial_will_end' | 'trial_expired' | 'charge_after_trial' | 'renew' | 'ended' | 'retry_payment' | null;

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
  const { paymentRetryAt } = subscription;
  if (status === 'payment_failed' && paymentRetryAt && paymentRetryAt <= now && providerRunsLifecycle) {
    return 'retry_payment';
  }
  return null;
}

/** Every status billing writes; anything else in a record was left by a bug or an older version. */
export const subscriptionStates: readonly SubscriptionState[] = [
  'trialing',
  'active',
  'canceled',
  'trial_expired',
  'payment_failed',
];

/** Why the scheduler cannot move a record on: it is set aside (and counted) rather than guessed at. */
export type RecordDefect = 'unknown_status' | 'no_payment_method';

/**
 * What is wrong with a record for the step it owes, or null. A charge needs the customer and the card on file: a
 * record without them was broken by a bug, not declined by a bank, so it waits for an operator rather than
 * telling the person their payment failed.
 */
export function recordDefect(
  record: { status: string; customerId?: string | null; paymentMethodId?: string | null },
  due: DueStep,
): RecordDefect | null {
  if (!(subscriptionStates as readonly string[]).includes(record.status)) return 'unknown_status';
  const charges = due === 'charge_after_trial' || due === 'renew' || due === 'retry_payment';
  if (charges && !(record.customerId && record.paymentMethodId)) return 'no_payment_method';
  return null;
}

export interface AccessAfterChange {
  status: string;
  granted: boolean;
  reason: string;
  /**
   * When the grant ends by itself: a cancelled trial's or period's end; a renewing one's end and `renewalGraceMs`
   * (the renewal's event replaces it). Null while access is denied.
   */
  validUntil: Date | null;
}

/**
 * How long a renewing grant outlives its trial's or period's end while the charge and its event are on their way
 * (billing's next pass; Stripe charges up to an hour into the new period): a copy that has heard nothing by then
 * closes, and a closed copy asks billing before it denies.
 */
export const renewalGraceMs = 24 * 60 * 60 * 1000;

export function accessAfter(subscription: StoredSubscription, now: Date): AccessAfterChange {
  const view = subscriptionStatusOf(subscription, now);
  const entitlement = entitlementOf(view);
  const end = view.isTrialing ? subscription.trialEnd : subscription.currentPeriodEnd;
  return {
    status: view.status,
    granted: entitlement.granted,
    reason: entitlement.granted ? '' : entitlement.reason,
    validUntil:
      !entitlement.granted || !end
        ? null
        : subscription.cancelAtPeriodEnd
          ? end
          : new Date(end.getTime() + renewalGraceMs),
  };
}

/** Why a user may not start a (new) subscription now; null when they may. */
export type StartRefusal = 'already_subscribed' | 'payment_failed';

export function startRefusal(subscription: StoredSubscription | null, now: Date): StartRefusal | null {
  if (!subscription) return null;
  if (subscriptionStatusOf(subscription, now).hasActiveSubscription) return 'already_subscribed';
  // The provider still retries the failed payment: a second subscription would be charged beside it, so the
  // person changes the card of this one instead.
  if (subscription.status === 'payment_failed') return 'payment_failed';
  return null;
}

/** Whether a user may start a (new) subscription: not while one is trialing, active or waiting for a failed payment. */
export function mayStartSubscription(subscription: StoredSubscription | null, now: Date): boolean {
  return startRefusal(subscription, now) === null;
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
