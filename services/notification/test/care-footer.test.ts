import { renderBillingEmail } from '../src/events/billing-emails';
import { emailKinds, whySent, type EmailKind } from '../src/domain/email-kinds';
import { careFooterText, escapeHtml, helpPageLink, type RenderedEmail } from '../src/domain/email-parts';
import { renderConfirmationEmail, renderNewsletterEmail } from '../src/domain/newsletter-emails';
import {
  renderEmailChangedEmail,
  renderPasswordChangedEmail,
  renderPasswordResetEmail,
  renderSignInMethodLinkedEmail,
} from '../src/domain/security-emails';
import { renderVerificationEmail } from '../src/domain/verification-email';
import { renderCheckInReminderEmail } from '../src/domain/check-in-reminders';

const appUrl = 'https://haven.example/app';
const person = { productName: 'Haven', appUrl, firstName: 'Dana' };
/**
 * Every kind with a footer, rendered. Not here: the weekly summary, which lists every country's lines itself
 * (weekly-summary.test.ts), the product-update and marketing kinds, declared for their switches but never sent, and
 * the newsletter's test copy, which is the newsletter above exactly as its subscribers get it, footer and all.
 */
const emails: Partial<Record<EmailKind, RenderedEmail>> = {
  'verify-email': renderVerificationEmail({ ...person, token: 'token' }),
  'verify-new-email': renderVerificationEmail({ ...person, token: 'token', kind: 'verify-new-email' }),
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
  'billing-ended': renderBillingEmail('billing-ended', { ...person, trialEnd: null }),
  'billing-card-updated': renderBillingEmail('billing-card-updated', {
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
  'check-in-reminder': renderCheckInReminderEmail({ productName: 'Haven', appUrl, hour: 7, stopToken: 'token' }),
};

describe('the footer every e-mail ends with', () => {
  it('links the "Need help now?" page below the app’s own path', () => {
    expect(helpPageLink(appUrl)).toBe('https://haven.example/app/help');
    expect(helpPageLink(`${appUrl}/`)).toBe('https://haven.example/app/help');
  });

  it.each(Object.entries(emails))(
    '%s: says Haven is not therapy and where help is, in both parts, with no one country’s number',
    (kind, email) => {
      if (!email) throw new Error('no e-mail rendered');
      expect(email.text.trimEnd().endsWith(careFooterText('Haven', appUrl, kind as EmailKind))).toBe(true);
      expect(email.html).toContain('is a wellness companion, not therapy.');
      expect(email.html).toContain('<a href="https://haven.example/app/help">');
      // A reader anywhere may open it: a crisis number for the wrong country is worse than none.
      for (const number of ['988', '116 123', '85258', '999', '911', '112']) {
        expect(`${email.text}\n${email.html}`).not.toContain(number);
      }
    },
  );

  it.each(Object.entries(emails))('%s: says why it came and leads to the e-mail preferences', (kind, email) => {
    if (!email) throw new Error('no e-mail rendered');
    const why = whySent[kind as EmailKind];
    expect(email.text).toContain(`${why} Choose which emails you get: https://haven.example/app/email-preferences`);
    expect(email.html).toContain(
      `${escapeHtml(why)} <a href="https://haven.example/app/email-preferences">Choose which emails you get</a>.`,
    );
  });

  it('tells the kinds that always go that no switch stops them, and the switchable ones which switch', () => {
    const always = Object.keys(emails).filter((kind) => emailKinds[kind as EmailKind] === 'always');
    for (const kind of always.filter((each) => each.startsWith('billing-'))) {
      expect(whySent[kind as EmailKind]).toMatch(/sent whatever your email preferences say/);
    }
    for (const kind of ['password-changed', 'email-changed', 'sign-in-method-linked'] as const) {
      expect(whySent[kind]).toMatch(/security notices are on in your email preferences/);
    }
  });

  it('covers every kind the mailer takes, but the four named above', () => {
    const covered = new Set([
      ...Object.keys(emails),
      'weekly-summary',
      'product-update',
      'marketing',
      'newsletter-test',
    ]);
    expect(Object.keys(emailKinds).filter((kind) => !covered.has(kind))).toEqual([]);
  });
});
