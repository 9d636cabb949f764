import { mayReadUser, requestLoader } from '@haven/platform';
import type { Model } from 'mongoose';
import { withDefaults } from '../domain/preferences';
import { findPreferencesByUserIds, type PreferencesRecord } from '../model/preferences';
import type { Resolvers } from './types.generated';

export function notificationResolvers(preferences: Model<PreferencesRecord>): Resolvers {
  return {
    User: {
      // A user's e-mail preferences are the owner's or an admin's to read.
      __resolveReference: async (reference, context) =>
        (await mayReadUser(context, reference.id)) ? { id: reference.id } : null,
      emailPreferences: async ({ id }, _args, context) => {
        const loader = requestLoader(context, 'preferences', (ids) => findPreferencesByUserIds(preferences, ids));
        return withDefaults(await loader.load(id));
      },
    },
  };
}
