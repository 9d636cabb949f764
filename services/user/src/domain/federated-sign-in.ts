/**
 * Federated sign-in (Google, the hosted platform): the pure rules. What a provider's answer means for
 * Haven's accounts, how its claims become an account's fields, and what people read when it fails.
 */
import { canonicalEmail } from '@haven/platform';
import { createHash, randomBytes } from 'node:crypto';
import { nameMaxLength } from './registration';

export type FederatedProvider = 'google' | 'oidc';

/** How long a started sign-in waits for the provider's callback, and a link waits for the password. */
export const signInFlowTtlMs = 10 * 60 * 1000;
export const linkTokenTtlMs = 10 * 60 * 1000;

/** What an identity is looked up by: the provider and its stable id for the person (`sub`). */
export function identityKey(provider: FederatedProvider, subject: string): string {
  return `${provider}:${subject}`;
}

/** Flow state, link tokens and browser bindings are stored as this hash only. */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function newLinkToken(now: Date): { token: string; tokenHash: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashSecret(token), expiresAt: new Date(now.getTime() + linkTokenTtlMs) };
}

/** A secret as it arrives from a browser: trimmed; null when it cannot be one of ours (no I/O is done for it). */
export function secretFromRequest(raw: string | null | undefined): string | null {
  const value = (raw ?? '').trim();
  return value === '' || value.length > 200 ? null : value;
}

/** Only `true` counts (some providers send the string "true"); anything else is "not vouched for". */
export function providerVouchesForEmail(claim: unknown): boolean {
  return claim === true || claim === 'true';
}

/** What Haven takes from the provider's claims (ID token, then userinfo for what it lacks). */
export interface ProviderProfile {
  subject: string;
  email: string;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
}

function nameClaim(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim();
  return name === '' ? null : name.slice(0, nameMaxLength);
}

/** A picture is kept only as an https address of sensible length (the CSP allows https images). */
function pictureClaim(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  try {
    return new URL(value).protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

export type ProfileResult = { ok: true; profile: ProviderProfile } | { ok: false; reason: 'failed' | 'no_email' };

export function profileFromClaims(claims: Record<string, unknown>): ProfileResult {
  const subject = typeof claims.sub === 'string' ? claims.sub.trim() : '';
  if (!subject || subject.length > 255) return { ok: false, reason: 'failed' };
  const email = canonicalEmail(typeof claims.email === 'string' ? claims.email : null);
  if (!email.ok) return { ok: false, reason: 'no_email' };
  const givenName = nameClaim(claims.given_name);
  return {
    ok: true,
    profile: {
      subject,
      email: email.address,
      emailVerified: providerVouchesForEmail(claims.email_verified),
      firstName: givenName ?? (nameClaim(claims.family_name) ? null : nameClaim(claims.name)),
      lastName: nameClaim(claims.family_name),
      profileImageUrl: pictureClaim(claims.picture),
    },
  };
}

/** What Haven knows when a provider's answer arrives. */
export interface SignInFacts {
  /** The account this provider identity is linked to already, if any. */
  linkedAccountId: string | null;
  /** The account whose address is the one the provider gave, if any. */
  accountWithEmail: { id: string; emailVerified: boolean; hasPassword: boolean } | null;
  /** The provider said `email_verified: true`. */
  providerEmailVerified: boolean;
}

export type SignInDecision =
  | { action: 'sign-in'; accountId: string }
  | { action: 'create'; emailVerified: boolean }
  | { action: 'link'; accountId: string }
  | { action: 'ask-password'; accountId: string }
  | { action: 'refuse'; reason: 'account_exists' };

/**
 * The link decision. An identity already linked signs in. A new address makes a new account. An existing
 * account is linked without asking only when both sides have proved the same mailbox: the provider vouches
 * for the address AND the account verified it with Haven's own link. Otherwise whoever registered the
 * address first (here, or at a provider that does not check addresses) could take over the other's sign-in,
 * so linking needs the account's password; an account without one cannot be linked from here.
 */
export function decideFederatedSignIn(facts: SignInFacts): SignInDecision {
  if (facts.linkedAccountId) return { action: 'sign-in', accountId: facts.linkedAccountId };
  const account = facts.accountWithEmail;
  if (!account) return { action: 'create', emailVerified: facts.providerEmailVerified };
  if (facts.providerEmailVerified && account.emailVerified) return { action: 'link', accountId: account.id };
  if (account.hasPassword) return { action: 'ask-password', accountId: account.id };
  return { action: 'refuse', reason: 'account_exists' };
}

/** The provider's answer at the callback, as the query string carries it. */
export interface CallbackParams {
  state: string | null;
  code: string | null;
  /** The provider's error code (`access_denied` when the person said no). */
  error: string | null;
}

export function callbackParams(query: string): CallbackParams {
  const params = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  const value = (name: string) => {
    const raw = params.get(name);
    return raw === null || raw.trim() === '' ? null : raw;
  };
  return { state: value('state'), code: value('code'), error: value('error') };
}

/**
 * Why a federated sign-in did not finish. The gateway puts the reason (never a message) in the URL of
 * /auth, whose page says the matching sentence; a JSON caller gets the message below.
 */
export type SignInFailure =
  'denied' | 'expired' | 'failed' | 'no_email' | 'account_exists' | 'unavailable' | 'unreachable';

/** Nothing was created or changed in any of these; each says what happened and what to do. */
export function signInFailureMessage(reason: SignInFailure, providerName: string): string {
  switch (reason) {
    case 'denied':
      return `${providerName} sign-in was cancelled, so nothing changed. You can try again, or use your email and password.`;
    case 'expired':
      return 'That sign-in expired or was started in another browser. Please start again from this page.';
    case 'no_email':
      return `${providerName} did not share your email address, so we could not sign you in. Please allow it, or use your email and password.`;
    case 'account_exists':
      return `You already have an account with this email. Please sign in the way you did before, or use "Forgot password?" to set a password and then link ${providerName}.`;
    case 'unavailable':
      return `${providerName} sign-in is not available yet. Please use your email and password.`;
    case 'unreachable':
      return `We could not reach ${providerName} just now. Please try again in a moment.`;
    case 'failed':
      return `We could not sign you in with ${providerName}. Nothing changed. Please try again, or use your email and password.`;
  }
}

export const linkMessages = {
  invalid: 'This link has expired or was already used. Please sign in with your provider again.',
  passwordRequired: 'Password is required',
  passwordWrong: 'That password is not right. Please try again.',
  otherBrowser: (providerName: string) =>
    `This link works only in the browser where the ${providerName} sign-in started. Please sign in with ${providerName} again from this browser.`,
} as const;
