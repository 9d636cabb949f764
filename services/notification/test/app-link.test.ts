import { appLink, helpPageLink } from '../src/domain/email-parts';
import { confirmationLink, oneClickLink } from '../src/domain/newsletter-emails';
import { passwordResetLink } from '../src/domain/security-emails';
import { verificationLink } from '../src/domain/verification-email';

describe("links in e-mails lead to the app's own pages", () => {
  it('keeps the path an app is served under, with or without a trailing slash', () => {
    expect(appLink('https://haven.example/app', 'progress')).toBe('https://haven.example/app/progress');
    expect(appLink('https://haven.example/app/', 'progress')).toBe('https://haven.example/app/progress');
    expect(helpPageLink('https://haven.example')).toBe('https://haven.example/help');
  });

  it('carries the token as a query parameter, encoded', () => {
    const token = 'a+b/c=d&e';
    const link = new URL(appLink('https://haven.example/app', 'verify-email', token));
    expect(link.pathname).toBe('/app/verify-email');
    expect(link.searchParams.get('token')).toBe(token);
  });

  it("gives each e-mail's action its page", () => {
    const appUrl = 'https://haven.example';
    expect(verificationLink(appUrl, 't1')).toBe('https://haven.example/verify-email?token=t1');
    expect(passwordResetLink(appUrl, 't2')).toBe('https://haven.example/reset-password?token=t2');
    expect(confirmationLink(appUrl, 't3')).toBe('https://haven.example/confirm-newsletter?token=t3');
    expect(oneClickLink(appUrl, 't4')).toBe('https://haven.example/hooks/notification/newsletter/one-click?token=t4');
  });
});
