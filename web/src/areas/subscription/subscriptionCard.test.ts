import { cancellationConfirmation, cancellationMailto, subscriptionActions } from './subscriptionCard';
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

describe('cancellationConfirmation', () => {
  const formatDate = (epochSeconds: number) => `day ${epochSeconds}`;

  it('names the trial’s end and says nothing is charged', () => {
    const text = cancellationConfirmation(
      { ...active, planType: 'trial', status: 'trialing', isTrialing: true, trialEnd: 100, currentPeriodEnd: 100 },
      formatDate,
    );
    expect(text.title).toBe('Cancel your subscription?');
    expect(text.description).toContain('your free trial stays open until day 100, and you will not be charged.');
    expect(text.description).toContain('open an e-mail to our support team');
  });

  it('names the paid period’s end, and says when it is not known', () => {
    expect(cancellationConfirmation({ ...active, currentPeriodEnd: 200 }, formatDate).description).toContain(
      'Premium stays open until day 200, and you will not be charged again.',
    );
    expect(cancellationConfirmation({ ...active, currentPeriodEnd: null }, formatDate).description).toContain(
      'until the end of your current period',
    );
  });
});
