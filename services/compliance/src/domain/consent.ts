/**
 * Cookie consent rules, without I/O: what a choice must say, and which of two choices counts when a visitor's
 * choice meets the account's at sign-in. docs/decisions/privacy-and-erasure/cookie-consent.md.
 */

/** The four consent categories; `necessary` is always on (the cookies that make the site work). */
export interface CookieChoice {
  necessary: boolean;
  analytics: boolean;
  marketing: boolean;
  preferences: boolean;
}

export interface RecordedChoice extends CookieChoice {
  consentGivenAt: Date;
  policyVersion: string;
}

/**
 * A signed-out visitor's choice: the gateway's visitor cookie lasts a year, so its record goes some weeks after the
 * cookie can no longer be read, 400 days after the record's last update.
 */
export const visitorConsentCleanupSeconds = 400 * 24 * 60 * 60;

/** A visitor's choice last updated before this instant is past its period at `now`. */
export const visitorConsentsCutoff = (now: Date): Date => new Date(now.getTime() - visitorConsentCleanupSeconds * 1000);

export const necessaryRefusedMessage = 'Essential cookies are always on: necessary must be true';

/** The one rule GraphQL's types do not already enforce: essential cookies cannot be switched off. */
export function choiceProblem(choice: CookieChoice): { field: 'necessary'; message: string } | null {
  return choice.necessary === true ? null : { field: 'necessary', message: necessaryRefusedMessage };
}

/**
 * When a visitor who chose in this browser signs in to an account that has a choice too, the newer choice
 * wins (it is the person's latest word); on a tie the account's stays.
 */
export function newerChoice<Choice extends Pick<RecordedChoice, 'consentGivenAt'>>(
  account: Choice | null,
  visitor: Choice | null,
): Choice | null {
  if (!account) return visitor;
  if (!visitor) return account;
  return visitor.consentGivenAt > account.consentGivenAt ? visitor : account;
}
