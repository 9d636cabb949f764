import {
  accessFacts,
  adminConfigShape,
  baseConfigShape,
  defineService,
  entitlementProjection,
  runMain,
} from '@haven/platform';
import { z } from 'zod';
import { sessionModel } from './model/session';
import { userModel } from './model/user';
import { isDesignatedAdmin, userResolvers } from './resolvers';
import { keepSubscriptionOnUser } from './resolvers/admin-users';

/** The user service: accounts, sign-in, sessions. Publishes user.* events. */
export const startUserService = defineService({
  name: 'user',
  configShape: {
    ...baseConfigShape('user'),
    ...adminConfigShape,
    JWT_PRIVATE_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }),
    SESSION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(7 * 24 * 60 * 60),
  },
  dir: __dirname,
  build: ({ connection, config, publishSoon }) => {
    const users = userModel(connection);
    const sessions = sessionModel(connection);
    return {
      resolvers: userResolvers({
        users,
        sessions,
        privateKey: config.JWT_PRIVATE_KEY,
        sessionTtlSeconds: config.SESSION_TTL_SECONDS,
        publishSoon,
        adminEmail: config.ADMIN_EMAIL,
      }),
      outboxModels: [users],
      // Billing's status and trial end, kept on each user for the admin's list (resolvers/admin-users.ts).
      consumers: [entitlementProjection(connection, 'user', { onEvent: keepSubscriptionOnUser(users) }).consumer],
      // The user service decides roles itself, from the caller's stored address.
      accessSources: () => ({
        role: async (session) => {
          const caller = await users.findById(session.userId, { email: 1, emailVerifiedAt: 1 }).lean();
          return caller && isDesignatedAdmin(caller, config.ADMIN_EMAIL) ? 'admin' : 'member';
        },
      }),
      // A revoked (logged-out) or expired session signs nobody in, even with a valid signature.
      buildContext: async (base) => {
        if (!base.session) return base;
        // Looked up by its primary key alone, the expiry checked here: the cheapest read on every request.
        const session = await sessions.findById(base.session.sessionId, { expiresAt: 1 }).lean();
        return session && session.expiresAt > new Date()
          ? base
          : { ...base, session: null, access: accessFacts(null, {}) };
      },
    };
  },
});

if (require.main === module) runMain(startUserService);
