/**
 * The return from a card's bank check, on both providers: Stripe sends the browser back to
 * `/subscription?setup_intent=…&setup_intent_client_secret=…&redirect_status=succeeded|failed`, and the local
 * test-mode provider's stand-in page sends it to the same address, so one handler on the subscription page serves
 * both. A card change returns to the page it started on (Settings, or /subscription after a failed payment), marked
 * `card_change`, so that page finishes the change and the start's handler leaves it alone. Pure.
 */
import { SETUP_PATH } from '../../gating/routeGating';

/** Where a card change starts, and so where its bank check returns: Settings, or /subscription. */
export type CardChangePlace = 'settings' | 'subscription';

const placePaths: Record<CardChangePlace, string> = { settings: '/settings', subscription: SETUP_PATH };

/** The place a page's path is, or null when card changes do not start there. */
export function cardChangePlaceOf(pathname: string): CardChangePlace | null {
  if (pathname === placePaths.settings) return 'settings';
  return pathname === placePaths.subscription ? 'subscription' : null;
}

/** Only a place Haven knows: the parameter never takes the person anywhere else. */
const placeFrom = (value: string | null): CardChangePlace | null =>
  value === 'settings' || value === 'subscription' ? value : null;

export interface SetupReturn {
  setupIntent: string;
  clientSecret: string;
  succeeded: boolean;
  /** Where the card change started; null for a start. */
  cardChange: CardChangePlace | null;
}

/** The return's parameters, or null when the address is not a return (or not a whole one). */
export function parseSetupReturn(search: string): SetupReturn | null {
  const query = new URLSearchParams(search);
  const setupIntent = query.get('setup_intent');
  const clientSecret = query.get('setup_intent_client_secret');
  const status = query.get('redirect_status');
  if (!setupIntent || !clientSecret || (status !== 'succeeded' && status !== 'failed')) return null;
  return {
    setupIntent,
    clientSecret,
    succeeded: status === 'succeeded',
    cardChange: placeFrom(query.get('card_change')),
  };
}

/** Where the local provider's stand-in page sends the person back to, as Stripe does after its own page. */
export function setupReturnPath({ setupIntent, clientSecret, succeeded, cardChange }: SetupReturn): string {
  const query = new URLSearchParams({
    setup_intent: setupIntent,
    setup_intent_client_secret: clientSecret,
    redirect_status: succeeded ? 'succeeded' : 'failed',
  });
  if (cardChange) query.set('card_change', cardChange);
  return `${cardChange ? placePaths[cardChange] : SETUP_PATH}?${query.toString()}`;
}

/** The stand-in page's own parameters (the setup, its client secret, a card change's place), or null without them. */
export function parseChallenge(search: string): Omit<SetupReturn, 'succeeded'> | null {
  const query = new URLSearchParams(search);
  const setupIntent = query.get('setup_intent');
  const clientSecret = query.get('setup_intent_client_secret');
  return setupIntent && clientSecret
    ? { setupIntent, clientSecret, cardChange: placeFrom(query.get('card_change')) }
    : null;
}

/** The bank check's address (the server's) for a card change started at `place`, so it returns there. */
export function cardChangeChallengeUrl(challengeUrl: string, place: CardChangePlace): string {
  return `${challengeUrl}${challengeUrl.includes('?') ? '&' : '?'}card_change=${place}`;
}

/** Where Stripe sends the browser back after the bank's page: a card change to the page it started on. */
export function stripeReturnUrl(origin: string, cardChange: CardChangePlace | null): string {
  return cardChange ? `${origin}${placePaths[cardChange]}?card_change=${cardChange}` : `${origin}${SETUP_PATH}`;
}

/** The local provider's stand-in for the bank's page: plainly test mode, and what is being asked. */
export const challengeTexts = {
  title: 'Your bank asks you to confirm this card',
  testMode: 'Test mode',
  explanation:
    'Some banks check that a card is really yours before it can be saved. With a real card, your bank shows this step. Here nothing is checked and nothing is charged: choose what the bank answers.',
  approve: 'Complete authentication',
  fail: 'Fail authentication',
  busy: 'Sending your answer...',
  missing: 'This check has no card to confirm. Please add your card again from the Subscription page.',
  back: 'Back to Subscription',
} as const;
