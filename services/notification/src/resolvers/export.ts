/**
 * The notification service's part of the data export (`User.notificationExport`): everything it keeps about the
 * user, as the file's emailPreferences, newsletter and emails.
 */
import { dataExportPart, type PersonKeyring } from '@haven/platform';
import { dateOfDay } from '@haven/domain';
import type { Model } from 'mongoose';
import { choicesOf } from '../domain/preferences';
import type { DeliveryRecord } from '../model/delivery';
import type { KnownUserRecord } from '../model/known-user';
import type { PreferencesRecord } from '../model/preferences';
import type { SubscriberRecord } from '../model/subscriber';
import { openDays, type WeeklyCheckInsRecord } from '../model/weekly-check-ins';
import type { Resolvers } from './types.generated';

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

export function exportResolvers(deps: {
  knownUsers: Model<KnownUserRecord>;
  preferences: Model<PreferencesRecord>;
  subscribers: Model<SubscriberRecord>;
  deliveries: Model<DeliveryRecord>;
  tallies: Model<WeeklyCheckInsRecord>;
  keyring: PersonKeyring;
}): Pick<Resolvers, 'User'> {
  return {
    User: {
      // Guarded like every User field (__resolveReference: the owner or an admin).
      notificationExport: async ({ id }) => {
        const [known, saved, tally] = await Promise.all([
          deps.knownUsers.findById(id).lean(),
          deps.preferences.findById(id).lean(),
          deps.tallies.findById(id).lean(),
        ]);
        const addresses = known ? [known.email] : [];
        const tallyDays = tally ? ((await openDays(deps.keyring, id, tally.days)) ?? []) : [];
        const subscriptions = await deps.subscribers
          .find({ $or: [{ userId: id }, { email: { $in: addresses } }] }, { outbox: 0 })
          .sort({ createdAt: 1 })
          .lean<SubscriberRecord[]>();
        const deliveries = await deps.deliveries
          .find({
            $or: [
              { userId: { $in: [id, ...subscriptions.map((subscription) => subscription._id)] } },
              { to: { $in: addresses } },
            ],
          })
          .sort({ at: 1 })
          .lean<DeliveryRecord[]>();
        return dataExportPart({
          emailPreferences: {
            ...choicesOf(saved),
            address: known?.email ?? null,
            timeZone: known?.timeZone ?? null,
            consentGivenAt: iso(saved?.consentGivenAt),
          },
          newsletter: {
            subscriptions: subscriptions.map((subscription) => ({
              email: subscription.email,
              status: subscription.status,
              source: subscription.source,
              subscribedAt: subscription.createdAt.toISOString(),
              confirmedAt: iso(subscription.confirmedAt),
              unsubscribedAt: iso(subscription.unsubscribedAt),
            })),
          },
          emails: {
            deliveries: deliveries.map((delivery) => ({
              kind: delivery.kind,
              to: delivery.to,
              status: delivery.status,
              at: delivery.at.toISOString(),
            })),
            // What the weekly summary counts (the last 16 days), from the check-ins' numbers only.
            weeklySummaryTally: tallyDays.map((entry) => ({
              date: dateOfDay(entry.day),
              checkIns: entry.checkIns,
              moodSum: entry.moodSum,
            })),
          },
        });
      },
    },
  };
}
