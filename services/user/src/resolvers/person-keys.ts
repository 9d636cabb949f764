/**
 * The person's data key, handed to Haven's other services over the service credential (`@internal`): they seal
 * and open that person's journal content with it (platform person-keys.ts). Issued on the first ask for a
 * living account; an erased account has none, so nothing of theirs can be read or sealed again.
 */
import { badInput, isHavenId, type PersonKeySource } from '@haven/platform';
import type { Resolvers } from './types.generated';

export function personKeyResolvers(deps: { issuePersonKey: PersonKeySource }): Pick<Resolvers, 'Query'> {
  return {
    Query: {
      personDataKey: async (_parent, { userId }) => {
        // Refused before any lookup: a key is never issued under an id no account could have.
        if (!isHavenId(userId)) throw badInput('userId', 'userId must be a user id');
        return (await deps.issuePersonKey(userId))?.toString('base64') ?? null;
      },
    },
  };
}
