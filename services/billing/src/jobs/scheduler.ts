import { runPeriodically, serviceCounter, type Logger, type PeriodicWork } from '@haven/platform';
import type { Model } from 'mongoose';
import {
  addMonth,
  afterFailedRetry,
  dueStep,
  recordDefect,
  retriesAfterFailure,
  subscriptionStates,
  trialReminderLeadMs,
  type RecordDefect,
} from '../domain/lifecycle';
import type { PaymentProvider } from '../domain/provider';
import type { Clock } from '../model/clock';
import type { SubscriptionRecord } from '../model/subscription';
import { sweepSubscriptionHistory } from '../model/subscription-history';
import { changeSubscription } from '../flows/subscription-changes';

/** How long a subscription the sweep could not move on waits before it is tried again (billing's clock). */
export const setAsideMs = 15 * 60_000;

/** What one sweep did, by subscription (a subscription that took several steps counts once). */
export interface SchedulerPass {
  /** Subscriptions it changed: a reminder, an expiry, an end, a charge, a renewal, a failed payment. */
  movedOn: number;
  /** Subscriptions it could not move on and set aside for `setAsideMs`. */
  setAside: number;
  /** Their ids (the user ids), for an operator to look up. */
  setAsideIds: string[];
}

/** Why a subscription was set aside: its record's defect, or an error while moving it on (a provider's, the database's). */
export type SetAsideReason = RecordDefect | 'error';

/**
 * The sweeps' outcomes on billing's /metrics, so an operator sees set-aside records without reading the logs
 * (the alert HavenBillingSubscriptionsSetAside): subscriptions moved on, and set aside by reason.
 */
export function schedulerCounts(registry: Parameters<typeof serviceCounter>[0]) {
  return {
    movedOn: serviceCounter(
      registry,
      'billing_subscriptions_moved_on_total',
      'Subscriptions the billing scheduler moved on: a reminder, an expiry, an end, a charge, a renewal, a failed payment.',
    ),
    setAside: serviceCounter(
      registry,
      'billing_subscriptions_set_aside_total',
      'Subscriptions the billing scheduler could not move on and set aside, by reason: the record’s defect, or an error.',
      ['reason'],
    ),
  };
}

export type SchedulerCounts = ReturnType<typeof schedulerCounts>;

/** Its `runOnce` is one sweep: every due step of every subscription. */
export type Scheduler = PeriodicWork<SchedulerPass>;

/** How many set-aside ids the pass's log line names (the count is always whole). */
const loggedIdsMax = 50;

/** A record the sweep will not guess at: its defect is what the log line says. */
class DefectiveRecord extends Error {
  constructor(readonly defect: RecordDefect) {
    super(`the subscription record has a defect: ${defect}`);
  }
}

/**
 * Finds trials and periods that have ended (the local provider's lifecycle) and trials a day from their end
 * (the reminder, for every provider), and moves each on with its event. One replica runs the timed passes
 * (the lease `billing-scheduler`); should two ever overlap (a nudge, a lease taken over mid-pass), each
 * change is a compare-and-set on the subscription's revision, so one replica wins and the event is
 * recorded once; the charge carries an idempotency key made of the same revision. A subscription that cannot
 * be moved on (a record with an unknown status or no card to charge, a provider error) is logged by its id and
 * set aside for `setAsideMs`, and the sweep goes on with the others: one bad record never stops every trial and
 * renewal behind it. Each pass answers, and logs, how many it moved on and set aside.
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
  counts: SchedulerCounts;
  /**
   * The local provider's processing card setups that have settled, each starting its subscription (Stripe
   * reports them by webhook instead); answers how many started.
   */
  settleSetups?: (now: Date) => Promise<number>;
}): Scheduler {
  const { subscriptions, provider, clock, log } = deps;
  const correlationId = 'billing-scheduler';

  const step = async (subscription: SubscriptionRecord, now: Date): Promise<boolean> => {
    const due = dueStep(subscription, now, provider.runsLifecycleLocally);
    const defect = recordDefect(subscription, due);
    if (defect) throw new DefectiveRecord(defect);
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
          : change({ status: 'payment_failed', ...retriesAfterFailure(now) }, 'billing.payment_failed');
      }
      case 'retry_payment': {
        const retries = subscription.paymentRetries ?? 0;
        // The failed payment's open charge, as Stripe retries the same invoice; the key names this retry.
        const retry = await provider.retryOpenCharge({
          subscriptionId: subscription.subscriptionId,
          customerId: subscription.customerId,
          paymentMethodId: subscription.paymentMethodId,
          now,
          idempotencyKey: `retry-${subscription._id}-${subscription.revision}-${retries}`,
        });
        if (retry.paid) {
          return change(
            {
              status: 'active',
              currentPeriodEnd: retry.currentPeriodEnd ?? addMonth(now),
              paymentRetryAt: null,
              paymentRetries: 0,
            },
            'billing.activated',
          );
        }
        const next = afterFailedRetry(retries, now);
        // Retries exhausted: the subscription ends, as Stripe cancels it (the same event as its deletion webhook).
        if (next.ends) {
          await provider.cancelNow({ subscriptionId: subscription.subscriptionId });
          return change({ status: 'canceled', paymentRetryAt: null }, 'billing.ended');
        }
        // Another failed attempt changes no one's access: the next retry is noted, with no event.
        const noted = await subscriptions.updateOne(
          { _id: subscription._id, revision: subscription.revision, paymentRetryAt: subscription.paymentRetryAt },
          { $set: { paymentRetries: next.paymentRetries, paymentRetryAt: next.paymentRetryAt } },
        );
        return noted.modifiedCount === 1;
      }
    }
  };

  const runOnce = async (): Promise<SchedulerPass> => {
    const now = await clock.now();
    // Before the sweep, and apart from it: a setup that cannot be settled now is tried again at the next pass.
    try {
      const started = (await deps.settleSetups?.(now)) ?? 0;
      if (started > 0) log.info({ started }, 'billing scheduler started the subscriptions of settled card setups');
    } catch (error) {
      log.error({ err: error }, 'billing scheduler could not settle the card setups');
    }
    const due = await subscriptions
      .find({
        $and: [
          {
            $or: [
              { status: 'trialing', trialEnd: { $lte: new Date(now.getTime() + trialReminderLeadMs) } },
              { status: 'active', currentPeriodEnd: { $lte: now } },
              { status: 'payment_failed', paymentRetryAt: { $lte: now } },
              // A status billing never writes: nothing would ever move it on, so it is counted until mended.
              { status: { $nin: [...subscriptionStates] } },
            ],
          },
          { $or: [{ setAsideUntil: null }, { setAsideUntil: { $lte: now } }] },
        ],
      })
      .limit(500)
      .lean<SubscriptionRecord[]>();
    let movedOn = 0;
    const setAsideIds: string[] = [];
    for (const found of due) {
      let steps = 0;
      try {
        // A subscription may owe several steps (a reminder, then the trial's end): take them in order.
        let current: SubscriptionRecord | null = found;
        while (current && steps < 4) {
          if (!(await step(current, now))) break;
          steps++;
          current = await subscriptions.findById(found._id).lean<SubscriptionRecord>();
        }
      } catch (error) {
        setAsideIds.push(found._id);
        const until = new Date(now.getTime() + setAsideMs);
        // The id and the defect (or the error), never the record: it holds the person's address and name.
        const why = error instanceof DefectiveRecord ? { defect: error.defect } : { err: error };
        const reason: SetAsideReason = error instanceof DefectiveRecord ? error.defect : 'error';
        deps.counts.setAside.inc({ reason });
        log.error({ ...why, subscriptionId: found._id, until }, 'billing scheduler set a subscription aside');
        await subscriptions.updateOne({ _id: found._id }, { $set: { setAsideUntil: until } });
      }
      if (steps > 0) movedOn++;
    }
    const pass: SchedulerPass = { movedOn, setAside: setAsideIds.length, setAsideIds };
    deps.counts.movedOn.inc(movedOn);
    if (pass.setAside > 0) {
      log.warn(
        { movedOn, setAside: pass.setAside, setAsideIds: setAsideIds.slice(0, loggedIdsMax) },
        'billing scheduler sweep moved subscriptions on and set some aside',
      );
    } else if (movedOn > 0) {
      log.info({ movedOn, setAside: 0 }, 'billing scheduler sweep moved subscriptions on');
    }
    if (movedOn > 0) deps.publishSoon();
    const swept = await sweepSubscriptionHistory(subscriptions.db, now, deps.historyRetentionMs);
    if (swept > 0) log.info({ swept }, 'subscription history past its retention deleted');
    return pass;
  };

  return runPeriodically(runOnce, {
    intervalMs: deps.intervalMs,
    log,
    what: 'billing scheduler sweep',
    lease: { db: subscriptions.db, name: 'billing-scheduler' },
  });
}
