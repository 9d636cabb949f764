import { cancellationMailto, subscriptionActions } from './subscriptionCard';
import type { SubscriptionStatusLike } from './subscriptionStatus';

const active: SubscriptionStatusLike = {
  planType: 'premium',
  status: 'active',
  isTrialing: false,
  needsSetup: false,
  hasActiveSubscription: true,
  cancelAtPeriodEnd: false,
};

describe('subscriptionActions', () => {
  it('offers cancel while access is open, reactivate once a cancellation is pending, nothing when lapsed', () => {
    expect(subscriptionActions(active)).toEqual({ cancel: true, reactivate: false });
    expect(subscriptionActions({ ...active, cancelAtPeriodEnd: true })).toEqual({ cancel: false, reactivate: true });
    expect(
      subscriptionActions({ ...active, status: 'trial_expired', hasActiveSubscription: false, needsSetup: true }),
    ).toEqual({ cancel: false, reactivate: false });
  });
});

describe('cancellationMailto', () => {
  it('pre-fills the support e-mail with the account’s address', () => {
    const link = cancellationMailto({ email: 'ann@example.com' }, 'help@example.org');
    expect(link.startsWith('mailto:help@example.org?subject=')).toBe(true);
    expect(decodeURIComponent(link)).toContain('the account ann@example.com');
  });
});
