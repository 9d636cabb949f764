import { conflict } from '@haven/platform';
import { setTimeout as delay } from 'node:timers/promises';
import type { Model } from 'mongoose';
import { mayStartSubscription, plan, retriesAfterFailure } from '../domain/lifecycle';
import { billingMessages } from '../domain/messages';
import type { PaymentProvider } from '../domain/provider';
import type { Clock } from '../model/clock';
import type { CustomerRecord, SubscriptionRecord } from '../model/subscription';
import type { SubscriptionStartClaims } from '../model/subscription-start';
import type { TrialClaims } from '../model/trial-claim';
import { changeSubscription, createSubscription, type SubscriptionEventType } from './subscription-changes';

export interface SubscriptionStarterDeps {
  subscriptions: Model<SubscriptionRecord>;
  customers: Model<CustomerRecord>;
  provider: PaymentProvider;
  trials: TrialClaims;
  starts: SubscriptionStartClaims;
  clock: Clock;
  publishSoon: () => void;
}

export interface StartAfterSetup {
  userId: string;
  setupIntentId: string;
  paymentMethodId: string;
  correlationId: string;
}

export interface SubscriptionStarter {
  /**
   * Starts the user's subscription from a succeeded setup, once per setup intent: the first caller creates it,
   * a caller that meets a start in progress waits (bounded) for it, and every caller answers the stored one.
   */
  startAfterSetup(input: StartAfterSetup): Promise<SubscriptionRecord>;
  /** The subscription a setup intent already started, or null. */
  startedBy(userId: string, setupIntentId: string): Promise<SubscriptionRecord | null>;
  /** Whether a start of the setup intent was claimed: one may be storing its subscription right now. */
  starting(setupIntentId: string): Promise<boolean>;
}

/** How long a caller waits for the other path's start before asking the person to try again. */
const waitForOtherStartMs = 15_000;
const pollMs = 100;

export function subscriptionStarter(deps: SubscriptionStarterDeps): SubscriptionStarter {
  const { subscriptions, customers, provider, clock } = deps;
  const stored = (userId: string) => subscriptions.findById(userId).lean<SubscriptionRecord>();

  const create = async ({ userId, setupIntentId, paymentMethodId, correlationId }: StartAfterSetup) => {
    const now = await clock.now();
    const existing = await stored(userId);
    // Subscribed meanwhile (another setup), or a failed payment waits for a new card: this setup starts nothing.
    if (!mayStartSubscription(existing, now)) return;
    const customer = await customers.findById(userId).lean();
    if (!customer) throw conflict(billingMessages.setupFirst);
    // A card change's setup never starts a subscription, whichever path asks.
    if (customer.setupIntentId === setupIntentId && customer.setupPurpose === 'change_card') return;
    // One free trial per account and per address, also across a deleted account.
    const trialDays = !existing?.trialUsed && !(await deps.trials.claimed(customer.email)) ? plan.trialDays : 0;
    const created = await provider.createSubscription({
      customerId: customer.customerId,
      paymentMethodId,
      trialDays,
      now,
      // From the setup intent: both paths, and a retry after a crash, name the same subscription.
      idempotencyKey: `subscription-${setupIntentId}`,
    });
    const state = {
      status: created.status,
      trialEnd: created.trialEnd,
      currentPeriodEnd: created.currentPeriodEnd,
      cancelAtPeriodEnd: false,
      trialReminderSent: false,
      provider: provider.name,
      customerId: customer.customerId,
      subscriptionId: created.subscriptionId,
      paymentMethodId,
      email: customer.email,
      firstName: customer.firstName,
      trialUsed: true,
      providerEventAt: null,
      setAsideUntil: null,
      // A first payment that failed is retried on the provider's schedule, as a renewal's is.
      ...(created.status === 'payment_failed' ? retriesAfterFailure(now) : { paymentRetries: 0, paymentRetryAt: null }),
    };
    const type: SubscriptionEventType =
      created.status === 'trialing'
        ? 'billing.trial_started'
        : created.status === 'active'
          ? 'billing.activated'
          : 'billing.payment_failed';
    const applied = existing
      ? await changeSubscription(subscriptions, existing, state, type, now, correlationId)
      : await createSubscription(subscriptions, userId, state, type, now, correlationId);
    if (!applied) throw conflict(billingMessages.changedMeanwhile);
    await deps.trials.record(customer.email);
    deps.publishSoon();
  };

  return {
    startAfterSetup: async (input) => {
      const giveUpAt = Date.now() + waitForOtherStartMs;
      for (;;) {
        const claim = await deps.starts.claim(input.setupIntentId);
        if (claim.mine) {
          try {
            await create(input);
          } catch (error) {
            await deps.starts.release(input.setupIntentId, claim.token);
            throw error;
          }
          await deps.starts.finish(input.setupIntentId, claim.token);
          break;
        }
        if (claim.started) break;
        if (Date.now() > giveUpAt) throw conflict(billingMessages.changedMeanwhile);
        await delay(pollMs);
      }
      const subscription = await stored(input.userId);
      if (!subscription) throw conflict(billingMessages.changedMeanwhile);
      return subscription;
    },
    startedBy: async (userId, setupIntentId) =>
      (await deps.starts.started(setupIntentId)) ? await stored(userId) : null,
    starting: (setupIntentId) => deps.starts.claimed(setupIntentId),
  };
}
