import { ACCEPT_ALL, ESSENTIAL_ONLY, bannerShouldShow, consentOutcome, consentSummary } from './consentRules';

describe('consentOutcome', () => {
  it('counts all three optional categories on as accepting all', () => {
    expect(consentOutcome(ACCEPT_ALL)).toBe('accept_all');
  });

  it('counts all off as declining all', () => {
    expect(consentOutcome(ESSENTIAL_ONLY)).toBe('decline_all');
  });

  it.each([
    { analytics: true, marketing: false, preferences: false },
    { analytics: false, marketing: true, preferences: false },
    { analytics: false, marketing: false, preferences: true },
    { analytics: true, marketing: true, preferences: false },
    { analytics: false, marketing: true, preferences: true },
  ])('counts anything in between as custom: %j', (choice) => {
    expect(consentOutcome(choice)).toBe('custom');
  });
});

describe('bannerShouldShow', () => {
  const enabled = { cookieBannerEnabled: true };
  it('shows when enabled and the server has no choice (404)', () => {
    expect(bannerShouldShow(enabled, null)).toBe(true);
  });
  it('shows when the record has no time', () => {
    expect(bannerShouldShow(enabled, { consentGivenAt: null })).toBe(true);
    expect(bannerShouldShow(enabled, {})).toBe(true);
  });
  it('stays hidden once a choice with a time exists', () => {
    expect(bannerShouldShow(enabled, { consentGivenAt: '2026-05-01T10:00:00.000Z' })).toBe(false);
  });
  it('stays hidden when the deployment turns the banner off', () => {
    expect(bannerShouldShow({ cookieBannerEnabled: false }, null)).toBe(false);
  });
});

describe('consentSummary', () => {
  it('names the outcome', () => {
    expect(consentSummary(ACCEPT_ALL)).toBe('All cookies allowed');
    expect(consentSummary(ESSENTIAL_ONLY)).toBe('Essential cookies only');
    expect(consentSummary({ analytics: true, marketing: false, preferences: true })).toBe(
      'Essential cookies, plus analytics and preference cookies',
    );
  });
});
