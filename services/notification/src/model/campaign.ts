import { outboxPlugin, type WithOutbox } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';

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
  },
  { collection: 'newsletter_campaigns', versionKey: false },
);
campaignSchema.plugin(outboxPlugin);

export function campaignModel(connection: Connection): Model<CampaignRecord> {
  return connection.model<CampaignRecord>('NewsletterCampaign', campaignSchema);
}
