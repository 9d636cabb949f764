/** What the payment setup tells the user at each outcome (the spec's toast catalogue). Pure. */
import { BRAND } from '../../brand';
import { TRIAL_DAYS } from '../../constants';

export interface Notice {
  title: string;
  description?: string;
  variant?: 'destructive';
}

export const setupNotices = {
  initFailed: { title: 'Error', description: 'Failed to initialize payment setup', variant: 'destructive' },
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
  /** The setup worked but creating the subscription did not (yet): the redirect still happens. */
  fallback: { title: 'Payment Method Added', description: 'Setting up your subscription...' },
} satisfies Record<string, Notice | ((message: string) => Notice)>;

/** The provider's answer to confirming the setup: "succeeded" goes on; anything else stops with a notice. */
export function noticeForSetupResult(result: { status: string; message?: string | null }): Notice | null {
  if (result.status === 'succeeded') return null;
  return result.message ? setupNotices.paymentFailed(result.message) : setupNotices.incomplete;
}

/** Where the user goes after a successful setup, and when (1 s). */
export const WELCOME_PATH = '/?welcome=true';
export const AFTER_SETUP_REDIRECT_MS = 1000;
