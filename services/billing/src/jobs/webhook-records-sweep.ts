/**
 * Billing's records of Stripe's webhooks and of subscription starts leave its database once no copy of a webhook
 * can arrive and no start can be claimed again (domain/retention.ts). One replica sweeps at a time (its lease);
 * every delete is safe to repeat. By the wall clock, which wrote the records: billing's test clock moves the
 * subscriptions' time, not Stripe's.
 */
import { runPeriodically, type Logger, type PeriodicWork } from '@haven/platform';
import type { Connection, Model } from 'mongoose';
import { webhookRecordsCutoff } from '../domain/retention';
import type { CustomerRecord } from '../model/subscription';
import { subscriptionStartModel } from '../model/subscription-start';
import { processedWebhooksCollection, type ProcessedWebhook } from '../http/stripe-webhooks';

/** How often the sweep runs, unless `BILLING_WEBHOOK_RECORDS_SWEEP_INTERVAL_MS` says otherwise. */
export const webhookRecordsSweepIntervalMs = 60 * 60 * 1000;

/** Subscription starts read at a time. */
const startBatchSize = 500;

export interface WebhookRecords {
  connection: Connection;
  customers: Model<CustomerRecord>;
}

/** One sweep at `now`: the records past their period go; says how many of each. */
export async function sweepWebhookRecords(
  records: WebhookRecords,
  now: Date = new Date(),
): Promise<{ processedWebhooks: number; subscriptionStarts: number }> {
  const before = webhookRecordsCutoff(now);
  const processed = await records.connection
    .db!.collection<ProcessedWebhook>(processedWebhooksCollection)
    .deleteMany({ at: { $lt: before } });
  const subscriptionStarts = await sweepSubscriptionStarts(records, before);
  return { processedWebhooks: processed.deletedCount, subscriptionStarts };
}

/**
 * Deletes the starts claimed before `before` whose setup intent is no longer a customer's latest. Every path that
 * starts a subscription (the browser's call, Stripe's webhook, the local provider's confirmation) starts it from
 * the customer's latest setup only, and a new setup never makes an old one the latest again: such a start can
 * never be claimed again. The latest setup's start stays while it is the latest, so a setup whose subscription
 * has since ended cannot start a second one.
 */
async function sweepSubscriptionStarts(records: WebhookRecords, before: Date): Promise<number> {
  const starts = subscriptionStartModel(records.connection);
  let deleted = 0;
  for (let after = ''; ;) {
    const old = (
      await starts
        .find({ claimedAt: { $lt: before }, _id: { $gt: after } }, { _id: 1 })
        .sort({ _id: 1 })
        .limit(startBatchSize)
        .lean()
    ).map((start) => start._id);
    if (old.length === 0) return deleted;
    const latest = new Set(
      (await records.customers.find({ setupIntentId: { $in: old } }, { setupIntentId: 1 }).lean()).map(
        (customer) => customer.setupIntentId,
      ),
    );
    const done = old.filter((setupIntentId) => !latest.has(setupIntentId));
    if (done.length > 0) {
      deleted += (await starts.deleteMany({ _id: { $in: done }, claimedAt: { $lt: before } })).deletedCount;
    }
    if (old.length < startBatchSize) return deleted;
    after = old.at(-1)!;
  }
}

export function startWebhookRecordsSweep(
  records: WebhookRecords,
  options: { intervalMs: number; log: Logger },
): PeriodicWork<unknown> {
  return runPeriodically(
    async () => {
      const swept = await sweepWebhookRecords(records);
      if (swept.processedWebhooks + swept.subscriptionStarts > 0) {
        options.log.info(swept, 'webhook and subscription start records past their period deleted');
      }
      return swept;
    },
    {
      intervalMs: options.intervalMs,
      log: options.log,
      what: 'webhook records sweep',
      lease: { db: records.connection, name: 'webhook-records-sweep' },
    },
  );
}
