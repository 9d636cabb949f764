/**
 * /subscription when a payment did not go through: the subscription is still there, waiting for the payment, so the
 * page offers a new card for it (the payment is tried again with it at once) and never a second subscription,
 * which would be charged beside the first. Pure.
 */
import type { SubscriptionStatusLike } from './subscriptionStatus';

/** What /subscription offers: to subscribe, to update the card of the subscription whose payment failed, or neither. */
export type SubscriptionPageOffer = 'subscribe' | 'update_card' | 'none';

export function subscriptionPageOffer(
  s: Pick<SubscriptionStatusLike, 'status' | 'hasActiveSubscription'>,
): SubscriptionPageOffer {
  if (s.status === 'payment_failed') return 'update_card';
  return s.hasActiveSubscription ? 'none' : 'subscribe';
}

/** The "Payment Failed" state's words (its title): what happened, what to do, what it costs, what follows. */
export function paymentFailedTexts(price: string) {
  return {
    title: 'Payment Failed',
    happened: `Your payment of ${price} could not be processed, so Premium is on hold. Your check-ins and quotes are safe.`,
    /** Without a card on file to name (the card line says it otherwise). */
    whatToDo: "Please update your payment method, and we'll try the payment again straight away.",
    after: "Premium opens as soon as the payment goes through. You don't need to subscribe again.",
    button: 'Update payment method',
    /** The card form, in change mode: saving the card pays what is owed. */
    form: {
      title: 'Update your payment method',
      cardButton: `Save card and pay ${price}`,
      cardBusy: 'Trying your payment...',
      back: 'Not now',
    },
  };
}
