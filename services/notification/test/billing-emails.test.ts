import { renderBillingEmail, formatAmount } from '../src/events/billing-emails';
import { mayReceive } from '../src/domain/email-kinds';

const person = { productName: 'Haven', appUrl: 'https://haven.example/', firstName: 'Dana', trialEnd: null };
const allOff = {
  newsletter: false,
  productUpdates: false,
  marketingEmails: false,
  weeklySummary: false,
  checkInReminder: false,
  securityNotifications: false,
};

describe('billing e-mails about a cancellation, a reactivation and a charge', () => {
  it('tells a cancelled trial the day it ends and that nothing is charged, and how to change their mind', () => {
    const email = renderBillingEmail('billing-cancelled', {
      ...person,
      trialing: true,
      accessEnds: new Date('2026-12-03T09:30:00Z'),
    });
    expect(email.subject).toBe('Your Haven Premium subscription is cancelled');
    expect(email.text).toContain('Your free trial stays open until 3 December 2026, and you will not be charged.');
    expect(email.text).toContain('reactivate in Settings any time before 3 December 2026');
    expect(email.text).toContain('https://haven.example/settings');
  });

  it('tells a cancelled paid plan it stays open until the period’s end, with no further charge', () => {
    const email = renderBillingEmail('billing-cancelled', {
      ...person,
      trialing: false,
      accessEnds: new Date('2027-01-31T00:00:00Z'),
    });
    expect(email.text).toContain('Premium stays open until 31 January 2027, and you will not be charged again.');
  });

  it('confirms a reactivation with what happens next, in the trial and after it', () => {
    const inTrial = renderBillingEmail('billing-reactivated', {
      ...person,
      trialing: true,
      trialEnd: new Date('2026-12-03T09:30:00Z'),
    });
    expect(inTrial.subject).toBe('Your Haven Premium subscription is back on');
    expect(inTrial.text).toContain('Your free trial continues until 3 December 2026');
    const paid = renderBillingEmail('billing-reactivated', {
      ...person,
      trialing: false,
      currentPeriodEnd: new Date('2027-01-03T09:30:00Z'),
    });
    expect(paid.text).toContain('Premium renews on 3 January 2027 at £4.99 a month');
  });

  it('gives a receipt with the amount including VAT, the date, the plan and the next payment', () => {
    const email = renderBillingEmail('billing-receipt', {
      ...person,
      currentPeriodEnd: new Date('2027-01-03T09:30:00Z'),
      charge: {
        amountMinor: 499,
        currency: 'gbp',
        planName: 'Haven Premium',
        chargedAt: new Date('2026-12-03T09:31:00Z'),
      },
    });
    expect(email.subject).toBe('Your Haven receipt: £4.99');
    expect(email.text).toContain('Plan: Haven Premium, monthly');
    expect(email.text).toContain('Amount: £4.99 (including VAT)');
    expect(email.text).toContain('Date: 3 December 2026');
    expect(email.text).toContain('Your next payment is on 3 January 2027');
    expect(email.html).toContain('Amount: £4.99 (including VAT)');
  });

  it('says the card was changed, where the next payment goes, and what to do if it was not the person', () => {
    const inTrial = renderBillingEmail('billing-card-updated', {
      ...person,
      trialing: true,
      trialEnd: new Date('2026-12-03T09:30:00Z'),
    });
    expect(inTrial.subject).toBe('Your Haven card has been changed');
    expect(inTrial.text).toContain('Nothing is charged during your free trial; from 3 December 2026, Premium is £4.99');
    const paid = renderBillingEmail('billing-card-updated', {
      ...person,
      trialing: false,
      currentPeriodEnd: new Date('2027-01-03T09:30:00Z'),
    });
    expect(paid.text).toContain('Your next payment, on 3 January 2027, goes to the new card.');
    expect(paid.text).toContain('If you did not make this change, please change your password');
  });

  it('says a subscription has ended, that nothing more is charged, that the journal stays, and how to come back', () => {
    const email = renderBillingEmail('billing-ended', person);
    expect(email.subject).toBe('Your Haven Premium subscription has ended');
    expect(email.text).toContain('nothing more will be charged');
    expect(email.text).toContain('Your check-ins, notes and saved quotes stay in your account');
    expect(email.text).toContain('/subscription');
    expect(email.html).toContain('View my subscription');
  });

  it('formats amounts from the minor unit', () => {
    expect(formatAmount(499, 'gbp')).toBe('£4.99');
    expect(formatAmount(1000, 'GBP')).toBe('£10.00');
  });

  it('are sent whatever the e-mail switches say', () => {
    for (const kind of [
      'billing-cancelled',
      'billing-reactivated',
      'billing-receipt',
      'billing-card-updated',
      'billing-ended',
    ] as const) {
      expect(mayReceive(kind, allOff)).toBe(true);
    }
  });
});
