/** What the payment setup tells the user at each outcome (one toast per outcome). Pure. */
import { BRAND } from '../../brand';
import { TRIAL_DAYS } from '../../constants';
import { invoiceAmount } from './subscriptionCard';

export interface Notice {
  title: string;
  description?: string;
  variant?: 'destructive';
}

export const setupNotices = {
  initFailed: { title: 'Error', description: 'Failed to initialize payment setup', variant: 'destructive' },
  /** The server refused a setup for the account's state (already subscribed, or a payment waits): its reason. */
  initRefused: (serverMessage: string): Notice => ({
    title: 'Error',
    description: serverMessage,
    variant: 'destructive',
  }),
  incomplete: {
    title: 'Setup Incomplete',
    description: 'Please complete the payment setup process.',
    variant: 'destructive',
  },
  paymentFailed: (providerMessage: string): Notice => ({
    title: 'Payment Failed',
    description: providerMessage,
    variant: 'destructive',
  }),
  welcome: {
    title: `Welcome to ${BRAND.name} Premium!`,
    description: `Your ${TRIAL_DAYS}-day free trial has started.`,
  },
  /** A subscription without a trial (the address had one): the server says what was charged and when next. */
  welcomeWithoutTrial: (serverMessage: string): Notice => ({
    title: `Welcome to ${BRAND.name} Premium!`,
    description: serverMessage,
  }),
  /** The card's bank did not confirm it (Stripe's return or the test-mode stand-in page): a plain reason. */
  authenticationFailed: {
    title: 'Payment Failed',
    description:
      "We couldn't verify this card with your bank. Nothing was charged: you can try again or use another card.",
    variant: 'destructive',
  },
  /** The setup worked but creating the subscription did not (yet): the redirect still happens. */
  fallback: { title: 'Payment Method Added', description: 'Setting up your subscription...' },
} satisfies Record<string, Notice | ((message: string) => Notice)>;

/** The provider's answer to confirming the setup: "succeeded" goes on; anything else stops with a notice. */
export function noticeForSetupResult(result: { status: string; message?: string | null }): Notice | null {
  if (result.status === 'succeeded') return null;
  return result.message ? setupNotices.paymentFailed(result.message) : setupNotices.incomplete;
}

/**
 * A card the provider is still confirming (its `processing` status): neither a welcome nor a failure. The page
 * says so, asks again every `SETUP_SETTLED_POLL_MS`, and goes on when the subscription has started; after
 * `SETUP_SETTLED_POLLS` tries it says the wait is longer than usual, and keeps nothing from the person.
 */
export const processingTexts = {
  title: "We're confirming your payment",
  body: "Your card provider is confirming your card. This usually takes a few seconds, and there's nothing more you need to do: stay on this page and we'll carry on as soon as it's done.",
  tooLong:
    "This is taking longer than usual. You don't need to add your card again: Premium opens as soon as your card provider confirms it, and we'll e-mail you when it does.",
} as const;

export const SETUP_SETTLED_POLL_MS = 2000;
export const SETUP_SETTLED_POLLS = 60;

/** Whether the setup's subscription has started (or its first payment has been tried): the wait is over. Pure. */
export function setupSettled(status: string | null | undefined): boolean {
  return status === 'trialing' || status === 'active' || status === 'payment_failed';
}

/** What changing the card says (Settings → Subscription). */
export const changeCardNotices = {
  updated: (serverMessage?: string): Notice => ({
    title: 'Card updated',
    description: serverMessage ?? 'Your new card is saved.',
  }),
  /** Saved, but the failed payment did not go through on it (yet). */
  savedStillUnpaid: (serverMessage: string): Notice => ({
    title: 'Card saved',
    description: serverMessage,
    variant: 'destructive',
  }),
  failed: (message: string): Notice => ({
    title: "We couldn't change your card",
    description: `${message} Your current card stays on file.`,
    variant: 'destructive',
  }),
  /** The new card's bank did not confirm it (or the check was not finished): the card on file is unchanged. */
  authenticationFailed: (): Notice => ({
    title: "We couldn't change your card",
    description:
      "Your bank didn't confirm your new card, so your current card stays on file. Nothing was charged: you can try again or use another card.",
    variant: 'destructive',
  }),
} satisfies Record<string, (message: string) => Notice>;

/**
 * A new card the provider is still confirming (processing): it becomes the card on file once confirmed, whether
 * or not the page is still open, and the current card stays until then.
 */
export const changeProcessingTexts = {
  title: "We're confirming your new card",
  body: "Your card provider is confirming your new card. This usually takes a few seconds. Your current card stays on file until then, and there's nothing more you need to do: the new card takes over as soon as it's confirmed, even if you leave this page.",
  tooLong:
    "This is taking longer than usual. You don't need to add the card again: it becomes your card on file as soon as your card provider confirms it.",
  /** In Settings, while a new card waits for its provider (the page was left and opened again). */
  pending: 'Your new card is being confirmed. Your current card stays on file until then.',
} as const;

/** Whether a card change's wait is over: the provider has confirmed (or refused) the new card. Pure. */
export function cardChangeSettled(cardChangeStatus: string | null | undefined): boolean {
  return cardChangeStatus !== 'processing';
}

/** The change-card form's words. */
export const changeCardTexts = {
  title: 'Change your card',
  cardButton: 'Save new card',
  cardBusy: 'Saving your card...',
  back: 'Keep my current card',
} as const;

/** Where the user goes after a successful setup, and when (1 s). */
export const WELCOME_PATH = '/?welcome=true';
export const AFTER_SETUP_REDIRECT_MS = 1000;

/** Said once on the page that shows a price: the price people see is the price they pay. */
export const vatNote = 'Prices include VAT.';

/** The server's answer to "what would subscribing do now", in the words and dates the page shows. */
export interface PlanOffer {
  trial: boolean;
  /** 0 without the trial. */
  trialDays: number;
  /** The monthly price, e.g. "£4.99". */
  price: string;
  /** What adding the card charges today, e.g. "£0.00" with the trial. */
  dueToday: string;
  /** The day of the first charge, e.g. "3 December"; null when not known (the sentence is left out). */
  firstChargeOn: string | null;
}

/** "3 December": a day as the page names it, in the person's own time zone. */
export function offerDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long' });
}

/** The server's offer (amounts in minor units, the first charge in epoch seconds) as the page shows it. Pure. */
export function planOfferFrom(
  offer: {
    trial: boolean;
    trialDays: number;
    amountDueToday: number;
    monthlyAmount: number;
    currency: string;
    firstChargeAt: number;
  },
  formatDate: (epochSeconds: number) => string = offerDate,
): PlanOffer {
  return {
    trial: offer.trial,
    trialDays: offer.trialDays,
    price: invoiceAmount(offer.monthlyAmount, offer.currency),
    dueToday: invoiceAmount(offer.amountDueToday, offer.currency),
    firstChargeOn: formatDate(offer.firstChargeAt),
  };
}

/**
 * What starting Premium costs, said before the card is asked for: with the free trial, nothing until it ends;
 * without it (the trial is once per email address), the first month today. Pure.
 */
export function offerTexts(trialAvailable: boolean, price: string, trialDays: number) {
  return planOfferTexts({ trial: trialAvailable, trialDays, price, dueToday: price, firstChargeOn: null });
}

/** As offerTexts, from the server's offer: with the trial, the offer's words and the day of the first payment. */
export function planOfferTexts(offer: PlanOffer) {
  const { trialDays, price, dueToday } = offer;
  return offer.trial
    ? {
        registered: `Please complete your subscription setup to start your ${trialDays}-day free trial.`,
        planNote: `${trialDays}-day free trial included`,
        firstCharge: offer.firstChargeOn ? `Your first payment of ${price} is on ${offer.firstChargeOn}.` : null,
        startButton: `Start ${trialDays}-Day Free Trial`,
        paymentIntro: `Your ${trialDays}-day free trial starts as soon as your card is added.`,
        cardButton: 'Start Free Trial',
        cardBusy: 'Starting your trial...',
        infoTitle: 'How the free trial works',
        info: [
          `Add a card to start your ${trialDays}-day free trial with every Premium feature. Nothing is charged during the trial.`,
          `When the trial ends, Premium is ${price} a month, charged to that card, until you cancel. Cancel any time before the trial ends and you pay nothing; we remind you by e-mail a day before.`,
        ],
      }
    : {
        registered: `Please complete your subscription setup. The free trial is once per e-mail address and this one has had it, so the next page shows what will be charged.`,
        planNote: `No free trial: it is once per e-mail address, and this address has had it`,
        firstCharge: `Your first payment of ${dueToday} is today, when you add your card.`,
        startButton: `Subscribe for ${price} a month`,
        paymentIntro: `${dueToday} is charged to your card as soon as it is added, then every month until you cancel.`,
        cardButton: `Subscribe and pay ${dueToday}`,
        cardBusy: 'Subscribing...',
        infoTitle: 'How your subscription works',
        info: [
          `The free trial is offered once per e-mail address, and this address has already had it, so your subscription starts without one.`,
          `When you add a card, ${dueToday} is charged to it straight away for your first month. Premium then renews every month for ${price}, charged to that card, until you cancel. If you cancel, you keep Premium until the end of the month you paid for and are not charged again.`,
        ],
      };
}
