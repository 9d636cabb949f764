import {
  cardChangeSettled,
  changeProcessingTexts,
  noticeForSetupResult,
  offerDate,
  offerTexts,
  planOfferFrom,
  planOfferTexts,
  setupNotices,
  setupSettled,
  vatNote,
} from './paymentSetup';

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

describe('planOfferTexts (from the server’s offer)', () => {
  const firstChargeAt = Date.UTC(2026, 11, 3, 12) / 1000;
  const trialOffer = planOfferFrom(
    { trial: true, trialDays: 3, amountDueToday: 0, monthlyAmount: 499, currency: 'gbp', firstChargeAt },
    () => '3 December',
  );
  const paidOffer = planOfferFrom(
    { trial: false, trialDays: 0, amountDueToday: 499, monthlyAmount: 499, currency: 'gbp', firstChargeAt },
    () => '30 November',
  );

  it('reads the server’s amounts and date as the page shows them', () => {
    expect(trialOffer).toEqual({
      trial: true,
      trialDays: 3,
      price: '£4.99',
      dueToday: '£0.00',
      firstChargeOn: '3 December',
    });
    expect(paidOffer).toMatchObject({ trial: false, price: '£4.99', dueToday: '£4.99' });
  });

  it('keeps the spec’s trial texts and names the day of the first payment', () => {
    const texts = planOfferTexts(trialOffer);
    expect(texts.planNote).toBe('3-day free trial included');
    expect(texts.startButton).toBe('Start 3-Day Free Trial');
    expect(texts.cardButton).toBe('Start Free Trial');
    expect(texts.firstCharge).toBe('Your first payment of £4.99 is on 3 December.');
    expect(texts.info[0]).toContain('Nothing is charged during the trial.');
  });

  it('leaves the date out when it is not known', () => {
    expect(planOfferTexts({ ...trialOffer, firstChargeOn: null }).firstCharge).toBeNull();
  });

  it('says the first payment is today, with no trial promised, when the trial was had', () => {
    const texts = planOfferTexts(paidOffer);
    expect(texts.firstCharge).toBe('Your first payment of £4.99 is today, when you add your card.');
    expect(texts.startButton).toBe('Subscribe for £4.99 a month');
    expect(texts.cardButton).toBe('Subscribe and pay £4.99');
    expect(JSON.stringify(texts)).not.toMatch(/free trial (included|starts)|Nothing is charged/);
  });

  it('says VAT once, plainly, and never inside the offer texts', () => {
    expect(vatNote).toBe('Prices include VAT.');
    expect(JSON.stringify(planOfferTexts(trialOffer))).not.toContain('VAT');
    expect(JSON.stringify(planOfferTexts(paidOffer))).not.toContain('VAT');
  });

  it('names a day by its number and month', () => {
    expect(offerDate(firstChargeAt)).toMatch(/^[1-4] December$/);
  });
});

describe('setupSettled', () => {
  it('ends the wait once the subscription has started or its first payment was tried', () => {
    expect(setupSettled('trialing')).toBe(true);
    expect(setupSettled('active')).toBe(true);
    expect(setupSettled('payment_failed')).toBe(true);
  });

  it('keeps waiting while there is no subscription yet', () => {
    expect(setupSettled('none')).toBe(false);
    expect(setupSettled('trial_expired')).toBe(false);
    expect(setupSettled(null)).toBe(false);
  });
});

describe('a card change the provider is still confirming', () => {
  it('waits only while the new card is processing', () => {
    expect(cardChangeSettled('processing')).toBe(false);
    expect(cardChangeSettled(null)).toBe(true);
    expect(cardChangeSettled('requires_action')).toBe(true);
  });

  it('says the current card stays on file until the new one is confirmed', () => {
    expect(changeProcessingTexts.body).toContain('Your current card stays on file until then');
    expect(changeProcessingTexts.pending).toContain('Your current card stays on file until then');
  });
});
