import { renderBillingEmail } from '../src/events/billing-emails';
import { emailKinds, type EmailKind } from '../src/domain/email-kinds';
import { careFooterText, helpPageLink, type RenderedEmail } from '../src/domain/email-parts';
import { renderConfirmationEmail, renderNewsletterEmail } from '../src/domain/newsletter-emails';
import {
  renderEmailChangedEmail,
  renderPasswordChangedEmail,
  renderPasswordResetEmail,
  renderSignInMethodLinkedEmail,
} from '../src/domain/security-emails';
import { renderVerificationEmail } from '../src/domain/verification-email';

const appUrl = 'https://haven.example/app';
const person = { productName: 'Haven', appUrl, firstName: 'Dana' };
/**
 * Every kind with a footer, rendered. Not here: the weekly summary, which lists every country's lines itself
 * (weekly-summary.test.ts), and the product-update and marketing kinds, declared for their switches but never sent.
 */
const emails: Partial<Record<EmailKind, RenderedEmail>> = {
  'verify-email': renderVerificationEmail({ ...person, token: 'token' }),
  'verify-new-email': renderVerificationEmail({ ...person, token: 'token' }),
  'password-reset': renderPasswordResetEmail({ ...person, token: 'token' }),
  'password-changed': renderPasswordChangedEmail(person),
  'email-changed': renderEmailChangedEmail({ ...person, newEmail: 'new@example.com' }),
  'sign-in-method-linked': renderSignInMethodLinkedEmail({ ...person, providerName: 'Google' }),
  'newsletter-confirmation': renderConfirmationEmail({ productName: 'Haven', appUrl, token: 'token' }),
  newsletter: renderNewsletterEmail({
    productName: 'Haven',
    appUrl,
    subject: 'News',
    safeHtml: '<p>Hello</p>',
    unsubscribeToken: 'token',
  }),
  'billing-welcome': renderBillingEmail('billing-welcome', { ...person, trialEnd: new Date('2026-12-01') }),
  'billing-trial-ending': renderBillingEmail('billing-trial-ending', { ...person, trialEnd: new Date('2026-12-01') }),
  'billing-payment-failed': renderBillingEmail('billing-payment-failed', { ...person, trialEnd: null }),
  'billing-cancelled': renderBillingEmail('billing-cancelled', {
    ...person,
    trialEnd: null,
    accessEnds: new Date('2026-12-01'),
  }),
  'billing-reactivated': renderBillingEmail('billing-reactivated', {
    ...person,
    trialEnd: null,
    currentPeriodEnd: new Date('2026-12-01'),
  }),
  'billing-receipt': renderBillingEmail('billing-receipt', {
    ...person,
    trialEnd: null,
    currentPeriodEnd: new Date('2026-12-01'),
    charge: { amountMinor: 499, currency: 'gbp', planName: 'Haven Premium', chargedAt: new Date('2026-11-01') },
  }),
};

describe('the care line every e-mail ends with', () => {
  it('links the "Need help now?" page below the app’s own path', () => {
    expect(helpPageLink(appUrl)).toBe('https://haven.example/app/help');
    expect(helpPageLink(`${appUrl}/`)).toBe('https://haven.example/app/help');
  });

  it.each(Object.entries(emails))(
    '%s: says Haven is not therapy and where help is, in both parts, with no one country’s number',
    (_kind, email) => {
      if (!email) throw new Error('no e-mail rendered');
      expect(email.text.trimEnd().endsWith(careFooterText('Haven', appUrl))).toBe(true);
      expect(email.html).toContain('is a wellness companion, not therapy.');
      expect(email.html).toContain('<a href="https://haven.example/app/help">');
      // A reader anywhere may open it: a crisis number for the wrong country is worse than none.
      for (const number of ['988', '116 123', '85258', '999', '911', '112']) {
        expect(`${email.text}\n${email.html}`).not.toContain(number);
      }
    },
  );

  it('covers every kind the mailer takes, but the three named above', () => {
    const covered = new Set([...Object.keys(emails), 'weekly-summary', 'product-update', 'marketing']);
    expect(Object.keys(emailKinds).filter((kind) => !covered.has(kind))).toEqual([]);
  });
});
