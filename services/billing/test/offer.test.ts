import { subscriptionOfferAt } from '../src/domain/offer';
import { premiumPrice } from '../src/domain/price';

const now = new Date('2026-11-30T09:15:00.000Z');

describe('subscriptionOfferAt', () => {
  it('offers the 3-day trial first: nothing today, the first £4.99 when the trial ends', () => {
    expect(subscriptionOfferAt(true, now)).toEqual({
      trial: true,
      trialDays: 3,
      amountDueToday: 0,
      monthlyAmount: 499,
      currency: 'gbp',
      firstChargeAt: new Date('2026-12-03T09:15:00.000Z'),
    });
  });

  it('charges the first month today when the trial was had', () => {
    expect(subscriptionOfferAt(false, now)).toEqual({
      trial: false,
      trialDays: 0,
      amountDueToday: 499,
      monthlyAmount: 499,
      currency: 'gbp',
      firstChargeAt: now,
    });
  });

  it('states the price the provider charges', () => {
    const offer = subscriptionOfferAt(false, now);
    expect({ amount: offer.monthlyAmount, currency: offer.currency }).toEqual(premiumPrice);
  });
});
