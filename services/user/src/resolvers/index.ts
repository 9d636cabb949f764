import { hash, verify } from '@node-rs/argon2';
import {
  appendEvents,
  badInput,
  canonicalEmail,
  conflict,
  dataExportPart,
  isAdminEmail,
  isDuplicateKeyError,
  mayReadUser,
  notSignedInMessage,
  requestLoader,
  requireMayReadUser,
  rejectInput,
  requireSession,
  signSessionToken,
  unauthenticated,
  type ErasureGuard,
  type MailTokenSealer,
  type PersonKeyring,
  type PersonKeySource,
  type ServiceErasure,
  type RequestContext,
} from '@haven/platform';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { hashPasswordResetToken, newPasswordResetToken, passwordMessages } from '../domain/password-reset';
import {
  passwordProblem,
  presentedPasswordTooLong,
  validateLogin,
  validateProfile,
  validateRegistration,
} from '../domain/registration';
import {
  hashVerificationToken,
  newVerificationToken,
  tokenFromLink,
  verificationMessages,
  verificationUsable,
} from '../domain/verification';
import {
  emailChangedEvent,
  emailVerifiedEvent,
  passwordChangedEvent,
  recordEmailChangeRequested,
  recordEmailVerificationRequested,
  recordPasswordResetRequested,
  recordProfileUpdated,
  recordUserRegistered,
} from '../events/publish';
import type { SafetyPlanRecord } from '../model/safety-plan';
import type { SessionRecord } from '../model/session';
import type { SignInFlowRecord } from '../model/sign-in-flow';
import { findUsersByIds, type UserRecord } from '../model/user';
import type { OidcProviders } from '../providers/oidc';
import { adminUserResolvers } from './admin-users';
import { erasureResolvers, sessionsOf } from './erasure';
import { federatedSignInResolvers } from './federated-sign-in';
import { personKeyResolvers } from './person-keys';
import { safetyPlanFor, safetyPlanResolvers } from './safety-plan';
import type { Resolvers, SignInMethod } from './types.generated';

export interface UserServiceDeps {
  users: Model<UserRecord>;
  sessions: Model<SessionRecord>;
  /** Each person's safety plan (resolvers/safety-plan.ts). */
  safetyPlans: Model<SafetyPlanRecord>;
  /** Each person's data key, issued on first need (model/person-key.ts), and the keyring that seals with it. */
  issuePersonKey: PersonKeySource;
  personKeyring: PersonKeyring;
  /** Federated sign-ins waiting for their provider's callback. */
  flows: Model<SignInFlowRecord>;
  /** Google and the hosted platform (OpenID Connect). */
  providers: OidcProviders;
  privateKey: string;
  sessionTtlSeconds: number;
  publishSoon(): void;
  /** Seals a link's token for the mailer: events never carry it in clear. */
  mailTokens: MailTokenSealer;
  /** ADMIN_EMAIL: who is an admin (see access.ts). */
  adminEmail: string | undefined;
  /** Account deletion (resolvers/erasure.ts). */
  erasure: ServiceErasure;
  guard: ErasureGuard;
}

/**
 * The admin is the account whose *verified* address is ADMIN_EMAIL: registering the address is not enough, and a
 * password whoever registered chose, never confirmed by the mailbox's owner, opens nothing of it.
 */
export function isDesignatedAdmin(
  user: Pick<UserRecord, 'email' | 'emailVerifiedAt' | 'passwordUnconfirmed'>,
  adminEmail: string | undefined,
): boolean {
  return user.emailVerifiedAt != null && !user.passwordUnconfirmed && isAdminEmail(user.email, adminEmail);
}

/**
 * A session carries the admin role only when it was opened after the address was verified: a session of whoever
 * registered the address before its owner proved it never becomes an admin's.
 */
export function isAdminSession(
  user: Pick<UserRecord, 'email' | 'emailVerifiedAt' | 'passwordUnconfirmed'>,
  session: Pick<SessionRecord, 'createdAt'> | null,
  adminEmail: string | undefined,
): boolean {
  return (
    isDesignatedAdmin(user, adminEmail) &&
    session !== null &&
    session.createdAt.getTime() >= user.emailVerifiedAt!.getTime()
  );
}

const invalidCredentials = 'Invalid email or password';

/** How the account signs in: its password (when it has one), then each linked provider, oldest first. */
const signInMethodsOf = (user: UserRecord): SignInMethod[] => [
  ...(user.passwordHash ? [{ kind: 'PASSWORD' as const, email: null, linkedAt: null }] : []),
  ...(user.identities ?? []).map((identity) => ({
    kind: identity.provider === 'google' ? ('GOOGLE' as const) : ('PLATFORM' as const),
    email: identity.email,
    linkedAt: identity.linkedAt.toISOString(),
  })),
];

export function userResolvers(deps: UserServiceDeps): Resolvers {
  const { users, sessions } = deps;
  const erasure = erasureResolvers(deps);
  const safetyPlan = safetyPlanResolvers(deps);
  const personKeys = personKeyResolvers(deps);
  // Compared against when the e-mail is unknown, so a miss costs as long as a wrong password.
  const decoyHash = hash('haven-decoy-password');

  /** Users by id for this request: N references, one query. */
  const userById = (context: RequestContext, id: string) =>
    requestLoader(context, 'users', (ids) => findUsersByIds(users, ids)).load(id);

  async function openSession(userId: string, context: RequestContext): Promise<void> {
    const sessionId = randomUUID();
    const now = new Date();
    await sessions.create({
      _id: sessionId,
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.sessionTtlSeconds * 1000),
    });
    context.setSessionToken(signSessionToken({ userId, sessionId }, deps.privateKey, deps.sessionTtlSeconds));
  }

  /**
   * Ends the user's sessions (all, or all but `keep`) and tells the gateway, which then asks again about each of
   * their tokens instead of trusting what it remembers.
   */
  async function endSessions(userId: string, context: RequestContext, keep?: string): Promise<number> {
    const ended = await sessions.deleteMany(keep ? { userId, _id: { $ne: keep } } : { userId });
    context.recheckSessionsOf([userId]);
    return ended.deletedCount;
  }

  /**
   * After a verification link proved the mailbox: every session opened before ends (whoever registered the address
   * may not be its owner). A browser signed in to this account when it opened the link is the registrant's and the
   * owner's at once, so it gets a fresh session and keeps working; another browser is not signed in by the link,
   * which proves the mailbox, not the password.
   */
  async function afterVerification(userId: string, openedByThisAccount: boolean, context: RequestContext) {
    await endSessions(userId, context);
    if (openedByThisAccount) await openSession(userId, context);
  }

  const federated = federatedSignInResolvers({
    users,
    flows: deps.flows,
    providers: deps.providers,
    publishSoon: deps.publishSoon,
    mailTokens: deps.mailTokens,
    openSession,
  });

  /** A verification link sent to a new address: the address changes now, verified, and the old one is told. */
  async function confirmEmailChange(tokenHash: string, now: Date, context: RequestContext) {
    const user = await users
      .findOne({ 'pendingEmail.tokenHash': tokenHash }, { email: 1, firstName: 1, pendingEmail: 1, passwordHash: 1 })
      .lean<Pick<UserRecord, '_id' | 'email' | 'firstName' | 'pendingEmail' | 'passwordHash'>>();
    if (!user?.pendingEmail || !verificationUsable(user.pendingEmail, now)) {
      throw badInput('token', verificationMessages.invalid);
    }
    const newEmail = user.pendingEmail.address;
    const openedByThisAccount = context.session?.userId === user._id;
    let used: boolean;
    try {
      used = await appendEvents(
        users,
        { _id: user._id, 'pendingEmail.tokenHash': tokenHash },
        [emailChangedEvent(user, newEmail, context.correlationId)],
        {
          $set: {
            email: newEmail,
            emailVerifiedAt: now,
            pendingEmail: null,
            emailVerification: null,
            passwordUnconfirmed: !openedByThisAccount && Boolean(user.passwordHash),
            updatedAt: now,
          },
        },
      );
    } catch (error) {
      // Someone registered the new address while the link waited.
      if (isDuplicateKeyError(error)) throw conflict('An account with this email already exists');
      throw error;
    }
    if (!used) throw badInput('token', verificationMessages.invalid);
    deps.publishSoon();
    await afterVerification(user._id, openedByThisAccount, context);
    context.log.info({ userId: user._id }, 'email changed');
    return { verified: true, message: verificationMessages.verified };
  }

  const isAdminFor = async (user: UserRecord, context: RequestContext): Promise<boolean> =>
    context.session?.userId === user._id
      ? (await context.access.role()) === 'admin'
      : isDesignatedAdmin(user, deps.adminEmail);

  return {
    Query: {
      ...personKeys.Query,
      me: async (_parent, _args, context) => {
        if (!context.session) return null;
        return users.findById(context.session.userId).lean<UserRecord>();
      },
      user: async (_parent, { id }, context) => {
        await requireMayReadUser(context, id);
        return userById(context, id);
      },
      ...adminUserResolvers(users).Query,
    },
    Mutation: {
      register: async (_parent, { input }, context) => {
        const validated = validateRegistration(input);
        if (!validated.ok) rejectInput(validated.problems);
        const { email, password, firstName, lastName, timeZone } = validated.value;

        const verification = newVerificationToken(new Date());
        const user = new users({
          _id: randomUUID(),
          email,
          passwordHash: await hash(password),
          firstName,
          lastName,
          timeZone,
          authProvider: 'email',
          emailVerification: { tokenHash: verification.tokenHash, expiresAt: verification.expiresAt },
        });
        recordUserRegistered(user, verification, deps.mailTokens, context.correlationId);
        try {
          await user.save();
        } catch (error) {
          if (isDuplicateKeyError(error)) throw conflict('An account with this email already exists');
          throw error;
        }
        deps.publishSoon();
        context.log.info({ userId: user._id }, 'user registered');
        await openSession(user._id, context);
        return { user };
      },

      login: async (_parent, { input }, context) => {
        const validated = validateLogin(input);
        if (!validated.ok) rejectInput(validated.problems);
        const { email, password } = validated.value;
        const user = await users.findOne({ email }).lean<UserRecord>();
        const passwordMatches = user?.passwordHash
          ? await verify(user.passwordHash, password)
          : (await verify(await decoyHash, password), false);
        if (!user || !passwordMatches) throw unauthenticated(invalidCredentials);
        await openSession(user._id, context);
        return { user };
      },

      verifyEmail: async (_parent, args, context) => {
        const token = tokenFromLink(args.token);
        if (!token) throw badInput('token', verificationMessages.missing);
        const tokenHash = hashVerificationToken(token);
        const now = new Date();
        const user = await users
          .findOne({ 'emailVerification.tokenHash': tokenHash }, { email: 1, emailVerification: 1, passwordHash: 1 })
          .lean<Pick<UserRecord, '_id' | 'email' | 'emailVerification' | 'passwordHash'>>();
        if (!user) return confirmEmailChange(tokenHash, now, context);
        if (!verificationUsable(user.emailVerification, now)) {
          throw badInput('token', verificationMessages.invalid);
        }
        // Opened in a browser signed in to this account: the one who chose the password also holds the mailbox.
        const openedByThisAccount = context.session?.userId === user._id;
        // Single use: only the write that still finds this token's hash verifies the address (a second
        // click racing the first finds nothing and gets the same answer as a reused link).
        const used = await appendEvents(
          users,
          { _id: user._id, 'emailVerification.tokenHash': tokenHash },
          [emailVerifiedEvent(user, context.correlationId)],
          {
            $set: {
              emailVerifiedAt: now,
              emailVerification: null,
              passwordUnconfirmed: !openedByThisAccount && Boolean(user.passwordHash),
              updatedAt: now,
            },
          },
        );
        if (!used) throw badInput('token', verificationMessages.invalid);
        deps.publishSoon();
        await afterVerification(user._id, openedByThisAccount, context);
        context.log.info({ userId: user._id, openedByThisAccount }, 'email verified');
        return { verified: true, message: verificationMessages.verified };
      },

      resendVerification: async (_parent, args, context) => {
        const email = canonicalEmail(args.email);
        if (!email.ok) throw badInput('email', email.message);
        // Only an unverified account with a password sign-in has a link to resend; everyone hears the same.
        const user = await users.findOne({ email: email.address, emailVerifiedAt: null }).select('+outbox');
        if (user) {
          // The new link replaces the old one: one link works at a time.
          const verification = newVerificationToken(new Date());
          user.emailVerification = { tokenHash: verification.tokenHash, expiresAt: verification.expiresAt };
          recordEmailVerificationRequested(user, verification, deps.mailTokens, context.correlationId);
          await user.save();
          deps.publishSoon();
        }
        return { message: verificationMessages.resent };
      },

      updateProfile: async (_parent, { input }, context) => {
        const session = requireSession(context);
        const validated = validateProfile(input);
        if (!validated.ok) rejectInput(validated.problems);
        const user = await users.findById(session.userId).select('+outbox');
        if (!user) throw unauthenticated(notSignedInMessage);
        const { firstName, lastName, timeZone } = validated.value;
        if (firstName !== undefined) user.firstName = firstName;
        if (lastName !== undefined) user.lastName = lastName;
        if (timeZone !== undefined && timeZone !== user.timeZone) {
          user.timeZone = timeZone;
          recordProfileUpdated(user, context.correlationId);
        }
        await user.save();
        deps.publishSoon();
        return user.toObject();
      },

      changePassword: async (_parent, { input }, context) => {
        const session = requireSession(context);
        if (!input.currentPassword) throw badInput('currentPassword', 'Current password is required');
        const currentTooLong = presentedPasswordTooLong('currentPassword', input.currentPassword);
        if (currentTooLong) rejectInput([currentTooLong]);
        const badPassword = passwordProblem('newPassword', input.newPassword);
        if (badPassword) rejectInput([badPassword]);
        const user = await users.findById(session.userId, { passwordHash: 1, email: 1, firstName: 1 }).lean();
        if (!user) throw unauthenticated(notSignedInMessage);
        if (!user.passwordHash) throw badInput('currentPassword', passwordMessages.noPassword);
        if (!(await verify(user.passwordHash, input.currentPassword))) {
          throw badInput('currentPassword', passwordMessages.currentWrong);
        }
        await appendEvents(users, { _id: user._id }, [passwordChangedEvent(user, context.correlationId)], {
          $set: { passwordHash: await hash(input.newPassword), passwordReset: null, updatedAt: new Date() },
        });
        deps.publishSoon();
        // This browser stays signed in; every other one ends (a stolen session goes with the old password).
        await endSessions(user._id, context, session.sessionId);
        return { message: passwordMessages.changed };
      },

      requestPasswordReset: async (_parent, args, context) => {
        const email = canonicalEmail(args.email);
        if (!email.ok) throw badInput('email', email.message);
        const user = await users.findOne({ email: email.address }).select('+outbox');
        if (user) {
          // The new link replaces any earlier one.
          const reset = newPasswordResetToken(new Date());
          user.passwordReset = { tokenHash: reset.tokenHash, expiresAt: reset.expiresAt };
          recordPasswordResetRequested(user, reset, deps.mailTokens, context.correlationId);
          await user.save();
          deps.publishSoon();
        }
        return { message: passwordMessages.resetRequested };
      },

      resetPassword: async (_parent, { input }, context) => {
        const token = tokenFromLink(input.token);
        if (!token) throw badInput('token', passwordMessages.resetInvalid);
        const badPassword = passwordProblem('newPassword', input.newPassword);
        if (badPassword) rejectInput([badPassword]);
        const tokenHash = hashPasswordResetToken(token);
        const user = await users
          .findOne({ 'passwordReset.tokenHash': tokenHash }, { email: 1, firstName: 1, passwordReset: 1 })
          .lean<Pick<UserRecord, '_id' | 'email' | 'firstName' | 'passwordReset'>>();
        if (!user || !verificationUsable(user.passwordReset, new Date())) {
          throw badInput('token', passwordMessages.resetInvalid);
        }
        // Single use: only the write that still finds this token's hash sets the password. Whoever uses the
        // link has proved the mailbox; a provider sign-in linked without the provider vouching for the address
        // had not, so it goes (an address squatted at such a provider is taken back here).
        const used = await appendEvents(
          users,
          { _id: user._id, 'passwordReset.tokenHash': tokenHash },
          [passwordChangedEvent(user, context.correlationId)],
          {
            // The new password is the mailbox owner's, whoever chose the old one.
            $set: {
              passwordHash: await hash(input.newPassword!),
              passwordReset: null,
              passwordUnconfirmed: false,
              updatedAt: new Date(),
            },
            $pull: { identities: { emailVerified: false } },
          },
        );
        if (!used) throw badInput('token', passwordMessages.resetInvalid);
        deps.publishSoon();
        // Whoever knew the old password is signed out everywhere.
        await endSessions(user._id, context);
        context.log.info({ userId: user._id }, 'password reset');
        return { message: passwordMessages.resetDone };
      },

      requestEmailChange: async (_parent, { input }, context) => {
        const session = requireSession(context);
        const newEmail = canonicalEmail(input.newEmail);
        if (!newEmail.ok) throw badInput('newEmail', newEmail.message);
        const currentTooLong = presentedPasswordTooLong('currentPassword', input.currentPassword);
        if (currentTooLong) rejectInput([currentTooLong]);
        const user = await users.findById(session.userId).select('+outbox');
        if (!user) throw unauthenticated(notSignedInMessage);
        // The password proves it is the owner at the keyboard, not someone at an unlocked screen.
        if (user.passwordHash && !(input.currentPassword && (await verify(user.passwordHash, input.currentPassword)))) {
          throw badInput('currentPassword', passwordMessages.currentWrong);
        }
        if (newEmail.address === user.email) throw badInput('newEmail', 'This is already your email address');
        if (await users.exists({ email: newEmail.address })) {
          throw conflict('An account with this email already exists');
        }
        const verification = newVerificationToken(new Date());
        user.pendingEmail = {
          address: newEmail.address,
          tokenHash: verification.tokenHash,
          expiresAt: verification.expiresAt,
        };
        recordEmailChangeRequested(user, newEmail.address, verification, deps.mailTokens, context.correlationId);
        await user.save();
        deps.publishSoon();
        return { message: `We sent a link to ${newEmail.address}. Your email changes once you open it.` };
      },

      logout: async (_parent, _args, context) => {
        if (context.session) await sessions.deleteOne({ _id: context.session.sessionId });
        context.setSessionToken(null);
        return true;
      },

      ...federated,

      signOutEverywhere: async (_parent, _args, context) => {
        const session = requireSession(context);
        const ended = await endSessions(session.userId, context);
        context.log.info({ userId: session.userId, sessions: ended }, 'signed out everywhere');
        context.setSessionToken(null);
        return true;
      },
      ...erasure.Mutation,
      ...safetyPlan.Mutation,
    },
    User: {
      ...erasure.User,
      ...safetyPlan.User,
      // Another subgraph asks for a user's fields: the owner's or an admin's to see.
      __resolveReference: async (reference, context) =>
        (await mayReadUser(context, reference.id)) ? userById(context, reference.id) : null,
      // The stored record is the parent (codegen maps User to UserRecord); these fields are derived from it.
      id: (user) => user._id,
      emailVerified: (user) => user.emailVerifiedAt !== null,
      createdAt: (user) => user.createdAt.toISOString(),
      // The caller's own account answers for this session (one opened before verification is no admin's).
      role: async (user, _args, context) => ((await isAdminFor(user, context)) ? 'ADMIN' : 'MEMBER'),
      isAdmin: (user, _args, context) => isAdminFor(user, context),
      signInMethods: (user) => signInMethodsOf(user),
      // The user service's part of the data export: what the account says of the person, never a secret.
      accountExport: async (user, _args, context) => {
        const [isAdmin, sessions, safetyPlan] = await Promise.all([
          isAdminFor(user, context),
          sessionsOf(deps.sessions, user._id, context),
          safetyPlanFor(deps, user._id, context),
        ]);
        return dataExportPart({
          account: {
            id: user._id,
            email: user.email,
            firstName: user.firstName ?? null,
            lastName: user.lastName ?? null,
            profileImageUrl: user.profileImageUrl ?? null,
            emailVerified: user.emailVerifiedAt !== null,
            isAdmin,
            createdAt: user.createdAt.toISOString(),
            timeZone: user.timeZone,
            role: isAdmin ? 'ADMIN' : 'MEMBER',
            authProvider: user.authProvider,
            signInMethods: signInMethodsOf(user),
            // The linked providers as kept: each one's own id for the person and the address it vouched for.
            identities: (user.identities ?? []).map((identity) => ({
              provider: identity.provider,
              subject: identity.subject,
              email: identity.email,
              emailVerified: identity.emailVerified,
              linkedAt: identity.linkedAt.toISOString(),
            })),
            // A new address waiting for its link: the person's data too until it is used or lapses.
            pendingEmail: user.pendingEmail
              ? { address: user.pendingEmail.address, expiresAt: user.pendingEmail.expiresAt.toISOString() }
              : null,
            sessions,
          },
          safetyPlan,
        });
      },
    },
  };
}
