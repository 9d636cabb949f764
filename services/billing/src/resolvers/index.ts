import { mayReadUser, requestLoader, type RequestContext } from '@haven/platform';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { Model } from 'mongoose';
import { subscriptionStatusOf } from '../domain/access';
import { findSubscriptionsByUserIds, type SubscriptionRecord } from '../model/subscription';

export function billingResolvers(subscriptions: Model<SubscriptionRecord>): GraphQLResolverMap<RequestContext> {
  return {
    User: {
      // A user's subscription is the owner's or an admin's to read.
      __resolveReference: async (reference: { id: string }, context: RequestContext) =>
        (await mayReadUser(context, reference.id)) ? { id: reference.id } : null,
      subscriptionStatus: async ({ id }: { id: string }, _args: unknown, context: RequestContext) => {
        const loader = requestLoader(context, 'subscriptions', (ids) => findSubscriptionsByUserIds(subscriptions, ids));
        return subscriptionStatusOf(await loader.load(id), new Date());
      },
    },
  };
}
