/**
 * What the notification service erases when an account is deleted (see
 * docs/decisions/privacy-and-erasure/erasure-saga.md): the e-mail preferences, what it knows of the account (its
 * address), every newsletter subscription of the account or of its address (pending, active or unsubscribed), and the
 * delivery log of everything sent to the account, to its subscriptions or to its address, and the weekly summary's
 * tally. The subscription ids are recorded as erased too: a newsletter copy or a confirmation link is keyed by one.
 * Campaigns an erased admin sent stay (they were sent to everyone) without the sender's id.
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
    leftOut: {
      _id: 'the account’s id, said once as account.id',
      updatedAt: 'when a switch last changed (bookkeeping); the consent’s time is exported',
    },
  },
  known_users: {
    exported: 'emailPreferences',
    leftOut: {
      _id: 'the account’s id, said once as account.id',
      emailVerified: 'a copy of whether the address is proved, exported as account.emailVerified',
      updatedAt: 'when the copy of the account last changed (bookkeeping)',
    },
  },
  weekly_check_ins: {
    exported: 'emails.weeklySummaryTally',
    leftOut: {
      _id: 'the account’s id, said once as account.id',
      recentQuoteIds:
        'the latest quotes counted, so a repeated event counts once (bookkeeping); the quotes are exported',
      streak:
        'the running streak the weekly summary tells, worked out from the check-ins; progress exports the streaks',
      revision: 'how many times the tally changed: two writers never both win (bookkeeping)',
      updatedAt: 'when the tally last changed (bookkeeping)',
    },
  },
  newsletter_subscribers: {
    exported: 'newsletter.subscriptions',
    leftOut: {
      _id: 'the subscription’s id, a key (its unsubscribe links are derived from it)',
      userId: 'the account’s id (said once as account.id) when the subscription was made signed in',
      confirmTokenHash: 'a secret: the hash of the confirmation link’s token',
      confirmExpiresAt: 'when the confirmation link’s secret lapses; the link itself is a secret',
    },
  },
  deliveries: {
    exported: 'emails.deliveries',
    leftOut: {
      _id: 'the delivery’s key: the event, the kind of e-mail and the address',
      eventId: 'the id of the event that asked for the e-mail (bookkeeping)',
      userId: 'the account’s or the newsletter subscription’s id, a key',
      messageId: 'the Message-ID the e-mail carried, derived from the delivery’s key',
      attempts: 'how many times sending was tried (bookkeeping); the outcome is exported as status',
      error: 'the mail server’s answer when sending failed (operations); the outcome is exported as status',
    },
  },
  newsletter_campaigns: {
    noUserData: 'what the admin sent to every subscriber: subject, HTML, counts; the sender’s id goes when erased',
  },
};
