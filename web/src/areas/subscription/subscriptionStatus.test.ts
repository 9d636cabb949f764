import {
  epochSecondsToLocalDate,
  isActivePremium,
  subscriptionBadgeLabel,
  subscriptionDescription,
  subscriptionDotColour,
  subscriptionPlanLabel,
  type SubscriptionStatusLike,
} from './subscriptionStatus';

const base: SubscriptionStatusLike = {
  planType: 'free',
  status: 'none',
  isTrialing: false,
  needsSetup: false,
  hasActiveSubscription: false,
  trialEnd: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
};
const trialEnd = 1_767_225_600; // 2026-01-01T00:00:00Z
const trial = {
  ...base,
  planType: 'trial',
  status: 'trialing',
  isTrialing: true,
  hasActiveSubscription: true,
  trialEnd,
};
const premium = {
  ...base,
  planType: 'premium',
  status: 'active',
  hasActiveSubscription: true,
  currentPeriodEnd: trialEnd,
};
const setup = { ...base, needsSetup: true };

describe('subscription badge and labels', () => {
  it('reads "3-Day Trial", "Premium" or "Free" on the subscription page', () => {
    expect(subscriptionBadgeLabel(trial)).toBe('3-Day Trial');
    expect(subscriptionBadgeLabel(premium)).toBe('Premium');
    expect(subscriptionBadgeLabel(base)).toBe('Free');
    expect(subscriptionBadgeLabel(setup)).toBe('Free');
  });

  it('reads "Free Trial", "Premium" or "Free" as the plan label', () => {
    expect(subscriptionPlanLabel(trial)).toBe('Free Trial');
    expect(subscriptionPlanLabel(premium)).toBe('Premium');
    expect(subscriptionPlanLabel(base)).toBe('Free');
  });

  it('prefers the trial over the plan type', () => {
    expect(subscriptionBadgeLabel({ ...premium, isTrialing: true })).toBe('3-Day Trial');
  });
});

describe('subscriptionDescription', () => {
  it('gives the trial end date in the local format', () => {
    const expected = new Date(trialEnd * 1000).toLocaleDateString();
    expect(subscriptionDescription(trial)).toBe(`Trial ends ${expected}`);
    expect(epochSecondsToLocalDate(trialEnd)).toBe(expected);
  });

  it('accepts a date formatter', () => {
    expect(subscriptionDescription(trial, (s) => `@${s}`)).toBe(`Trial ends @${trialEnd}`);
  });

  it('describes active, setup-needed and inactive states', () => {
    expect(subscriptionDescription(premium)).toBe('Active subscription');
    expect(subscriptionDescription(setup)).toBe('Subscription setup required');
    expect(subscriptionDescription(base)).toBe('No active subscription');
    expect(subscriptionDescription({ ...base, status: 'trial_expired' })).toBe('No active subscription');
  });

  it('does not invent a trial date when the server gave none', () => {
    expect(subscriptionDescription({ ...trial, trialEnd: null })).toBe('Active subscription');
  });
});

describe('subscriptionDotColour', () => {
  it('is green when active or trialing', () => {
    expect(subscriptionDotColour(premium)).toBe('green');
    expect(subscriptionDotColour(trial)).toBe('green');
  });
  it('is blue when the status says trialing but isTrialing is not set', () => {
    expect(subscriptionDotColour({ ...base, status: 'trialing' })).toBe('blue');
  });
  it('is red otherwise', () => {
    expect(subscriptionDotColour(base)).toBe('red');
    expect(subscriptionDotColour({ ...base, status: 'trial_expired' })).toBe('red');
  });
});

describe('isActivePremium', () => {
  it('is true only for a paid, active premium plan', () => {
    expect(isActivePremium(premium)).toBe(true);
    expect(isActivePremium(trial)).toBe(false);
    expect(isActivePremium({ ...premium, hasActiveSubscription: false })).toBe(false);
    expect(isActivePremium(base)).toBe(false);
  });
});
