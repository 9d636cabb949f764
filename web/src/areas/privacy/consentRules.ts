/**
 * Cookie consent rules of the banner and the Settings card, pure (no DOM, no requests). The four
 * categories; `necessary` is always on. docs/decisions/privacy-and-erasure/cookie-banner.md.
 */

export interface CookieChoice {
  necessary: true;
  analytics: boolean;
  marketing: boolean;
  preferences: boolean;
}

export interface StoredConsent extends CookieChoice {
  consentGivenAt?: string | null;
  policyVersion?: string;
}

export const ACCEPT_ALL: CookieChoice = { necessary: true, analytics: true, marketing: true, preferences: true };
export const ESSENTIAL_ONLY: CookieChoice = { necessary: true, analytics: false, marketing: false, preferences: false };

export type ConsentOutcome = 'accept_all' | 'decline_all' | 'custom';

/** All three optional categories on counts as accepting all; all off as declining all; anything else is custom. */
export function consentOutcome(choice: Pick<CookieChoice, 'analytics' | 'marketing' | 'preferences'>): ConsentOutcome {
  const optional = [choice.analytics, choice.marketing, choice.preferences];
  if (optional.every(Boolean)) return 'accept_all';
  if (!optional.some(Boolean)) return 'decline_all';
  return 'custom';
}

/**
 * The banner shows only when the deployment enables it and the server has no choice for this browser or
 * account (404, `consent` null) or a record without a time.
 */
export function bannerShouldShow(
  config: { cookieBannerEnabled: boolean },
  consent: { consentGivenAt?: string | null } | null,
): boolean {
  return config.cookieBannerEnabled && (consent === null || !consent.consentGivenAt);
}

const optionalNames = [
  ['analytics', 'analytics'],
  ['marketing', 'marketing'],
  ['preferences', 'preference'],
] as const;

/** One line for the Settings card: what the person allowed. */
export function consentSummary(choice: Pick<CookieChoice, 'analytics' | 'marketing' | 'preferences'>): string {
  const outcome = consentOutcome(choice);
  if (outcome === 'accept_all') return 'All cookies allowed';
  if (outcome === 'decline_all') return 'Essential cookies only';
  const allowed = optionalNames.filter(([key]) => choice[key]).map(([, name]) => name);
  return `Essential cookies, plus ${allowed.join(' and ')} cookies`;
}
