import { outboxPlugin, type WithOutbox } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import type { DeliveryRecord } from './delivery';

/** A send's copies as the admin page counts them: handed to the mail server, and refused or lost. */
export interface DeliveryCounts {
  sent: number;
  failed: number;
}

/**
 * One newsletter send. Its first event starts the fan-out; `cursor` is the last subscriber id whose
 * page was expanded, so a batch event seen twice (a redelivery, a crash before the commit) expands nothing twice.
 */
export interface CampaignRecord extends WithOutbox {
  subject: string;
  /** Sanitised HTML: what was stored is what is sent. */
  html: string;
  /** Active subscribers when the send was issued (the `sentCount` answer). */
  recipients: number;
  createdBy: string;
  createdAt: Date;
  cursor: string;
  expandedAt: Date | null;
  /** When every recipient had their copy's outcome (set by the fan-out's sweep). */
  completedAt: Date | null;
  /**
   * The copies' counts, kept here by the retention sweep before the send's delivery log goes; null while the
   * log is there to count.
   */
  deliveryCounts: DeliveryCounts | null;
}

const campaignSchema = new Schema<CampaignRecord>(
  {
    _id: { type: String, required: true },
    subject: { type: String, required: true },
    html: { type: String, required: true },
    recipients: { type: Number, required: true },
    createdBy: { type: String, required: true },
    createdAt: { type: Date, required: true },
    cursor: { type: String, default: '' },
    expandedAt: { type: Date, default: null },
    completedAt: { type: Date, default: null },
    deliveryCounts: { type: new Schema({ sent: Number, failed: Number }, { _id: false }), default: null },
  },
  { collection: 'newsletter_campaigns', versionKey: false },
);
campaignSchema.plugin(outboxPlugin);

export function campaignModel(connection: Connection): Model<CampaignRecord> {
  return connection.model<CampaignRecord>('NewsletterCampaign', campaignSchema);
}

/** The send's counts from its delivery log, as they stand. */
export async function countDeliveries(deliveries: Model<DeliveryRecord>, campaignId: string): Promise<DeliveryCounts> {
  const [sent, failed] = await Promise.all([
    deliveries.countDocuments({ eventId: campaignId, kind: 'newsletter', status: 'sent' }),
    deliveries.countDocuments({ eventId: campaignId, kind: 'newsletter', status: { $in: ['failed', 'unknown'] } }),
  ]);
  return { sent, failed };
}

/**
 * What the admin page shows of a send: the counts kept in the campaign once its delivery log is gone, else the
 * log's. The sweep keeps them before it deletes, so counts read from a log it emptied meanwhile give way to them.
 */
export async function deliveryCountsOf(
  models: { campaigns: Model<CampaignRecord>; deliveries: Model<DeliveryRecord> },
  campaign: Pick<CampaignRecord, '_id' | 'deliveryCounts'>,
): Promise<DeliveryCounts> {
  if (campaign.deliveryCounts) return campaign.deliveryCounts;
  const counted = await countDeliveries(models.deliveries, campaign._id);
  const kept = await models.campaigns.findById(campaign._id, { deliveryCounts: 1 }).lean();
  return kept?.deliveryCounts ?? counted;
}
