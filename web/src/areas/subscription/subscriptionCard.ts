/** The Settings subscription card's rules: its actions, the cancellation dialog's words and the support e-mail. Pure. */
import { BRAND } from '../../brand';
import { epochSecondsToLocalDate, type SubscriptionStatusLike } from './subscriptionStatus';

export interface CardOnFile {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** "Visa ending in 4242, expires 12/2030": the card as people read it on their statement. */
export function cardOnFileLabel(card: CardOnFile): string {
  return `${card.brand} ending in ${card.last4}, expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
}

/**
 * The line under the plan: the card that pays for it, or, after a failed payment, the card that failed and what
 * changing it does.
 */
export function cardOnFileLine(card: CardOnFile, s: Pick<SubscriptionStatusLike, 'status'>): string {
  return s.status === 'payment_failed'
    ? `Your last payment didn't go through on your ${cardOnFileLabel(card)}. Change the card and we'll try the payment again straight away.`
    : `Card on file: ${cardOnFileLabel(card)}.`;
}

/** A card can be changed while the subscription runs: trialing, active, or retrying a failed payment. */
export function mayChangeCard(s: Pick<SubscriptionStatusLike, 'status'>): boolean {
  return s.status === 'trialing' || s.status === 'active' || s.status === 'payment_failed';
}

/** Cancel while access is open and no cancellation is pending; reactivate while one is. */
export function subscriptionActions(s: SubscriptionStatusLike): { cancel: boolean; reactivate: boolean } {
  return {
    cancel: s.hasActiveSubscription && !s.cancelAtPeriodEnd,
    reactivate: s.hasActiveSubscription && s.cancelAtPeriodEnd,
  };
}

/** The pre-filled cancellation e-mail to support. */
export function cancellationMailto(user: { email: string }, supportEmail: string = BRAND.supportEmail): string {
  const subject = `Cancel my ${BRAND.name} subscription`;
  const body = `Hello,\n\nPlease cancel the ${BRAND.name} Premium subscription for the account ${user.email}.\n\nThank you.`;
  return `mailto:${supportEmail}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/**
 * What the cancellation dialog says before anything happens: the day access ends (the trial's end, or the end of
 * the period paid for), that nothing more is charged, the support e-mail it opens, and that the data stays.
 */
export function cancellationConfirmation(
  s: SubscriptionStatusLike,
  formatDate: (epochSeconds: number) => string = epochSecondsToLocalDate,
): { title: string; description: string } {
  const end = s.isTrialing ? s.trialEnd : s.currentPeriodEnd;
  const until = end != null ? `until ${formatDate(end)}` : 'until the end of your current period';
  const access = s.isTrialing
    ? `your free trial stays open ${until}, and you will not be charged`
    : `Premium stays open ${until}, and you will not be charged again`;
  return {
    title: 'Cancel your subscription?',
    description: `If you cancel, ${access}. We will also open an e-mail to our support team for you. Your check-ins and quotes stay in your account, and you can reactivate any time before then.`,
  };
}
