/**
 * Sign-in with Google and the hosted platform (OpenID Connect). The gateway starts a flow and passes the
 * provider's callback back here; this service stores the flow, checks the answer, and signs in, creates,
 * links, or asks for the existing account's password (docs/decisions/identity-and-sessions/federated-account-rules.md).
 */
import { verify } from '@node-rs/argon2';
import {
  appendEvents,
  badInput,
  isDuplicateKeyError,
  type MailTokenSealer,
  type RequestContext,
} from '@haven/platform';
import { GraphQLError } from 'graphql';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import {
  callbackParams,
  decideFederatedSignIn,
  hashSecret,
  identityKey,
  linkMessages,
  newLinkToken,
  profileFromClaims,
  secretFromRequest,
  signInFailureMessage,
  signInFlowTtlMs,
  type FederatedProvider,
  type ProviderProfile,
  type SignInFailure,
} from '../domain/federated-sign-in';
import { canonicalTimeZone, defaultTimeZone, presentedPasswordTooLong } from '../domain/registration';
import { newVerificationToken } from '../domain/verification';
import { recordUserRegistered, signInMethodLinkedEvent } from '../events/publish';
import type { SignInFlowRecord } from '../model/sign-in-flow';
import type { LinkedIdentity, UserRecord } from '../model/user';
import { ProviderUnreachableError, type OidcProviders } from '../providers/oidc';
import type { MutationResolvers, SignInProvider } from './types.generated';

export interface FederatedSignInDeps {
  users: Model<UserRecord>;
  flows: Model<SignInFlowRecord>;
  providers: OidcProviders;
  publishSoon(): void;
  /** Seals the verification link's token for the mailer. */
  mailTokens: MailTokenSealer;
  openSession(userId: string, context: RequestContext): Promise<void>;
}

const providerOf: Record<SignInProvider, FederatedProvider> = { GOOGLE: 'google', PLATFORM: 'oidc' };

/** The provider's callback query is short (code, state, iss, session_state); anything longer is not one. */
const callbackQueryMaxLength = 8 * 1024;

type FederatedMutations = Pick<
  MutationResolvers,
  'startFederatedSignIn' | 'completeFederatedSignIn' | 'linkSignInMethod'
>;

export function federatedSignInResolvers(deps: FederatedSignInDeps): FederatedMutations {
  const { users, flows, providers } = deps;

  /** Nothing was stored or changed; `reason` tells the gateway which sentence /auth shows. */
  const failed = (provider: FederatedProvider, reason: SignInFailure, field: string): GraphQLError => {
    const message = signInFailureMessage(reason, providers.name(provider));
    const code = reason === 'unreachable' ? 'SERVICE_UNAVAILABLE' : 'BAD_USER_INPUT';
    return new GraphQLError(message, { extensions: { code, field, reason, problems: [{ field, message }] } });
  };

  const configuredProvider = (provider: SignInProvider): FederatedProvider => {
    const id = providerOf[provider];
    if (!providers.configured(id)) throw failed(id, 'unavailable', 'provider');
    return id;
  };

  /** The provider's error, in our terms: unreachable (try later) or refused (the answer failed a check). */
  const providerFailure = (provider: FederatedProvider, error: unknown, context: RequestContext): GraphQLError => {
    const reason = error instanceof ProviderUnreachableError ? 'unreachable' : 'failed';
    context.log.warn({ err: error, provider }, `federated sign-in: ${reason}`);
    return failed(provider, reason, reason === 'unreachable' ? 'provider' : 'code');
  };

  const freshUser = async (id: string) => (await users.findById(id).lean<UserRecord>())!;

  const newIdentity = (provider: FederatedProvider, profile: ProviderProfile, now: Date): LinkedIdentity => ({
    key: identityKey(provider, profile.subject),
    provider,
    subject: profile.subject,
    email: profile.email,
    emailVerified: profile.emailVerified,
    linkedAt: now,
  });

  /** A new account from the provider's answer: verified only when the provider vouched for the address. */
  async function createAccount(
    provider: FederatedProvider,
    profile: ProviderProfile,
    timeZone: string,
    context: RequestContext,
  ) {
    const now = new Date();
    const verification = profile.emailVerified ? null : newVerificationToken(now);
    const user = new users({
      _id: randomUUID(),
      email: profile.email,
      passwordHash: null,
      firstName: profile.firstName,
      lastName: profile.lastName,
      profileImageUrl: profile.profileImageUrl,
      timeZone,
      authProvider: provider,
      emailVerifiedAt: profile.emailVerified ? now : null,
      emailVerification: verification && { tokenHash: verification.tokenHash, expiresAt: verification.expiresAt },
      identities: [newIdentity(provider, profile, now)],
    });
    recordUserRegistered(user, verification, deps.mailTokens, context.correlationId);
    await user.save();
    deps.publishSoon();
    context.log.info({ userId: user._id, provider }, 'user registered through a sign-in provider');
    return user._id;
  }

  /**
   * What the provider's answer does to Haven's accounts (decideFederatedSignIn). A race with another
   * request for the same address or identity (a double-clicked callback, a registration in between) is
   * settled by deciding once more on what is stored then.
   */
  async function settle(
    provider: FederatedProvider,
    profile: ProviderProfile,
    flow: { timeZone: string; bindingHash: string },
    context: RequestContext,
    retried = false,
  ): Promise<{ user: UserRecord | null; linkToken: string | null; created: boolean }> {
    const key = identityKey(provider, profile.subject);
    const linked = await users.findOne({ 'identities.key': key }, { _id: 1 }).lean();
    const account = linked
      ? null
      : await users
          .findOne(
            { email: profile.email },
            { email: 1, firstName: 1, emailVerifiedAt: 1, passwordHash: 1, passwordUnconfirmed: 1 },
          )
          .lean<
            Pick<UserRecord, '_id' | 'email' | 'firstName' | 'emailVerifiedAt' | 'passwordHash' | 'passwordUnconfirmed'>
          >();
    const decision = decideFederatedSignIn({
      linkedAccountId: linked?._id ?? null,
      accountWithEmail: account && {
        id: account._id,
        // A password nobody showed the mailbox's owner chose is someone's way in: joining needs it, or a reset.
        emailVerified: account.emailVerifiedAt !== null && !account.passwordUnconfirmed,
        hasPassword: Boolean(account.passwordHash),
      },
      providerEmailVerified: profile.emailVerified,
    });
    const again = () => {
      if (retried) throw failed(provider, 'failed', 'code');
      return settle(provider, profile, flow, context, true);
    };

    switch (decision.action) {
      case 'sign-in':
        await deps.openSession(decision.accountId, context);
        return { user: await freshUser(decision.accountId), linkToken: null, created: false };

      case 'create': {
        let userId: string;
        try {
          userId = await createAccount(provider, profile, flow.timeZone, context);
        } catch (error) {
          if (isDuplicateKeyError(error)) return again();
          throw error;
        }
        await deps.openSession(userId, context);
        return { user: await freshUser(userId), linkToken: null, created: true };
      }

      case 'link': {
        const now = new Date();
        // Still verified and still without this identity when the write lands: the link and its notice together.
        const linkedNow = await appendEvents(
          users,
          {
            _id: decision.accountId,
            emailVerifiedAt: { $ne: null },
            passwordUnconfirmed: { $ne: true },
            'identities.key': { $ne: key },
          },
          [signInMethodLinkedEvent(account!, provider, providers.name(provider), context.correlationId)],
          { $push: { identities: newIdentity(provider, profile, now) }, $set: { updatedAt: now } },
        );
        if (!linkedNow) return again();
        deps.publishSoon();
        context.log.info({ userId: decision.accountId, provider }, 'sign-in method linked (both addresses verified)');
        await deps.openSession(decision.accountId, context);
        return { user: await freshUser(decision.accountId), linkToken: null, created: false };
      }

      case 'ask-password': {
        // The newest link replaces an older one: one works at a time.
        const link = newLinkToken(new Date());
        await users.updateOne(
          { _id: decision.accountId },
          {
            $set: {
              pendingLink: {
                tokenHash: link.tokenHash,
                provider,
                subject: profile.subject,
                email: profile.email,
                emailVerified: profile.emailVerified,
                // Only the browser that started this sign-in may finish it with the password.
                bindingHash: flow.bindingHash,
                expiresAt: link.expiresAt,
              },
            },
          },
        );
        return { user: null, linkToken: link.token, created: false };
      }

      case 'refuse':
        throw failed(provider, decision.reason, 'email');
    }
  }

  return {
    startFederatedSignIn: async (_parent, { input }, context) => {
      const provider = configuredProvider(input.provider);
      const binding = secretFromRequest(input.browserBinding);
      if (!binding) throw badInput('browserBinding', 'Browser binding is required');
      let flow, authorizationUrl;
      try {
        flow = await providers.newFlow();
        authorizationUrl = await providers.authorizationUrl(provider, flow);
      } catch (error) {
        throw providerFailure(provider, error, context);
      }
      const now = new Date();
      await flows.create({
        _id: hashSecret(flow.state),
        provider,
        codeVerifier: flow.codeVerifier,
        nonce: flow.nonce,
        bindingHash: hashSecret(binding),
        // A name the browser got wrong (or none) leaves the new account in UTC rather than stopping the sign-in.
        timeZone: input.timeZone ? canonicalTimeZone(input.timeZone) : null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + signInFlowTtlMs),
      });
      return { authorizationUrl };
    },

    completeFederatedSignIn: async (_parent, { input }, context) => {
      const provider = configuredProvider(input.provider);
      if (input.callbackQuery.length > callbackQueryMaxLength) throw failed(provider, 'failed', 'callbackQuery');
      const params = callbackParams(input.callbackQuery);
      // Single use: the flow is taken whatever happens next, so its state never works twice.
      const flow = params.state ? await flows.findOneAndDelete({ _id: hashSecret(params.state) }).lean() : null;
      if (params.error) throw failed(provider, params.error === 'access_denied' ? 'denied' : 'failed', 'error');
      const binding = secretFromRequest(input.browserBinding);
      const usable =
        flow !== null &&
        flow.provider === provider &&
        flow.expiresAt.getTime() > Date.now() &&
        binding !== null &&
        hashSecret(binding) === flow.bindingHash;
      if (!usable || !params.state) throw failed(provider, 'expired', 'state');
      if (!params.code) throw failed(provider, 'failed', 'code');

      let claims;
      try {
        claims = await providers.exchange(provider, input.callbackQuery, {
          state: params.state,
          nonce: flow.nonce,
          codeVerifier: flow.codeVerifier,
        });
      } catch (error) {
        throw providerFailure(provider, error, context);
      }
      const profile = profileFromClaims(claims);
      if (!profile.ok) throw failed(provider, profile.reason, profile.reason === 'no_email' ? 'email' : 'code');
      return settle(
        provider,
        profile.profile,
        { timeZone: flow.timeZone ?? defaultTimeZone, bindingHash: flow.bindingHash },
        context,
      );
    },

    linkSignInMethod: async (_parent, { input }, context) => {
      const token = secretFromRequest(input.token);
      if (!token) throw badInput('token', linkMessages.invalid);
      if (!input.password) throw badInput('password', linkMessages.passwordRequired);
      const tooLong = presentedPasswordTooLong('password', input.password);
      if (tooLong) throw badInput(tooLong.field, tooLong.message);
      const tokenHash = hashSecret(token);
      const user = await users.findOne({ 'pendingLink.tokenHash': tokenHash }).lean<UserRecord>();
      const pending = user?.pendingLink;
      if (!user || !pending || pending.expiresAt.getTime() <= Date.now()) throw badInput('token', linkMessages.invalid);
      // The token travels in a URL; the binding cookie stays in the browser that started the sign-in. A token
      // opened anywhere else (a link someone sent) is refused before the password is looked at, and stays usable
      // where it belongs.
      const binding = secretFromRequest(context.signInBinding);
      if (!pending.bindingHash || !binding || hashSecret(binding) !== pending.bindingHash) {
        const message = linkMessages.otherBrowser(providers.name(pending.provider));
        throw new GraphQLError(message, {
          extensions: {
            code: 'BAD_USER_INPUT',
            field: 'token',
            reason: 'other_browser',
            problems: [{ field: 'token', message }],
          },
        });
      }
      if (!user.passwordHash || !(await verify(user.passwordHash, input.password))) {
        throw badInput('password', linkMessages.passwordWrong);
      }
      const provider = pending.provider;
      const key = identityKey(provider, pending.subject);
      const owner = await users.findOne({ 'identities.key': key }, { _id: 1 }).lean();
      if (owner) {
        // Linked meanwhile (to this account: sign in; to another: this link is void). The token goes either way.
        await users.updateOne({ _id: user._id, 'pendingLink.tokenHash': tokenHash }, { $set: { pendingLink: null } });
        if (owner._id !== user._id) throw badInput('token', linkMessages.invalid);
      } else {
        const now = new Date();
        const identity: LinkedIdentity = {
          key,
          provider,
          subject: pending.subject,
          email: pending.email,
          emailVerified: pending.emailVerified,
          linkedAt: now,
        };
        // Single use: only the write that still finds this token links (a second submit finds nothing).
        const linked = await appendEvents(
          users,
          { _id: user._id, 'pendingLink.tokenHash': tokenHash, 'identities.key': { $ne: key } },
          [signInMethodLinkedEvent(user, provider, providers.name(provider), context.correlationId)],
          { $push: { identities: identity }, $set: { pendingLink: null, updatedAt: now } },
        );
        if (!linked) throw badInput('token', linkMessages.invalid);
        deps.publishSoon();
        context.log.info({ userId: user._id, provider }, 'sign-in method linked (password confirmed)');
      }
      await deps.openSession(user._id, context);
      return { user: await freshUser(user._id) };
    },
  };
}
