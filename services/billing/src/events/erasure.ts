/**
 * What billing does when an account is deleted (docs/decisions/privacy-and-erasure/erasure-saga.md):
 * - before the deletion answers (`closePayments`, called by compliance): the provider's subscription is
 *   cancelled now and its customer deleted (with the payment methods it holds), so nobody is charged again;
 * - when `account.deletion_requested` arrives (`erase`): the same if it has not happened yet, then the
 *   subscription (with the events it still holds, addresses included) and the customer go, and a retained
 *   record of the subscription's dates stays under a keyed hash of the user id.
 * The cancellation is an entitlement change like any other, so it publishes `billing.ended` (the services' copies
 * close at once); no e-mail follows that event, so nothing is sent to an account that is being deleted.
 */
import { eraseOutboxed, type DataMap, type ErasureGuard, type ServiceErasure } from '@haven/platform';
import type { Model } from 'mongoose';
import { openAtProvider } from '../domain/lifecycle';
import type { PaymentProvider } from '../domain/provider';
import type { Clock } from '../model/clock';
import type { RetainedBillingRecord } from '../model/retained-record';
import type { CustomerRecord, SubscriptionRecord } from '../model/subscription';
import { subscriptionHistory } from '../model/subscription-history';
import { changeSubscription } from '../flows/subscription-changes';
import type { TrialClaims } from '../model/trial-claim';

export interface PaymentClosure {
  /** A subscription the provider still ran was cancelled now. */
  cancelled: boolean;
  /** The provider of that subscription (or of the customer), when there was one. */
  provider: string | null;
}

export interface BillingErasure extends ServiceErasure {
  closePayments(userId: string): Promise<PaymentClosure>;
}

export function billingErasure(deps: {
  subscriptions: Model<SubscriptionRecord>;
  customers: Model<CustomerRecord>;
  retained: Model<RetainedBillingRecord>;
  provider: PaymentProvider;
  guard: ErasureGuard;
  trials: TrialClaims;
  clock: Clock;
  /** Its event goes out before the deletion's own, which erases the events billing has not yet published. */
  publishSoon: () => void;
}): BillingErasure {
  const { subscriptions, customers, provider } = deps;

  const closePayments = async (userId: string): Promise<PaymentClosure> => {
    const [subscription, customer] = await Promise.all([
      subscriptions.findById(userId).lean<SubscriptionRecord>(),
      customers.findById(userId).lean<CustomerRecord>(),
    ]);
    const cancelled = openAtProvider(subscription);
    if (subscription && cancelled) {
      await provider.cancelNow({ subscriptionId: subscription.subscriptionId });
      await endNow(subscription);
    }
    const customerIds = new Set([customer?.customerId, subscription?.customerId].filter(Boolean) as string[]);
    for (const customerId of customerIds) await provider.deleteCustomer({ customerId });
    return { cancelled, provider: subscription?.provider ?? customer?.provider ?? null };
  };

  /** Ends the subscription with its event; a change that lands in between is read again, and ended after it. */
  const endNow = async (read: SubscriptionRecord): Promise<void> => {
    for (let current: SubscriptionRecord | null = read; current && openAtProvider(current);) {
      // Its event carries no address or name: no e-mail goes to an account being deleted.
      const ended = { status: 'canceled', cancelAtPeriodEnd: false, email: '', firstName: '' } as const;
      if (await changeSubscription(subscriptions, current, ended, 'billing.ended', await deps.clock.now(), 'erasure')) {
        deps.publishSoon();
        return;
      }
      current = await subscriptions.findById(read._id).lean<SubscriptionRecord>();
    }
  };

  return {
    closePayments,
    erase: async (userId) => {
      await closePayments(userId);
      const subscription = await subscriptions.collection.findOne({ _id: userId as never });
      let records = 0;
      if (subscription) {
        const kept = subscription as unknown as SubscriptionRecord;
        // The trial stays had: an account made again with this address starts without one (kept as a keyed hash).
        await deps.trials.record(kept.email);
        await deps.retained.updateOne(
          { _id: deps.guard.keyOf(userId) },
          {
            $setOnInsert: {
              provider: kept.provider,
              providerSubscriptionId: kept.provider === 'stripe' ? kept.subscriptionId : null,
              statusAtDeletion: kept.status,
              startedAt: kept.createdAt,
              trialEnd: kept.trialEnd,
              currentPeriodEnd: kept.currentPeriodEnd,
              closedAt: new Date(),
            },
          },
          { upsert: true },
        );
        records += await eraseOutboxed(subscriptions, { _id: userId });
      }
      records += (await customers.deleteOne({ _id: userId })).deletedCount;
      records += (await subscriptionHistory(subscriptions.db).deleteMany({ userId })).deletedCount;
      return { records };
    },
  };
}

/** Billing's collections and where each stands in the data export. */
export const billingDataMap: DataMap = {
  subscriptions: {
    exported: 'billing.subscription',
    leftOut: {
      _id: 'the account’s id, said once as account.id',
      firstName: 'a copy of the account’s first name for billing’s e-mails, exported as account.firstName',
      trialReminderSent: 'whether the trial’s reminder e-mail went (bookkeeping); the e-mail is exported under emails',
      revision:
        'how many changes the subscription has had, which orders its events (bookkeeping); each change is exported in history',
      providerEventAt: 'the time of the newest payment provider notice applied, to order late ones (bookkeeping)',
      setAsideUntil: 'when billing’s scheduler tries again after it could not move the subscription on (operations)',
      updatedAt: 'when the subscription record last changed (bookkeeping)',
    },
  },
  customers: {
    exported: 'billing.customer',
    leftOut: {
      _id: 'the account’s id, said once as account.id',
      firstName: 'a copy of the account’s first name given to the payment provider, exported as account.firstName',
      setupAttempts: 'how many card setups were started: part of the provider’s idempotency key (bookkeeping)',
      setupIntentId: 'the payment provider’s reference of the latest card setup; the card is the provider’s',
      setupPurpose: 'whether the latest card setup starts the subscription or changes its card (bookkeeping)',
      createdAt: 'when billing first knew the customer (bookkeeping; the subscription’s dates are exported)',
      updatedAt: 'when the customer record last changed (bookkeeping)',
    },
  },
  subscription_history: {
    exported: 'billing.subscription.history',
    leftOut: {
      _id: 'the entry’s key: the account’s id and the entry’s number',
      userId: 'the account’s id, said once as account.id',
      revision: 'the change’s number, the order the history is listed in',
      recordedAt: 'when billing wrote the entry; the change’s own time is exported as `at`',
    },
  },
  local_setup_intents: {
    noUserData:
      'the local test-mode provider’s card setups and what it answers about each test card (brand, last four digits, expiry; never the number), named by customer id; deleted with the customer',
  },
  local_subscriptions: {
    noUserData: 'the local test-mode provider’s subscriptions (status), named by customer id until it is deleted',
  },
  local_invoices: {
    noUserData:
      'the local test-mode provider’s invoices (date, amount, status), named by customer id; deleted with the customer',
  },
  retained_billing_records: {
    erasureRecord: 'an erased account’s subscription dates, kept by law, under a keyed hash',
  },
  trial_claims: {
    erasureRecord:
      'a keyed hash of the address of every account that had a subscription, kept after erasure, three years from the claim, so the free trial is had once per address',
  },
  processed_webhooks: { noUserData: 'Stripe event ids already applied' },
  subscription_starts: { noUserData: 'the setup intent ids whose subscription was started (each starts one)' },
  test_clock: { noUserData: 'the tests’ clock offset' },
};
