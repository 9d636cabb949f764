/**
 * Presentation rules for a user's subscription status. Pure functions, no React.
 */
import { formatLocalDate } from '../../lib/dates';

export interface SubscriptionStatusLike {
  planType: string;
  status: string;
  isTrialing: boolean;
  needsSetup: boolean;
  hasActiveSubscription: boolean;
  /** Epoch seconds. */
  trialEnd?: number | null;
  /** Epoch seconds. */
  currentPeriodEnd?: number | null;
  cancelAtPeriodEnd: boolean;
}

/** The "Current Status" badge on /subscription: "3-Day Trial", "Premium" or "Free". */
export function subscriptionBadgeLabel(s: SubscriptionStatusLike): string {
  if (s.isTrialing) return '3-Day Trial';
  if (s.planType === 'premium') return 'Premium';
  return 'Free';
}

/** The plan label used in settings: "Free Trial", "Premium" or "Free". */
export function subscriptionPlanLabel(s: SubscriptionStatusLike): string {
  if (s.isTrialing) return 'Free Trial';
  if (s.planType === 'premium') return 'Premium';
  return 'Free';
}

/**
 * "Trial ends <date>", "Active subscription", "Subscription setup required" or
 * "No active subscription". The date is formatted in the local format.
 */
export function subscriptionDescription(
  s: SubscriptionStatusLike,
  formatDate: (epochSeconds: number) => string = epochSecondsToLocalDate,
): string {
  if (s.isTrialing && s.trialEnd != null) return `Trial ends ${formatDate(s.trialEnd)}`;
  if (s.status === 'active' || s.hasActiveSubscription) return 'Active subscription';
  if (s.needsSetup) return 'Subscription setup required';
  return 'No active subscription';
}

export type StatusDotColour = 'green' | 'blue' | 'red';

/**
 * Status dot: green when active or trialing; blue when status is "trialing" but the
 * server did not flag isTrialing; red otherwise.
 */
export function subscriptionDotColour(s: SubscriptionStatusLike): StatusDotColour {
  if (s.status === 'active' || s.isTrialing) return 'green';
  if (s.status === 'trialing') return 'blue';
  return 'red';
}

/** Premium and paid up (not in the trial): the "You're Premium!" notice. */
export function isActivePremium(s: SubscriptionStatusLike): boolean {
  return s.planType === 'premium' && s.hasActiveSubscription && !s.isTrialing;
}

export function epochSecondsToLocalDate(epochSeconds: number): string {
  return formatLocalDate(new Date(epochSeconds * 1000));
}
