import {
  cancellationConfirmation,
  cancellationMailto,
  cardOnFileLabel,
  cardOnFileLine,
  invoiceAmount,
  invoiceRow,
  invoiceStatusLabel,
  invoiceTexts,
  mayChangeCard,
  subscriptionActions,
} from './subscriptionCard';
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

describe('the card on file', () => {
  const visa = { brand: 'Visa', last4: '4242', expMonth: 3, expYear: 2030 };

  it('reads as on a statement, with a two-digit month', () => {
    expect(cardOnFileLabel(visa)).toBe('Visa ending in 4242, expires 03/2030');
    expect(cardOnFileLabel({ ...visa, expMonth: 12 })).toBe('Visa ending in 4242, expires 12/2030');
  });

  it('names the card that failed, and what changing it does', () => {
    expect(cardOnFileLine(visa, active)).toBe('Card on file: Visa ending in 4242, expires 03/2030.');
    expect(cardOnFileLine(visa, { status: 'payment_failed' })).toMatch(
      /^Your last payment didn't go through on your Visa ending in 4242.+try the payment again straight away\.$/,
    );
  });

  it('may be changed while the subscription runs, not after it lapsed', () => {
    for (const status of ['trialing', 'active', 'payment_failed']) expect(mayChangeCard({ status })).toBe(true);
    for (const status of ['none', 'trial_expired', 'canceled']) expect(mayChangeCard({ status })).toBe(false);
  });
});

describe('invoices', () => {
  it('shows amounts in pounds from pence', () => {
    expect(invoiceAmount(499, 'gbp')).toBe('£4.99');
    expect(invoiceAmount(0, 'gbp')).toBe('£0.00');
    expect(invoiceAmount(5988, 'GBP')).toBe('£59.88');
  });

  it('keeps zero-decimal currencies whole, and shows an unknown code readably', () => {
    expect(invoiceAmount(500, 'jpy')).toBe('JP¥500');
    expect(invoiceAmount(499, 'zz1')).toBe('4.99 ZZ1');
  });

  it('says the status in words', () => {
    expect(invoiceStatusLabel('paid')).toBe('Paid');
    expect(invoiceStatusLabel('open')).toBe('Not paid yet');
    expect(invoiceStatusLabel('uncollectible')).toBe('Not paid');
    expect(invoiceStatusLabel('void')).toBe('Cancelled, nothing to pay');
    expect(invoiceStatusLabel('something_new')).toBe('Something_new');
  });

  it('makes a row with the app’s date format and the hosted link when there is one', () => {
    const formatDate = (date: Date) => date.toISOString().slice(0, 10);
    expect(
      invoiceRow(
        {
          id: 'in_1',
          date: '2026-03-04T10:00:00.000Z',
          amount: 499,
          currency: 'gbp',
          status: 'paid',
          hostedInvoiceUrl: 'https://invoice.stripe.com/i/x',
        },
        formatDate,
      ),
    ).toEqual({
      date: '2026-03-04',
      amount: '£4.99',
      status: 'Paid',
      hostedInvoiceUrl: 'https://invoice.stripe.com/i/x',
    });
    expect(
      invoiceRow(
        { id: 'in_2', date: '2026-04-04T10:00:00.000Z', amount: 499, currency: 'gbp', status: 'open' },
        formatDate,
      ),
    ).toMatchObject({ status: 'Not paid yet', hostedInvoiceUrl: null });
  });

  it('has a gentle line for none yet', () => {
    expect(invoiceTexts.none).toMatch(/^No invoices yet\./);
  });
});
