import { mayReadUser, requestLoader } from '@haven/platform';
import type { Model } from 'mongoose';
import type { CheckInRecord } from '../model/check-in';
import type { QuoteRecord } from '../model/quote';
import { countStatsByUserIds } from '../model/stats';
import type { Resolvers } from './types.generated';

export function quoteResolvers(quotes: Model<QuoteRecord>, checkIns: Model<CheckInRecord>): Resolvers {
  return {
    User: {
      // A user's statistics are the owner's or an admin's to read.
      __resolveReference: async (reference, context) =>
        (await mayReadUser(context, reference.id)) ? { id: reference.id } : null,
      stats: async ({ id }, _args, context) =>
        (await requestLoader(context, 'stats', (ids) => countStatsByUserIds(quotes, checkIns, ids)).load(id))!,
    },
  };
}
