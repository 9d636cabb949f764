import { noticeForSetupResult, offerTexts, setupNotices } from './paymentSetup';

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

describe('offerTexts', () => {
  it('keeps the spec’s trial wording when the trial is there', () => {
    const texts = offerTexts(true, '£4.99', 3);
    expect(texts.planNote).toBe('3-day free trial included');
    expect(texts.startButton).toBe('Start 3-Day Free Trial');
  });

  it('says there is no trial and that the first month is charged when the card is added', () => {
    const texts = offerTexts(false, '£4.99', 3);
    expect(texts.startButton).toBe('Subscribe for £4.99 a month');
    expect(texts.paymentIntro).toBe(
      '£4.99 is charged to your card as soon as it is added, then every month until you cancel.',
    );
    expect(JSON.stringify(texts)).not.toMatch(/free trial (included|starts)|Nothing is charged/);
    expect(texts.info.join(' ')).toContain('charged to it straight away for your first month');
  });
});
