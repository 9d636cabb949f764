/**
 * What the notification service erases when an account is deleted (docs/decisions.md, "Erasure
 * and export"): the e-mail preferences, what it knows of the account (its address), every newsletter
 * subscription of the account or of its address (pending, active or unsubscribed), and the delivery log of
 * everything sent to the account, to its subscriptions or to its address, and the weekly summary's tally. The subscription ids are recorded
 * as erased too: a newsletter copy or a confirmation link is keyed by one. Campaigns an erased admin sent
 * stay (they were sent to everyone) without the sender's id.
 */
import { eraseOutboxed, type DataMap, type ServiceErasure } from '@haven/platform';
import type { Model } from 'mongoose';
import type { CampaignRecord } from '../model/campaign';
import type { DeliveryRecord } from '../model/delivery';
import type { KnownUserRecord } from '../model/known-user';
import type { PreferencesRecord } from '../model/preferences';
import type { SubscriberRecord } from '../model/subscriber';
import type { WeeklyCheckInsRecord } from '../model/weekly-check-ins';

/** Who sent a campaign, once the sender's account was erased. */
export const erasedSender = 'erased';

export function notificationErasure(deps: {
  knownUsers: Model<KnownUserRecord>;
  preferences: Model<PreferencesRecord>;
  subscribers: Model<SubscriberRecord>;
  deliveries: Model<DeliveryRecord>;
  campaigns: Model<CampaignRecord>;
  tallies: Model<WeeklyCheckInsRecord>;
}): ServiceErasure {
  return {
    // The subject is a user id, or (when a consumer raced the erasure) a subscription id.
    erase: async (subjectId, { markErased }) => {
      const known = await deps.knownUsers.findById(subjectId, { email: 1 }).lean();
      const addresses = known ? [known.email] : [];
      const subscriptions = await deps.subscribers.collection
        .find(
          { $or: [{ _id: subjectId as never }, { userId: subjectId }, { email: { $in: addresses } }] },
          { projection: { _id: 1, email: 1 } },
        )
        .toArray();
      const subscriptionIds = subscriptions.map((subscription) => String(subscription._id));
      addresses.push(...subscriptions.map((subscription) => String(subscription.email)));
      // Before anything goes: a newsletter copy keyed by one of them, handled meanwhile, is erased again.
      await markErased(subscriptionIds);
      const erasedSubscriptions = await eraseOutboxed(deps.subscribers, { _id: { $in: subscriptionIds } });
      const deliveries = await deps.deliveries.deleteMany({
        $or: [{ userId: { $in: [subjectId, ...subscriptionIds] } }, { to: { $in: [...new Set(addresses)] } }],
      });
      const preferences = await deps.preferences.deleteOne({ _id: subjectId });
      const knownUser = await deps.knownUsers.deleteOne({ _id: subjectId });
      const tally = await deps.tallies.deleteOne({ _id: subjectId });
      const campaigns = await deps.campaigns.updateMany(
        { createdBy: subjectId },
        { $set: { createdBy: erasedSender } },
      );
      return {
        records:
          erasedSubscriptions +
          deliveries.deletedCount +
          preferences.deletedCount +
          knownUser.deletedCount +
          tally.deletedCount +
          campaigns.modifiedCount,
      };
    },
  };
}

/** The notification service's collections and where each stands in the data export. */
export const notificationDataMap: DataMap = {
  email_preferences: {
    exported: 'emailPreferences',
    leftOut: { updatedAt: 'when a switch last changed (bookkeeping); the consent’s time is exported' },
  },
  known_users: {
    exported: 'emailPreferences.address',
    leftOut: { updatedAt: 'when the copy of the account last changed (bookkeeping)' },
  },
  weekly_check_ins: {
    exported: 'emails.weeklySummaryTally',
    leftOut: {
      'days.[].day': 'exported as each day’s date',
      'streak.lastDay': 'the running streak’s last day, a day number; its length is exported',
      updatedAt: 'when the tally last changed (bookkeeping)',
    },
  },
  newsletter_subscribers: {
    exported: 'newsletter.subscriptions',
    leftOut: {
      _id: 'the subscription’s id, a key (its unsubscribe links are derived from it)',
      confirmTokenHash: 'a secret: the hash of the confirmation link’s token',
    },
  },
  deliveries: {
    exported: 'emails.deliveries',
    leftOut: {
      _id: 'the delivery’s key: the event, the kind of e-mail and the address',
      eventId: 'the id of the event that asked for the e-mail (bookkeeping)',
      userId: 'the account’s or the newsletter subscription’s id, a key',
      messageId: 'the Message-ID the e-mail carried, derived from the delivery’s key',
    },
  },
  newsletter_campaigns: {
    noUserData: 'what the admin sent to every subscriber: subject, HTML, counts; the sender’s id goes when erased',
  },
};
