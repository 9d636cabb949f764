import { asZeroOne, reminderHours, tokenFrom, unsubscribeEmailProblem } from './emailRules';

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
        checkInReminder: false,
      }),
    ).toEqual({
      marketingEmails: 0,
      productUpdates: 1,
      securityNotifications: 1,
      newsletter: 0,
      weeklySummary: 1,
      checkInReminder: 0,
    });
  });

  it('offers every hour of the day for the reminder, on a 24-hour clock', () => {
    expect(reminderHours).toHaveLength(24);
    expect(reminderHours[0]).toEqual({ hour: 0, label: '00:00' });
    expect(reminderHours[19]).toEqual({ hour: 19, label: '19:00' });
  });
});
