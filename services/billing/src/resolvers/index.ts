import type { RequestContext } from '@haven/platform';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { Model } from 'mongoose';
import { subscriptionStatusOf } from '../domain/access';
import type { SubscriptionRecord } from '../model/subscription';

export function billingResolvers(subscriptions: Model<SubscriptionRecord>): GraphQLResolverMap<RequestContext> {
  return {
    User: {
      // Only the signed-in user can read their own subscription through the graph.
      __resolveReference: (reference: { id: string }, context: RequestContext) =>
        context.session?.userId === reference.id ? { id: reference.id } : null,
      subscriptionStatus: async ({ id }: { id: string }) =>
        subscriptionStatusOf(await subscriptions.findById(id).lean(), new Date()),
    },
  };
}
