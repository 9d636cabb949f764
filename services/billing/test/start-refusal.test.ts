import type { StoredSubscription } from '../src/domain/access';
import { mayStartSubscription, startRefusal } from '../src/domain/lifecycle';

const now = new Date('2026-05-10T12:00:00.000Z');
const hour = 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

function stored(overrides: Partial<StoredSubscription>): StoredSubscription {
  return { status: 'active', trialEnd: null, currentPeriodEnd: at(hour), cancelAtPeriodEnd: false, ...overrides };
}

describe('startRefusal (whether a new subscription may start)', () => {
  it('lets a person without a subscription, or with one that has ended, start one', () => {
    expect(startRefusal(null, now)).toBeNull();
    expect(startRefusal(stored({ status: 'canceled' }), now)).toBeNull();
    expect(startRefusal(stored({ status: 'trial_expired' }), now)).toBeNull();
    // A trial whose end has passed without a charge is over, whatever the stored state says.
    expect(startRefusal(stored({ status: 'trialing', trialEnd: at(-hour) }), now)).toBeNull();
  });

  it('refuses while one is trialing or active, cancelled at the period’s end or not', () => {
    expect(startRefusal(stored({ status: 'trialing', trialEnd: at(hour) }), now)).toBe('already_subscribed');
    expect(startRefusal(stored({ status: 'active' }), now)).toBe('already_subscribed');
    expect(startRefusal(stored({ status: 'active', cancelAtPeriodEnd: true }), now)).toBe('already_subscribed');
  });

  it('refuses while a failed payment waits, so its card is changed rather than a second one charged', () => {
    expect(startRefusal(stored({ status: 'payment_failed' }), now)).toBe('payment_failed');
    expect(startRefusal(stored({ status: 'payment_failed', currentPeriodEnd: at(-hour) }), now)).toBe('payment_failed');
    expect(mayStartSubscription(stored({ status: 'payment_failed' }), now)).toBe(false);
    expect(mayStartSubscription(stored({ status: 'canceled' }), now)).toBe(true);
  });
});
