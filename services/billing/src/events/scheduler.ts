import { runPeriodically, type Logger, type PeriodicWork } from '@haven/platform';
import type { Model } from 'mongoose';
import { addMonth, dueStep, trialReminderLeadMs } from '../domain/lifecycle';
import type { PaymentProvider } from '../domain/provider';
import type { Clock } from '../model/clock';
import type { SubscriptionRecord } from '../model/subscription';
import { sweepSubscriptionHistory } from '../model/subscription-history';
import { changeSubscription } from './changes';

/** How long a subscription the sweep could not move on waits before it is tried again (billing's clock). */
export const setAsideMs = 15 * 60_000;

/** Its `runOnce` is one sweep: every due step of every subscription; the number of changes it made. */
export type Scheduler = PeriodicWork<number>;

/**
 * Finds trials and periods that have ended (the local provider's lifecycle) and trials a day from their end
 * (the reminder, for every provider), and moves each on with its event. One replica runs the timed passes
 * (the lease `billing-scheduler`); should two ever overlap (a nudge, a lease taken over mid-pass), each
 * change is a compare-and-set on the subscription's revision, so one replica wins and the event is
 * recorded once; the charge carries an idempotency key made of the same revision. A subscription that cannot
 * be moved on (a broken record, a provider error) is logged and set aside for `setAsideMs`, and the sweep goes
 * on with the others: one bad record never stops every trial and renewal behind it.
 */
export function startScheduler(deps: {
  subscriptions: Model<SubscriptionRecord>;
  provider: PaymentProvider;
  clock: Clock;
  log: Logger;
  publishSoon: () => void;
  intervalMs: number;
  /** How long the export's history of changes is kept (BILLING_HISTORY_RETENTION_DAYS). */
  historyRetentionMs: number;
}): Scheduler {
  const { subscriptions, provider, clock, log } = deps;
  const correlationId = 'billing-scheduler';

  const step = async (subscription: SubscriptionRecord, now: Date): Promise<boolean> => {
    const due = dueStep(subscription, now, provider.runsLifecycleLocally);
    const change = (changes: Partial<SubscriptionRecord>, type: Parameters<typeof changeSubscription>[3]) =>
      changeSubscription(subscriptions, subscription, changes, type, now, correlationId);
    const charge = () =>
      provider.charge({
        customerId: subscription.customerId,
        subscriptionId: subscription.subscriptionId,
        paymentMethodId: subscription.paymentMethodId,
        now,
        idempotencyKey: `charge-${subscription._id}-${subscription.revision}`,
      });
    switch (due) {
      case null:
        return false;
      case 'trial_will_end':
        return change({ trialReminderSent: true }, 'billing.trial_will_end');
      case 'trial_expired':
        return change({ status: 'trial_expired' }, 'billing.trial_expired');
      case 'ended':
        return change({ status: 'canceled' }, 'billing.ended');
      case 'charge_after_trial':
      case 'renew': {
        const from = (due === 'renew' ? subscription.currentPeriodEnd : subscription.trialEnd) ?? now;
        return (await charge())
          ? change(
              { status: 'active', currentPeriodEnd: addMonth(from) },
              due === 'renew' ? 'billing.renewed' : 'billing.activated',
            )
          : change({ status: 'payment_failed' }, 'billing.payment_failed');
      }
    }
  };

  const runOnce = async () => {
    const now = await clock.now();
    const due = await subscriptions
      .find({
        $and: [
          {
            $or: [
              { status: 'trialing', trialEnd: { $lte: new Date(now.getTime() + trialReminderLeadMs) } },
              { status: 'active', currentPeriodEnd: { $lte: now } },
            ],
          },
          { $or: [{ setAsideUntil: null }, { setAsideUntil: { $lte: now } }] },
        ],
      })
      .limit(500)
      .lean<SubscriptionRecord[]>();
    let changes = 0;
    let setAside = 0;
    for (const found of due) {
      try {
        // A subscription may owe several steps (a reminder, then the trial's end): take them in order.
        let current: SubscriptionRecord | null = found;
        for (let steps = 0; current && steps < 4; steps++) {
          if (!(await step(current, now))) break;
          changes++;
          current = await subscriptions.findById(found._id).lean<SubscriptionRecord>();
        }
      } catch (error) {
        setAside++;
        const until = new Date(now.getTime() + setAsideMs);
        log.error({ err: error, subscriptionId: found._id, until }, 'billing scheduler set a subscription aside');
        await subscriptions.updateOne({ _id: found._id }, { $set: { setAsideUntil: until } });
      }
    }
    if (setAside > 0) log.warn({ setAside, changes }, 'billing scheduler sweep set subscriptions aside');
    if (changes > 0) deps.publishSoon();
    const swept = await sweepSubscriptionHistory(subscriptions.db, now, deps.historyRetentionMs);
    if (swept > 0) log.info({ swept }, 'subscription history past its retention deleted');
    return changes;
  };

  return runPeriodically(runOnce, {
    intervalMs: deps.intervalMs,
    log,
    what: 'billing scheduler sweep',
    lease: { db: subscriptions.db, name: 'billing-scheduler' },
  });
}
