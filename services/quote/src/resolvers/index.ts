import type { RequestContext } from '@haven/platform';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { Model } from 'mongoose';
import type { UserStats } from '../domain/stats';
import type { CheckInRecord } from '../model/check-in';
import type { QuoteRecord } from '../model/quote';

export function quoteResolvers(
  quotes: Model<QuoteRecord>,
  checkIns: Model<CheckInRecord>,
): GraphQLResolverMap<RequestContext> {
  return {
    User: {
      // Only the signed-in user can read their own statistics through the graph.
      __resolveReference: (reference: { id: string }, context: RequestContext) =>
        context.session?.userId === reference.id ? { id: reference.id } : null,
      stats: async ({ id }: { id: string }): Promise<UserStats> => {
        const [totalQuotes, totalEntries, favoriteQuotes] = await Promise.all([
          quotes.countDocuments({ userId: id }),
          checkIns.countDocuments({ userId: id }),
          quotes.countDocuments({ userId: id, isFavorite: true }),
        ]);
        return { totalQuotes, totalEntries, favoriteQuotes };
      },
    },
  };
}
