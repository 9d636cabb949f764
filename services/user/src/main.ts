import { accessFacts, adminConfigShape, baseConfigShape, defineService, runMain } from '@haven/platform';
import { z } from 'zod';
import { userErasure } from './events/erasure';
import { sessionModel } from './model/session';
import { userModel } from './model/user';
import { isDesignatedAdmin, userResolvers } from './resolvers';

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
  build: ({ connection, config, publishSoon, erasure: erasureRuntime }) => {
    const users = userModel(connection);
    const sessions = sessionModel(connection);
    const erasure = userErasure({ users, sessions });
    return {
      erasure,
      resolvers: userResolvers({
        erasure,
        guard: erasureRuntime.guard,
        users,
        sessions,
        privateKey: config.JWT_PRIVATE_KEY,
        sessionTtlSeconds: config.SESSION_TTL_SECONDS,
        publishSoon,
        adminEmail: config.ADMIN_EMAIL,
      }),
      outboxModels: [users],
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
