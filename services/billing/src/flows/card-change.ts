import { conflict, type Logger } from '@haven/platform';
import type { Model } from 'mongoose';
import { addMonth, openAtProvider } from '../domain/lifecycle';
import { billingMessages } from '../domain/messages';
import type { PaymentProvider } from '../domain/provider';
import type { Clock } from '../model/clock';
import type { CustomerRecord, SubscriptionRecord } from '../model/subscription';
import { changeSubscription, type SubscriptionEventType, type SubscriptionFields } from './subscription-changes';

/** What a card change did: saved, saved and the failed payment paid with it, or saved with the payment still open. */
export type CardChangeOutcome = 'updated' | 'paid' | 'still_unpaid';

export interface CardChangeResult {
  outcome: CardChangeOutcome;
  /** The end of the period a payment with the new card paid for (with `paid`). */
  currentPeriodEnd: Date | null;
}

export interface CardChanger {
  /**
   * Makes the card of the user's newest change-card setup the subscription's, once: the browser's call, the bank
   * check's approval and the provider's later confirmation (a processing card, Stripe's webhook) may each ask, and
   * the card changes once and is recorded once. A subscription whose payment failed is charged again at once with
   * it. Null when there is nothing to change: the setup is not the user's newest change-card setup, or no
   * subscription is running.
   */
  applyAfterSetup(input: {
    userId: string;
    setupIntentId: string;
    paymentMethodId: string;
    correlationId: string;
  }): Promise<CardChangeResult | null>;
}

/** How often a change re-reads the subscription after losing a race to another path (or the scheduler). */
const attemptsMax = 3;

export function cardChanger(deps: {
  subscriptions: Model<SubscriptionRecord>;
  customers: Model<CustomerRecord>;
  provider: PaymentProvider;
  clock: Clock;
  publishSoon: () => void;
  log: Logger;
}): CardChanger {
  const { subscriptions, customers, provider, clock } = deps;
  return {
    applyAfterSetup: async ({ userId, setupIntentId, paymentMethodId, correlationId }) => {
      const customer = await customers.findById(userId).lean();
      // An older setup confirmed late (the person started another since) never replaces the newer card.
      if (customer?.setupIntentId !== setupIntentId || customer.setupPurpose !== 'change_card') return null;
      for (let attempt = 0; attempt < attemptsMax; attempt++) {
        const now = await clock.now();
        const current = await subscriptions.findById(userId).lean<SubscriptionRecord>();
        if (!current || !openAtProvider(current)) return null;
        const newCard = paymentMethodId !== current.paymentMethodId;
        if (newCard) {
          await provider.setDefaultPaymentMethod({
            customerId: current.customerId,
            subscriptionId: current.subscriptionId,
            paymentMethodId,
            idempotencyKey: `payment-method-${setupIntentId}`,
          });
        }
        let changes: Partial<SubscriptionFields> = { paymentMethodId };
        let type: SubscriptionEventType = 'billing.payment_method_updated';
        let result: CardChangeResult = { outcome: 'updated', currentPeriodEnd: null };
        if (current.status === 'payment_failed') {
          // The payment that failed is tried again with the new card now, not at the provider's next retry.
          let retry: { paid: boolean; currentPeriodEnd: Date | null } = { paid: false, currentPeriodEnd: null };
          try {
            retry = await provider.retryOpenCharge({
              subscriptionId: current.subscriptionId,
              customerId: current.customerId,
              paymentMethodId,
              now,
              idempotencyKey: `retry-${userId}-${current.revision}`,
            });
          } catch (error) {
            // The card is saved all the same; the provider's own retries (or the next attempt here) charge it.
            deps.log.warn({ err: error, userId }, 'retrying the open charge with the new card failed');
          }
          if (retry.paid) {
            const currentPeriodEnd = retry.currentPeriodEnd ?? addMonth(now);
            changes = { paymentMethodId, status: 'active', currentPeriodEnd, paymentRetryAt: null, paymentRetries: 0 };
            type = 'billing.activated';
            result = { outcome: 'paid', currentPeriodEnd };
          } else {
            result = { outcome: 'still_unpaid', currentPeriodEnd: null };
          }
        }
        // The same card again with nothing paid (a second path, a retried request): nothing more to record.
        if (!newCard && type === 'billing.payment_method_updated') return result;
        if (await changeSubscription(subscriptions, current, changes, type, now, correlationId)) {
          deps.publishSoon();
          return result;
        }
      }
      throw conflict(billingMessages.changedMeanwhile);
    },
  };
}
