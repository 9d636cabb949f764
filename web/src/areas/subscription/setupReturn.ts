/**
 * The return from a card's bank check, on both providers: Stripe sends the browser back to
 * `/subscription?setup_intent=…&setup_intent_client_secret=…&redirect_status=succeeded|failed`, and the local
 * test-mode provider's stand-in page sends it to the same address, so one handler on the subscription page serves
 * both. Pure.
 */
import { SETUP_PATH } from '../../gating/routeGating';

export interface SetupReturn {
  setupIntent: string;
  clientSecret: string;
  succeeded: boolean;
}

/** The return's parameters, or null when the address is not a return (or not a whole one). */
export function parseSetupReturn(search: string): SetupReturn | null {
  const query = new URLSearchParams(search);
  const setupIntent = query.get('setup_intent');
  const clientSecret = query.get('setup_intent_client_secret');
  const status = query.get('redirect_status');
  if (!setupIntent || !clientSecret || (status !== 'succeeded' && status !== 'failed')) return null;
  return { setupIntent, clientSecret, succeeded: status === 'succeeded' };
}

/** Where the local provider's stand-in page sends the person back to, as Stripe does after its own page. */
export function setupReturnPath({ setupIntent, clientSecret, succeeded }: SetupReturn): string {
  const query = new URLSearchParams({
    setup_intent: setupIntent,
    setup_intent_client_secret: clientSecret,
    redirect_status: succeeded ? 'succeeded' : 'failed',
  });
  return `${SETUP_PATH}?${query.toString()}`;
}

/** The stand-in page's own parameters (the setup and its client secret), or null without them. */
export function parseChallenge(search: string): Omit<SetupReturn, 'succeeded'> | null {
  const query = new URLSearchParams(search);
  const setupIntent = query.get('setup_intent');
  const clientSecret = query.get('setup_intent_client_secret');
  return setupIntent && clientSecret ? { setupIntent, clientSecret } : null;
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
