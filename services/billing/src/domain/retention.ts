/**
 * How long billing keeps its records of Stripe's webhooks and of subscription starts, an erased account's
 * accounting record and the trial claims, the periods the privacy policy states. Pure, no I/O: every "now" is
 * passed in.
 */
const dayMs = 24 * 60 * 60 * 1000;

/**
 * A processed webhook's event id, and a subscription start's claim on its setup intent. Stripe resends an event
 * for at most three days, and its API lists events of the last 30 days only (what a manual replay could fetch),
 * so an id kept 30 days outlives every copy of its event.
 */
export const webhookRecordRetentionMs = 30 * dayMs;

/** Records written before this instant are past their period at `now`. */
export const webhookRecordsCutoff = (now: Date): Date => new Date(now.getTime() - webhookRecordRetentionMs);

/**
 * What billing keeps of an erased account's subscription (dates and the provider's reference, under a keyed
 * hash): UK law keeps accounting records six years from the end of the financial year they belong to, and a
 * financial year ends within a year of the closing, so seven years after the account closed covers every case.
 */
export const retainedBillingRecordYears = 7;

/** Retained records of accounts closed before this instant are past their period at `now`. */
export const retainedRecordsCutoff = (now: Date): Date => yearsBefore(now, retainedBillingRecordYears);

/**
 * A trial claim, the keyed hash of an address whose account had the free trial: three years after the claim, so
 * an account deleted and made again with that address within that time starts without a second trial.
 */
export const trialClaimYears = 3;

/** Trial claims made before this instant are past their period at `now`. */
export const trialClaimsCutoff = (now: Date): Date => yearsBefore(now, trialClaimYears);

/** The same instant `years` calendar years earlier (UTC). */
function yearsBefore(now: Date, years: number): Date {
  const earlier = new Date(now.getTime());
  earlier.setUTCFullYear(earlier.getUTCFullYear() - years);
  return earlier;
}
