import { mayReadUser, requestLoader, type RequestContext } from '@haven/platform';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { Model } from 'mongoose';
import { withDefaults } from '../domain/preferences';
import { findPreferencesByUserIds, type PreferencesRecord } from '../model/preferences';

export function notificationResolvers(preferences: Model<PreferencesRecord>): GraphQLResolverMap<RequestContext> {
  return {
    User: {
      // A user's e-mail preferences are the owner's or an admin's to read.
      __resolveReference: async (reference: { id: string }, context: RequestContext) =>
        (await mayReadUser(context, reference.id)) ? { id: reference.id } : null,
      emailPreferences: async ({ id }: { id: string }, _args: unknown, context: RequestContext) => {
        const loader = requestLoader(context, 'preferences', (ids) => findPreferencesByUserIds(preferences, ids));
        return withDefaults(await loader.load(id));
      },
    },
  };
}
