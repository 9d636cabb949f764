import { noticeForSetupResult, setupNotices } from './paymentSetup';

describe('noticeForSetupResult', () => {
  it('goes on when the setup succeeded', () => {
    expect(noticeForSetupResult({ status: 'succeeded' })).toBeNull();
  });

  it('shows the provider’s message when it gave one', () => {
    expect(noticeForSetupResult({ status: 'requires_payment_method', message: 'Your card was declined.' })).toEqual({
      title: 'Payment Failed',
      description: 'Your card was declined.',
      variant: 'destructive',
    });
  });

  it('says "Setup Incomplete" for any other status', () => {
    expect(noticeForSetupResult({ status: 'processing' })).toEqual(setupNotices.incomplete);
    expect(setupNotices.incomplete.description).toBe('Please complete the payment setup process.');
  });

  it('has the spec’s welcome and fallback texts', () => {
    expect(setupNotices.welcome.description).toBe('Your 3-day free trial has started.');
    expect(setupNotices.fallback).toEqual({
      title: 'Payment Method Added',
      description: 'Setting up your subscription...',
    });
  });
});
