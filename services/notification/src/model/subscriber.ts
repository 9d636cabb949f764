import { outboxPlugin, type WithOutbox } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import type { SubscriberStatus } from '../domain/newsletter';

/**
 * One address on the newsletter list (canonical, unique). Pending until its confirmation link is used;
 * the confirmation token is stored only as a hash and works once. The unsubscribe token is derived from the
 * id when a copy is written (domain/newsletter.ts), so none is stored.
 */
export interface SubscriberRecord extends WithOutbox {
  email: string;
  status: SubscriberStatus;
  userId: string | null;
  source: string;
  confirmTokenHash: string | null;
  confirmExpiresAt: Date | null;
  createdAt: Date;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
}

const subscriberSchema = new Schema<SubscriberRecord>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true, unique: true },
    status: { type: String, required: true, enum: ['pending', 'active', 'unsubscribed'], index: true },
    userId: { type: String, default: null, index: true },
    source: { type: String, required: true },
    confirmTokenHash: { type: String, default: null, index: true },
    confirmExpiresAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
    confirmedAt: { type: Date, default: null },
    unsubscribedAt: { type: Date, default: null },
  },
  { collection: 'newsletter_subscribers', versionKey: false },
);
subscriberSchema.plugin(outboxPlugin);

export function subscriberModel(connection: Connection): Model<SubscriberRecord> {
  return connection.model<SubscriberRecord>('NewsletterSubscriber', subscriberSchema);
}

/**
 * Unsubscribe tokens stored by an earlier version: removed with their index, as links no longer need them. That
 * version always kept the unique index, so a collection without it has nothing to forget and later starts read no
 * documents. The index goes first (under it, every unset token would be a duplicate null); a start stopped between
 * the two leaves tokens that nothing accepts any more, since links are checked by their MAC.
 */
export async function forgetStoredUnsubscribeTokens(subscribers: Model<SubscriberRecord>): Promise<void> {
  const legacyIndex = 'unsubscribeToken_1';
  if (!(await subscribers.collection.indexExists(legacyIndex).catch(() => false))) return;
  await subscribers.collection.dropIndex(legacyIndex);
  await subscribers.collection.updateMany(
    { unsubscribeToken: { $exists: true } },
    { $unset: { unsubscribeToken: '' } },
  );
}
