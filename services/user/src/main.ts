import {
  accessFacts,
  defineService,
  entitlementProjection,
  mailTokenKey,
  mailTokenSealer,
  masterKeysFrom,
  personKeyring,
  runMain,
} from '@haven/platform';
import { userConfigShape } from './config';
import { startExpirySweep } from './jobs/expiry-sweep';
import { startPersonKeyRotation } from './jobs/person-key-rotation';
import { userErasure } from './events/erasure';
import { issuedPersonKey, personKeyModel } from './model/person-key';
import { safetyPlanModel } from './model/safety-plan';
import { sessionModel } from './model/session';
import { signInFlowModel } from './model/sign-in-flow';
import { userModel } from './model/user';
import { oidcProviders } from './providers/oidc';
import { isAdminSession, userResolvers } from './resolvers';
import { keepSubscriptionOnUser } from './resolvers/admin-users';

/** A callback route of the gateway on the public origin (APP_URL may carry a path prefix). */
const callbackUrl = (appUrl: string, path: string) =>
  new URL(path, appUrl.endsWith('/') ? appUrl : `${appUrl}/`).toString();

/** The user service: accounts, sign-in, sessions. Publishes user.* events. */
export const startUserService = defineService({
  name: 'user',
  configShape: userConfigShape,
  dir: __dirname,
  build: ({ connection, config, log, publishSoon, erasure: erasureRuntime }) => {
    const users = userModel(connection);
    const sessions = sessionModel(connection);
    const safetyPlans = safetyPlanModel(connection);
    const flows = signInFlowModel(connection);
    const personKeys = personKeyModel(connection);
    const masters = masterKeysFrom(config);
    const issuePersonKey = (userId: string) =>
      issuedPersonKey(
        { personKeys, masters, accountExists: async (id) => (await users.exists({ _id: id })) !== null },
        userId,
      );
    const keyring = personKeyring(issuePersonKey);
    const expirySweep = startExpirySweep({ sessions, flows, users }, log);
    const keyRotation = startPersonKeyRotation(personKeys, masters, log);
    // Billing's status and trial end, kept on each user for the admin's list (resolvers/admin-users.ts).
    const entitlements = entitlementProjection(connection, 'user', { onEvent: keepSubscriptionOnUser(users) });
    const reconciliation = entitlements.reconciliation(config, {
      intervalMs: config.ENTITLEMENT_RECONCILE_INTERVAL_MS,
      log,
    });
    const providers = oidcProviders({
      google: {
        name: 'Google',
        issuer: config.GOOGLE_ISSUER_URL,
        clientId: config.GOOGLE_CLIENT_ID,
        clientSecret: config.GOOGLE_CLIENT_SECRET,
        redirectUri: callbackUrl(config.APP_URL, 'api/auth/google/callback'),
      },
      oidc: {
        name: config.OIDC_PROVIDER_NAME,
        issuer: config.OIDC_ISSUER_URL ?? '',
        // Without an issuer there is nothing to sign in with, whatever else is set.
        clientId: config.OIDC_ISSUER_URL ? config.OIDC_CLIENT_ID : undefined,
        clientSecret: config.OIDC_CLIENT_SECRET,
        redirectUri: callbackUrl(config.APP_URL, 'api/callback'),
      },
    });
    const erasure = userErasure({ users, sessions, safetyPlans, personKeys, personKeyring: keyring });
    return {
      erasure,
      // Its events carry people's addresses and names for the mailer: sealed under each person's key.
      personKeyring: keyring,
      resolvers: userResolvers({
        erasure,
        guard: erasureRuntime.guard,
        users,
        sessions,
        safetyPlans,
        issuePersonKey,
        personKeyring: keyring,
        flows,
        providers,
        privateKey: config.JWT_PRIVATE_KEY,
        sessionTtlSeconds: config.SESSION_TTL_SECONDS,
        publishSoon,
        mailTokens: mailTokenSealer(mailTokenKey(config)),
        adminEmail: config.ADMIN_EMAIL,
      }),
      outboxModels: [users],
      consumers: [entitlements.consumer],
      // The user service decides roles itself, from the caller's stored address.
      accessSources: () => ({
        role: async (claims) => {
          const [caller, session] = await Promise.all([
            users.findById(claims.userId, { email: 1, emailVerifiedAt: 1, passwordUnconfirmed: 1 }).lean(),
            sessions.findById(claims.sessionId, { createdAt: 1 }).lean(),
          ]);
          return caller && isAdminSession(caller, session, config.ADMIN_EMAIL) ? 'admin' : 'member';
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
      onStop: () => Promise.all([expirySweep.stop(), keyRotation.stop(), reconciliation.stop()]).then(() => undefined),
    };
  },
});

if (require.main === module) runMain('user', startUserService);
