import { subscriptionStatusOf, type StoredSubscription } from '../src/domain/access';

const now = new Date('2026-05-10T12:00:00.000Z');
const hour = 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

function stored(overrides: Partial<StoredSubscription>): StoredSubscription {
  return { status: 'active', trialEnd: null, currentPeriodEnd: null, cancelAtPeriodEnd: false, ...overrides };
}

describe('subscriptionStatusOf', () => {
  it('sends a user without a subscription to set one up, with no access', () => {
    expect(subscriptionStatusOf(null, now)).toEqual({
      planType: 'free',
      status: 'none',
      isTrialing: false,
      needsSetup: true,
      hasActiveSubscription: false,
      trialEnd: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
    });
  });

  it('gives a trial before its end full access as a trial', () => {
    const view = subscriptionStatusOf(stored({ status: 'trialing', trialEnd: at(72 * hour) }), now);
    expect(view).toMatchObject({
      planType: 'trial',
      status: 'trialing',
      isTrialing: true,
      needsSetup: false,
      hasActiveSubscription: true,
    });
  });

  it('treats a trial whose end has passed as expired, whatever was last stored', () => {
    const view = subscriptionStatusOf(stored({ status: 'trialing', trialEnd: at(-1) }), now);
    expect(view).toMatchObject({
      planType: 'free',
      status: 'trial_expired',
      isTrialing: false,
      needsSetup: true,
      hasActiveSubscription: false,
    });
  });

  it('ends the trial at its end instant, not a moment later', () => {
    expect(subscriptionStatusOf(stored({ status: 'trialing', trialEnd: at(1) }), now).hasActiveSubscription).toBe(true);
    expect(subscriptionStatusOf(stored({ status: 'trialing', trialEnd: now }), now)).toMatchObject({
      status: 'trial_expired',
      hasActiveSubscription: false,
    });
  });

  it('gives an active subscription premium access', () => {
    const view = subscriptionStatusOf(stored({ status: 'active', currentPeriodEnd: at(30 * 24 * hour) }), now);
    expect(view).toMatchObject({
      planType: 'premium',
      status: 'active',
      isTrialing: false,
      needsSetup: false,
      hasActiveSubscription: true,
    });
  });

  it.each(['canceled', 'payment_failed', 'trial_expired'] as const)(
    'denies access when %s, naming the reason in status',
    (status) => {
      const view = subscriptionStatusOf(stored({ status, trialEnd: at(-hour), currentPeriodEnd: at(-hour) }), now);
      expect(view).toMatchObject({
        planType: 'free',
        status,
        isTrialing: false,
        needsSetup: true,
        hasActiveSubscription: false,
      });
    },
  );

  it('passes through a cancellation scheduled for the end of the period, keeping access until then', () => {
    const view = subscriptionStatusOf(
      stored({ status: 'active', currentPeriodEnd: at(5 * 24 * hour), cancelAtPeriodEnd: true }),
      now,
    );
    expect(view.cancelAtPeriodEnd).toBe(true);
    expect(view.hasActiveSubscription).toBe(true);
    expect(subscriptionStatusOf(stored({ status: 'active' }), now).cancelAtPeriodEnd).toBe(false);
  });

  it('reports trial and period ends in whole epoch seconds (rounded down)', () => {
    const trialEnd = new Date('2026-05-13T12:00:00.999Z');
    const currentPeriodEnd = new Date('2026-06-13T12:00:00.000Z');
    const view = subscriptionStatusOf(stored({ status: 'trialing', trialEnd, currentPeriodEnd }), now);
    expect(view.trialEnd).toBe(Date.UTC(2026, 4, 13, 12, 0, 0) / 1000);
    expect(view.currentPeriodEnd).toBe(Date.UTC(2026, 5, 13, 12, 0, 0) / 1000);
    expect(Number.isInteger(view.trialEnd)).toBe(true);
  });

  it('keeps the trial end of an expired trial, so the user can be told when it ended', () => {
    const trialEnd = new Date('2026-05-09T08:30:00.000Z');
    expect(subscriptionStatusOf(stored({ status: 'trialing', trialEnd }), now).trialEnd).toBe(
      Date.UTC(2026, 4, 9, 8, 30) / 1000,
    );
  });

  it('reports missing dates as null', () => {
    const view = subscriptionStatusOf(stored({ status: 'active' }), now);
    expect(view.trialEnd).toBeNull();
    expect(view.currentPeriodEnd).toBeNull();
  });
});
