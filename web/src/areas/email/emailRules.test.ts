import { asZeroOne, tokenFrom, unsubscribeEmailProblem } from './emailRules';

describe('link tokens', () => {
  it('reads the token of a link', () => {
    expect(tokenFrom('?token=abc_DEF-123')).toBe('abc_DEF-123');
  });
  it('treats a missing or empty token as none', () => {
    expect(tokenFrom('')).toBeNull();
    expect(tokenFrom('?token=')).toBeNull();
    expect(tokenFrom('?token=%20')).toBeNull();
  });
});

describe('the unsubscribe form', () => {
  it('asks for an address first', () => {
    expect(unsubscribeEmailProblem('  ')).toEqual({
      title: 'Email Required',
      description: 'Please enter your email address.',
    });
  });
  it('refuses something that is not an address', () => {
    expect(unsubscribeEmailProblem('not-an-address')?.title).toBe('Invalid Email');
  });
  it('accepts an address', () => {
    expect(unsubscribeEmailProblem('someone@example.com')).toBeNull();
  });
});

describe('the preferences body', () => {
  it('sends each switch as 0 or 1', () => {
    expect(
      asZeroOne({
        marketingEmails: false,
        productUpdates: true,
        securityNotifications: true,
        newsletter: false,
        weeklySummary: true,
      }),
    ).toEqual({ marketingEmails: 0, productUpdates: 1, securityNotifications: 1, newsletter: 0, weeklySummary: 1 });
  });
});
