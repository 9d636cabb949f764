import { paymentFailedTexts, subscriptionPageOffer } from './paymentRecovery';

const status = (status: string, hasActiveSubscription: boolean) => ({ status, hasActiveSubscription });

describe('subscriptionPageOffer', () => {
  it('offers to subscribe only without a running subscription', () => {
    expect(subscriptionPageOffer(status('none', false))).toBe('subscribe');
    expect(subscriptionPageOffer(status('trial_expired', false))).toBe('subscribe');
    expect(subscriptionPageOffer(status('canceled', false))).toBe('subscribe');
    expect(subscriptionPageOffer(status('trialing', true))).toBe('none');
    expect(subscriptionPageOffer(status('active', true))).toBe('none');
  });

  it('offers a new card, never a second subscription, while a payment has failed', () => {
    expect(subscriptionPageOffer(status('payment_failed', false))).toBe('update_card');
  });
});

describe('paymentFailedTexts', () => {
  it('uses the spec’s title and says what saving a card costs', () => {
    const texts = paymentFailedTexts('£4.99');
    expect(texts.title).toBe('Payment Failed');
    expect(texts.happened).toContain('£4.99 could not be processed');
    expect(texts.form.cardButton).toBe('Save card and pay £4.99');
  });
});
