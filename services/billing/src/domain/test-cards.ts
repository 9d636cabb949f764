/**
 * The local test-mode provider's cards (Stripe's own test numbers, so the same cards work in both modes).
 * The local provider never charges anyone: it only decides, by the number, whether a test payment works.
 */
export const testCards = {
  succeeds: '4242424242424242',
  /** Stripe's test Mastercard: works like 4242, for changing to a card that looks different. */
  succeedsMastercard: '5555555555554444',
  declined: '4000000000000002',
  /** Setup succeeds; every later charge fails (a trial that ends in a failed payment). */
  chargeFails: '4000000000000341',
  /** Setup succeeds; every later charge gets no answer from the provider (an outage, not a decline). */
  processingError: '4000000000000119',
  /** Stripe's authentication-required setup card: the bank asks the person to confirm it (3-D Secure). */
  requiresAuthentication: '4000002760003184',
  /** Stripe's other cards whose bank asks on setup: 3-D Secure required (3155), and 3-D Secure 2 (3220). */
  requiresAuthenticationOnSetup: '4000002500003155',
  requiresAuthentication3ds2: '4000000000003220',
  /**
   * A setup the provider takes a moment to confirm (Stripe's `processing`, as with a bank debit): it succeeds
   * at the scheduler's first pass `processingSetupMs` after it was confirmed. With Stripe it is an ordinary card.
   */
  processing: '4000000000000077',
} as const;

/** How long (billing's clock) the local provider takes to confirm a processing setup. */
export const processingSetupMs = 5_000;

export type CardOutcome = 'ok' | 'charge_fails' | 'processing_error' | 'declined';

/** What confirming a setup with a test card does: a card outcome, a challenge from the bank first, or a wait. */
export type SetupOutcome = CardOutcome | 'requires_action' | 'processing';

export const declinedMessage = 'Your card was declined.';
/** A failed bank check, said as Haven says it: nothing is wrong with the person, another card or a retry helps. */
export const authenticationFailedMessage =
  "We couldn't verify this card with your bank. Nothing was charged: you can try again or use another card.";
export const unknownTestCardMessage =
  'Test mode takes test cards only: use 4242 4242 4242 4242 (works), 4000 0000 0000 0002 (declined) or 4000 0027 6000 3184 (your bank asks you to confirm it).';

/** Digits only; null when it cannot be a card number at all (bad input, not a decline). */
export function normaliseCardNumber(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

export function outcomeOfTestCard(digits: string): { outcome: SetupOutcome; message: string | null } {
  if (
    digits === testCards.requiresAuthentication ||
    digits === testCards.requiresAuthenticationOnSetup ||
    digits === testCards.requiresAuthentication3ds2
  )
    return { outcome: 'requires_action', message: null };
  if (digits === testCards.processing) return { outcome: 'processing', message: null };
  if (digits === testCards.succeeds || digits === testCards.succeedsMastercard) return { outcome: 'ok', message: null };
  if (digits === testCards.chargeFails) return { outcome: 'charge_fails', message: null };
  if (digits === testCards.processingError) return { outcome: 'processing_error', message: null };
  if (digits === testCards.declined) return { outcome: 'declined', message: declinedMessage };
  return { outcome: 'declined', message: unknownTestCardMessage };
}

/** The card's brand from its number's first digits, as a provider names it. */
export function brandOfCardNumber(digits: string): string {
  if (digits.startsWith('4')) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'American Express';
  return 'Card';
}
