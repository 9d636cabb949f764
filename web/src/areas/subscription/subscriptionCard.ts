/** The Settings subscription card's rules: which actions it offers and the cancellation e-mail. Pure. */
import { BRAND } from '../../brand';
import type { SubscriptionStatusLike } from './subscriptionStatus';

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
