/**
 * What /auth says when Google or the hosted platform sent the browser back without signing in. The gateway
 * puts only a provider and a reason in the URL (`?signin=failed&provider=google&reason=denied`); the words
 * live here, so a crafted link can never put text of its choosing on the page.
 */
import { BRAND } from '../../brand';
import { formatLocalDate, parseIsoDate } from '../../lib/dates';

/** Where a "Continue with …" button goes: the gateway's start route, told the browser's time zone for a new account. */
export function federatedSignInStart(startPath: string, timeZone: string | undefined): string {
  return timeZone ? `${startPath}?${new URLSearchParams({ timeZone }).toString()}` : startPath;
}

export function providerDisplayName(provider: string | null): string | null {
  if (provider === 'google') return 'Google';
  if (provider === 'platform') return BRAND.hostedSignInName;
  return null;
}

export interface SignInNotice {
  title: string;
  description: string;
}

/**
 * The toast for `?signin=…`: `unavailable` (the provider is not configured) or `failed` with a reason.
 * Null when the URL says nothing about a sign-in.
 */
export function federatedSignInNotice(params: URLSearchParams): SignInNotice | null {
  const signin = params.get('signin');
  if (signin !== 'unavailable' && signin !== 'failed') return null;
  const known = providerDisplayName(params.get('provider'));
  const name = known ?? 'This';
  if (signin === 'unavailable') {
    return {
      title: 'Login failed',
      description: `${name} sign-in is not available yet. Please use your email and password.`,
    };
  }
  const provider = known ?? 'that provider';
  const descriptions: Record<string, string> = {
    denied: `${known ?? 'The'} sign-in was cancelled, so nothing changed. You can try again, or use your email and password.`,
    expired: 'That sign-in expired or was started in another browser. Please start again from this page.',
    no_email: `${known ?? 'The provider'} did not share your email address, so we could not sign you in. Please allow it, or use your email and password.`,
    account_exists: `You already have an account with this email. Please sign in the way you did before, or use "Forgot password?" to set a password and then link ${provider}.`,
    unreachable: `We could not reach ${provider} just now. Please try again in a moment.`,
    busy: 'There were a lot of sign-in attempts from here. Please wait a minute, then try again.',
    unknown_provider: `We don't know that way of signing in. Please choose one of the buttons below, or use your email and password.`,
  };
  return {
    title: 'Login failed',
    description:
      descriptions[params.get('reason') ?? ''] ??
      `We could not sign you in with ${provider}. Nothing changed. Please try again, or use your email and password.`,
  };
}

/** `?link=<token>&provider=google`: the account exists, and its password links the provider's sign-in. */
export interface PendingLink {
  token: string;
  providerName: string;
}

export function pendingLink(params: URLSearchParams): PendingLink | null {
  const token = params.get('link');
  if (!token || !/^[\w-]{20,200}$/.test(token)) return null;
  return { token, providerName: providerDisplayName(params.get('provider')) ?? 'your provider' };
}

/** One way into an account, as Settings lists it. */
export interface SignInMethodLike {
  kind: 'PASSWORD' | 'GOOGLE' | 'PLATFORM';
  email?: string | null;
  linkedAt?: string | null;
}

/** "Email and password", or the provider's name with the address it gave and the day it was linked. */
export function signInMethodLine(method: SignInMethodLike): { name: string; detail: string | null } {
  if (method.kind === 'PASSWORD') return { name: 'Email and password', detail: null };
  const name = method.kind === 'GOOGLE' ? 'Google' : BRAND.hostedSignInName;
  const linked = parseIsoDate(method.linkedAt);
  const parts = [method.email, linked && `linked ${formatLocalDate(linked)}`].filter(Boolean);
  return { name, detail: parts.length > 0 ? parts.join(', ') : null };
}
