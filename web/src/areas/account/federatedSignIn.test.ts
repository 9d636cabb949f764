import { BRAND } from '../../brand';
import { federatedSignInNotice, federatedSignInStart, pendingLink, signInMethodLine } from './federatedSignIn';

const params = (query: string) => new URLSearchParams(query);

describe('federatedSignInNotice', () => {
  it('says nothing when the URL is not about a provider sign-in', () => {
    expect(federatedSignInNotice(params(''))).toBeNull();
    expect(federatedSignInNotice(params('signin=maybe&provider=google'))).toBeNull();
  });

  it('keeps the words for a provider that is not configured', () => {
    expect(federatedSignInNotice(params('signin=unavailable&provider=google'))).toEqual({
      title: 'Login failed',
      description: 'Google sign-in is not available yet. Please use your email and password.',
    });
    expect(federatedSignInNotice(params('signin=unavailable&provider=platform'))?.description).toBe(
      `${BRAND.hostedSignInName} sign-in is not available yet. Please use your email and password.`,
    );
  });

  it('has a sentence for each reason, naming the provider', () => {
    const say = (reason: string) =>
      federatedSignInNotice(params(`signin=failed&provider=google&reason=${reason}`))?.description;
    expect(say('denied')).toBe(
      'Google sign-in was cancelled, so nothing changed. You can try again, or use your email and password.',
    );
    expect(say('expired')).toBe(
      'That sign-in expired or was started in another browser. Please start again from this page.',
    );
    expect(say('account_exists')).toContain('use "Forgot password?" to set a password and then link Google');
    expect(say('no_email')).toContain('Google did not share your email address');
    expect(say('unreachable')).toBe('We could not reach Google just now. Please try again in a moment.');
    expect(say('something-new')).toBe(
      'We could not sign you in with Google. Nothing changed. Please try again, or use your email and password.',
    );
  });

  it('never shows text from the URL: an unknown provider is not named', () => {
    const notice = federatedSignInNotice(params('signin=failed&provider=<b>Evil</b>&reason=unknown_provider'));
    expect(notice?.description).not.toContain('Evil');
  });
});

describe('pendingLink', () => {
  it('reads a well-formed token and names the provider', () => {
    const token = 'A'.repeat(43);
    expect(pendingLink(params(`link=${token}&provider=google`))).toEqual({ token, providerName: 'Google' });
    expect(pendingLink(params(`link=${token}&provider=platform`))?.providerName).toBe(BRAND.hostedSignInName);
  });

  it('ignores anything that cannot be a token', () => {
    expect(pendingLink(params('link=short'))).toBeNull();
    expect(pendingLink(params('link=has spaces in it and more than twenty'))).toBeNull();
    expect(pendingLink(params(''))).toBeNull();
  });
});

describe('federatedSignInStart', () => {
  it('tells the start route the browser’s time zone, encoded, and nothing when there is none', () => {
    expect(federatedSignInStart('/api/auth/google', 'America/Argentina/Buenos_Aires')).toBe(
      '/api/auth/google?timeZone=America%2FArgentina%2FBuenos_Aires',
    );
    expect(federatedSignInStart('/api/login', undefined)).toBe('/api/login');
  });
});

describe('signInMethodLine', () => {
  it('names the password plainly, and a provider with the address it gave and the day it was linked', () => {
    expect(signInMethodLine({ kind: 'PASSWORD', email: null, linkedAt: null })).toEqual({
      name: 'Email and password',
      detail: null,
    });
    const linkedAt = '2026-11-03T10:00:00.000Z';
    expect(signInMethodLine({ kind: 'GOOGLE', email: 'robin@example.com', linkedAt })).toEqual({
      name: 'Google',
      detail: `robin@example.com, linked ${new Date(linkedAt).toLocaleDateString()}`,
    });
    expect(signInMethodLine({ kind: 'PLATFORM', email: null, linkedAt: 'not a date' })).toEqual({
      name: BRAND.hostedSignInName,
      detail: null,
    });
  });
});
