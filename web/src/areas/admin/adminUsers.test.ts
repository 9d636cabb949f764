import {
  authProviderLabel,
  bulkDeletedToast,
  deletedToast,
  emptyStateText,
  pageCount,
  userBadge,
  verifiedPercentage,
} from './adminUsers';

describe('userBadge', () => {
  const verified = '2026-05-01T10:00:00.000Z';

  it('says Unverified for an unverified address, whatever the subscription', () => {
    for (const subscriptionStatus of ['active', 'trialing', 'trial_expired', 'none', 'canceled']) {
      expect(userBadge({ emailVerifiedAt: null, subscriptionStatus }).label).toBe('Unverified');
      expect(userBadge({ subscriptionStatus }).label).toBe('Unverified');
      expect(userBadge({ emailVerifiedAt: '', subscriptionStatus }).label).toBe('Unverified');
    }
  });

  it.each([
    ['active', 'Active', 'success'],
    ['trialing', 'Trial', 'info'],
    ['trial_expired', 'Expired', 'destructive'],
    ['none', 'No subscription', 'secondary'],
    ['payment_failed', 'payment_failed', 'secondary'],
    ['canceled', 'canceled', 'secondary'],
  ])('names a verified user’s %s subscription %s', (subscriptionStatus, label, variant) => {
    expect(userBadge({ emailVerifiedAt: verified, subscriptionStatus })).toEqual({ label, variant });
  });
});

describe('verifiedPercentage', () => {
  it('shows one decimal', () => {
    expect(verifiedPercentage(2, 3)).toBe('66.7%');
    expect(verifiedPercentage(1, 3)).toBe('33.3%');
    expect(verifiedPercentage(1, 8)).toBe('12.5%');
    expect(verifiedPercentage(5, 5)).toBe('100.0%');
    expect(verifiedPercentage(0, 7)).toBe('0.0%');
  });

  it('is 0.0% with no users at all', () => {
    expect(verifiedPercentage(0, 0)).toBe('0.0%');
  });
});

describe('empty states and paging', () => {
  it('tells no users from no matches', () => {
    expect(emptyStateText('', 'all')).toBe('No users found.');
    expect(emptyStateText('  ', 'all')).toBe('No users found.');
    expect(emptyStateText('ada', 'all')).toBe('No users match your search criteria.');
    expect(emptyStateText('', 'trial')).toBe('No users match your search criteria.');
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
  });

  it('names the sign-in providers', () => {
    expect(authProviderLabel('email')).toBe('Email');
    expect(authProviderLabel('google')).toBe('Google');
    expect(authProviderLabel('oidc')).toBe('Single Sign-On');
    expect(authProviderLabel('other')).toBe('other');
  });
});

describe('delete toasts', () => {
  it('adds the payment cleanup text, or says there was none', () => {
    expect(deletedToast({ stripeCleanup: true, message: 'Stripe subscription cancelled.' })).toEqual({
      title: 'User deleted',
      description: 'User has been permanently deleted. Stripe subscription cancelled.',
    });
    expect(deletedToast({ stripeCleanup: false, message: 'whatever' })).toEqual({
      title: 'User deleted',
      description: 'User has been permanently deleted. No Stripe subscription to cancel',
    });
  });

  it('counts users and cancelled subscriptions after a bulk delete', () => {
    expect(bulkDeletedToast({ deleted: 3, stripeCleanup: 0 })).toEqual({
      title: 'Bulk delete completed',
      description: '3 users deleted successfully',
    });
    expect(bulkDeletedToast({ deleted: 3, stripeCleanup: 2 }).description).toBe(
      '3 users deleted successfully, 2 Stripe subscriptions cancelled',
    );
    expect(bulkDeletedToast({ deleted: 1, stripeCleanup: 1 }).description).toBe(
      '1 user deleted successfully, 1 Stripe subscription cancelled',
    );
  });
});
