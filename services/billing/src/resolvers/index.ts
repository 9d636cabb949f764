import { mayReadUser, requestLoader } from '@haven/platform';
import type { Model } from 'mongoose';
import { subscriptionStatusOf } from '../domain/access';
import { findSubscriptionsByUserIds, type SubscriptionRecord } from '../model/subscription';
import type { Resolvers } from './types.generated';

export function billingResolvers(subscriptions: Model<SubscriptionRecord>): Resolvers {
  return {
    User: {
      // A user's subscription is the owner's or an admin's to read.
      __resolveReference: async (reference, context) =>
        (await mayReadUser(context, reference.id)) ? { id: reference.id } : null,
      subscriptionStatus: async ({ id }, _args, context) => {
        const loader = requestLoader(context, 'subscriptions', (ids) => findSubscriptionsByUserIds(subscriptions, ids));
        return subscriptionStatusOf(await loader.load(id), new Date());
      },
    },
  };
}
