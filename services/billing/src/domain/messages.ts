/** What billing tells people: exact about what happens next, in the order it happens, and what it costs. */
import { premiumPriceText } from './price';

const dateOf = (date: Date | null) =>
  date ? date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }) : '';

export const billingMessages = {
  alreadySubscribed: 'You already have an active subscription, so there is nothing to set up.',
  /** A second subscription would be charged beside the one whose payment failed (the provider keeps retrying it). */
  updateCardInstead:
    "Your last payment didn't go through, so your Premium subscription is on hold. Subscribing again would start a second one, so please update your card on the Subscription page instead: we'll try the payment again straight away.",
  setupFirst: 'Please complete the payment setup process.',
  nothingToCancel: 'You have no active subscription to cancel.',
  alreadyCancelled: 'Your subscription is already set to end. You can reactivate it from Settings.',
  nothingToReactivate: 'There is no cancellation to undo: your subscription is active.',
  noSubscription: 'You have no subscription to reactivate. You can start one on the Subscription page.',
  changedMeanwhile: 'Your subscription changed a moment ago. Please try again.',
  testModeOnly: 'Test cards work only in test mode; this Haven takes real cards through Stripe.',
  noSuchSetup: 'We could not find that payment setup. Please start again.',
  noCheckPending: 'This card has no bank check waiting. Please add your card again.',
  cardNumberInvalid: 'Card number must be 12 to 19 digits',
  testClockDisabled: 'The billing test clock is off.',
  noCardToChange: 'You have no subscription whose card to change. You can start one on the Subscription page.',
  changeCardFirst: 'Please add your new card first.',
  setupChangesCard:
    'That card setup was for changing your card, so it does not start a subscription. Please start again from the Subscription page.',
  cardUpdated: 'Your new card is saved. Your next payment for Premium goes to it.',
  cardUpdatedStillUnpaid:
    'Your new card is saved, but the payment has not gone through yet. We will try it again with this card, or you can add another one.',
  cardUpdatedAndPaid: (periodEnd: Date | null) =>
    `Your new card is saved and your payment of ${premiumPriceText} went through, so Premium is open again. Your next payment is on ${dateOf(periodEnd)}.`,
  trialStarted: (trialEnd: Date | null) =>
    `Your 3-day free trial has started. It ends on ${dateOf(trialEnd)}; after that Premium is ${premiumPriceText} a month unless you cancel before then.`,
  activated: (periodEnd: Date | null) =>
    `You're Premium. Your next payment of ${premiumPriceText} is on ${dateOf(periodEnd)}.`,
  paymentFailed: 'Your payment could not be processed. Please update your payment method.',
  cancelled: (trialing: boolean, end: Date | null) =>
    trialing
      ? `Your trial will end on ${dateOf(end)} and you will not be charged. You keep full access until then.`
      : `Your subscription will end on ${dateOf(end)} and you will not be charged again. You keep full access until then.`,
  reactivated: (trialing: boolean, end: Date | null) =>
    trialing
      ? `Your trial continues. From ${dateOf(end)} Premium is ${premiumPriceText} a month.`
      : `Your subscription continues. Your next payment of ${premiumPriceText} is on ${dateOf(end)}.`,
};
