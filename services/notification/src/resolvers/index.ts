import type { RequestContext } from '@haven/platform';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { Model } from 'mongoose';
import { withDefaults } from '../domain/preferences';
import type { PreferencesRecord } from '../model/preferences';

export function notificationResolvers(preferences: Model<PreferencesRecord>): GraphQLResolverMap<RequestContext> {
  return {
    User: {
      // Only the signed-in user can read their own preferences through the graph.
      __resolveReference: (reference: { id: string }, context: RequestContext) =>
        context.session?.userId === reference.id ? { id: reference.id } : null,
      emailPreferences: async ({ id }: { id: string }) => {
        const saved = await preferences.findById(id).lean();
        return withDefaults(saved);
      },
    },
  };
}
