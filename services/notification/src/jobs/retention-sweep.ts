/**
 * What the notification service no longer needs leaves its database (periods in domain/retention.ts): the
 * delivery log's old records, addresses unsubscribed a month ago and addresses never confirmed whose link expired
 * a week ago. One replica sweeps at a time (its lease); every delete is safe to repeat.
 */
import { forgetOutboxMarks, runPeriodically, type Logger, type PeriodicWork } from '@haven/platform';
import type { Model, mongo } from 'mongoose';
import { retentionCutoffs, type RetentionCutoffs } from '../domain/retention';
import { countDeliveries, type CampaignRecord } from '../model/campaign';
import type { DeliveryRecord } from '../model/delivery';
import type { SubscriberRecord } from '../model/subscriber';

/** How often the sweep runs, unless `RETENTION_SWEEP_INTERVAL_MS` says otherwise: records outlive their period by at most this. */
export const retentionSweepIntervalMs = 60 * 60 * 1000;

/** Subscribers read and deleted at a time. */
const subscriberBatchSize = 500;

export interface RetainedRecords {
  deliveries: Model<DeliveryRecord>;
  campaigns: Model<CampaignRecord>;
  subscribers: Model<SubscriberRecord>;
}

export interface RetentionSweepOutcome {
  /** Delivery records deleted. */
  deliveries: number;
  /** Sends whose counts were kept in the campaign before their delivery log went. */
  campaignsCounted: number;
  unsubscribed: number;
  pending: number;
}

/**
 * Deletes the delivery records last written before `before`. A send's copies are counted into its campaign
 * first, so the admin page shows the same sent and failed numbers once they are gone.
 */
export async function sweepDeliveryLog(
  records: Pick<RetainedRecords, 'deliveries' | 'campaigns'>,
  before: Date,
): Promise<{ deliveries: number; campaignsCounted: number }> {
  // A copy is logged after its send was created, so the sends created before the cutoff own every copy logged
  // before it.
  const due = await records.campaigns.find({ createdAt: { $lt: before }, deliveryCounts: null }, { _id: 1 }).lean();
  let campaignsCounted = 0;
  for (const campaign of due) {
    const counts = await countDeliveries(records.deliveries, campaign._id);
    const kept = await records.campaigns.updateOne(
      { _id: campaign._id, deliveryCounts: null },
      { $set: { deliveryCounts: counts } },
    );
    campaignsCounted += kept.modifiedCount;
  }
  // Whatever their time says, the copies of a send whose counts are not kept yet stay (a replica's clock a
  // little behind, a count that failed): the next sweep deletes them once it is.
  const uncounted = (await records.campaigns.find({ deliveryCounts: null }, { _id: 1 }).lean()).map(
    (campaign) => campaign._id,
  );
  const deleted = await records.deliveries.deleteMany({
    at: { $lt: before },
    $or: [{ kind: { $ne: 'newsletter' } }, { eventId: { $nin: uncounted } }],
  });
  return { deliveries: deleted.deletedCount, campaignsCounted };
}

/** Deletes the subscribers unsubscribed, or left pending with an expired link, before the cutoffs. */
export async function sweepNewsletterSubscribers(
  subscribers: Model<SubscriberRecord>,
  cutoffs: Pick<RetentionCutoffs, 'unsubscribed' | 'expiredConfirmations'>,
): Promise<{ unsubscribed: number; pending: number }> {
  const unsubscribed = await deleteSubscribersWhere(subscribers, {
    status: 'unsubscribed',
    unsubscribedAt: { $lt: cutoffs.unsubscribed },
  });
  const pending = await deleteSubscribersWhere(subscribers, {
    status: 'pending',
    confirmExpiresAt: { $lt: cutoffs.expiredConfirmations },
  });
  return { unsubscribed, pending };
}

/** One sweep at `now`: every store's records past their period go; says how many of each. */
export async function sweepRetention(records: RetainedRecords, now: Date = new Date()): Promise<RetentionSweepOutcome> {
  const cutoffs = retentionCutoffs(now);
  const deliveryLog = await sweepDeliveryLog(records, cutoffs.deliveries);
  const subscribers = await sweepNewsletterSubscribers(records.subscribers, cutoffs);
  return { ...deliveryLog, ...subscribers };
}

export function startRetentionSweep(
  records: RetainedRecords,
  options: { intervalMs: number; log: Logger },
): PeriodicWork<RetentionSweepOutcome> {
  return runPeriodically(
    async () => {
      const outcome = await sweepRetention(records);
      if (Object.values(outcome).some((count) => count > 0)) {
        options.log.info(outcome, 'retention sweep deleted records past their period');
      }
      return outcome;
    },
    {
      intervalMs: options.intervalMs,
      log: options.log,
      what: 'retention sweep',
      lease: { db: records.deliveries.db, name: 'retention-sweep' },
    },
  );
}

type SubscriberFilter = mongo.Filter<{ _id: string }>;

/**
 * Deletes the subscribers `filter` matches, a batch at a time, with the relay's records of them. The filter is
 * checked again by the delete itself: someone who signed up again since the read stays, with the events their
 * sign-up recorded.
 */
async function deleteSubscribersWhere(subscribers: Model<SubscriberRecord>, filter: SubscriberFilter): Promise<number> {
  const raw = subscribers.collection as unknown as mongo.Collection<{ _id: string }>;
  let deleted = 0;
  for (;;) {
    const ids = (
      await raw
        .find(filter, { projection: { _id: 1 } })
        .limit(subscriberBatchSize)
        .toArray()
    ).map((subscriber) => subscriber._id);
    if (ids.length === 0) return deleted;
    const removed = (await raw.deleteMany({ $and: [{ _id: { $in: ids } }, filter] })).deletedCount;
    deleted += removed;
    const stayed = new Set(
      (await raw.find({ _id: { $in: ids } }, { projection: { _id: 1 } }).toArray()).map((subscriber) => subscriber._id),
    );
    await forgetOutboxMarks(
      subscribers,
      ids.filter((id) => !stayed.has(id)),
    );
    // A full batch of which none went changed meanwhile: the next pass reads afresh.
    if (ids.length < subscriberBatchSize || removed === 0) return deleted;
  }
}
