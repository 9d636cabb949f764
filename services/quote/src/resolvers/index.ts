import { mayReadUser, requestLoader, type RequestContext } from '@haven/platform';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { Model } from 'mongoose';
import type { UserStats } from '../domain/stats';
import type { CheckInRecord } from '../model/check-in';
import type { QuoteRecord } from '../model/quote';
import { countStatsByUserIds } from '../model/stats';

export function quoteResolvers(
  quotes: Model<QuoteRecord>,
  checkIns: Model<CheckInRecord>,
): GraphQLResolverMap<RequestContext> {
  return {
    User: {
      // A user's statistics are the owner's or an admin's to read.
      __resolveReference: async (reference: { id: string }, context: RequestContext) =>
        (await mayReadUser(context, reference.id)) ? { id: reference.id } : null,
      stats: async ({ id }: { id: string }, _args: unknown, context: RequestContext): Promise<UserStats> =>
        (await requestLoader(context, 'stats', (ids) => countStatsByUserIds(quotes, checkIns, ids)).load(id))!,
    },
  };
}
