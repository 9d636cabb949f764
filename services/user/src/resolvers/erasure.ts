/**
 * The account's part of deletion and export: `closeAccountForErasure`, which compliance calls while the
 * user (or an admin) waits, so the account closes at once — every session ends and signing in with the
 * address fails exactly as for an unknown one; and the sessions a data export lists (never their tokens).
 */
import {
  requireMayReadUser,
  requireSession,
  type ErasureGuard,
  type RequestContext,
  type ServiceErasure,
} from '@haven/platform';
import type { Model } from 'mongoose';
import type { SessionRecord } from '../model/session';
import type { UserRecord } from '../model/user';
import type { AccountSession, Resolvers } from './types.generated';

/** The account's live sessions, oldest first, as the export lists them: never a token (none is stored). */
export async function sessionsOf(
  sessions: Model<SessionRecord>,
  userId: string,
  context: RequestContext,
): Promise<AccountSession[]> {
  const session = requireSession(context);
  const live = await sessions
    .find({ userId }, { createdAt: 1, expiresAt: 1 })
    .sort({ createdAt: 1 })
    .lean<SessionRecord[]>();
  return live.map((each) => ({
    id: each._id,
    createdAt: each.createdAt.toISOString(),
    expiresAt: each.expiresAt.toISOString(),
    current: each._id === session.sessionId,
  }));
}

export function erasureResolvers(deps: {
  users: Model<UserRecord>;
  sessions: Model<SessionRecord>;
  guard: ErasureGuard;
  erasure: ServiceErasure;
}): Pick<Resolvers, 'Mutation' | 'User'> {
  return {
    Mutation: {
      closeAccountForErasure: async (_parent, { userId }, context) => {
        await requireMayReadUser(context, userId);
        const existed = (await deps.users.exists({ _id: userId })) !== null;
        // Recorded first: a consumer writing about this user meanwhile notices and erases again.
        await deps.guard.markErased([userId]);
        await deps.erasure.erase(userId, { log: context.log, markErased: deps.guard.markErased });
        context.log.info({ existed }, 'account closed for deletion');
        return { existed };
      },
    },
    User: {
      authProvider: (user) => user.authProvider,
      sessions: async (user, _args, context) => sessionsOf(deps.sessions, user._id, context),
    },
  };
}
