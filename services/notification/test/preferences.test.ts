import { defaultEmailPreferences, withDefaults } from '../src/domain/preferences';

describe('e-mail preferences', () => {
  it("default to the spec's choices (marketing off, product updates on, security on, newsletter off), weekly summary off", () => {
    const expected = {
      marketingEmails: false,
      productUpdates: true,
      securityNotifications: true,
      newsletter: false,
      weeklySummary: false,
      checkInReminder: false,
    };
    expect(defaultEmailPreferences).toEqual(expected);
    expect(withDefaults(null)).toEqual(expected);
    expect(withDefaults(undefined)).toEqual(expected);
    expect(withDefaults({})).toEqual(expected);
  });

  it('keep what the user saved and fill in the rest', () => {
    expect(withDefaults({ marketingEmails: true })).toEqual({
      marketingEmails: true,
      productUpdates: true,
      securityNotifications: true,
      newsletter: false,
      weeklySummary: false,
      checkInReminder: false,
    });
    expect(withDefaults({ productUpdates: false, newsletter: true })).toEqual({
      marketingEmails: false,
      productUpdates: false,
      securityNotifications: true,
      newsletter: true,
      weeklySummary: false,
      checkInReminder: false,
    });
  });

  it('honour a full set of saved choices', () => {
    const saved = {
      marketingEmails: true,
      productUpdates: false,
      securityNotifications: false,
      newsletter: true,
      weeklySummary: true,
      checkInReminder: true,
    };
    expect(withDefaults(saved)).toEqual(saved);
  });

  it("never let one user's choices change the defaults another user gets", () => {
    const mine = withDefaults(null);
    mine.marketingEmails = true;
    withDefaults({ newsletter: true });
    expect(withDefaults(null)).toEqual({
      marketingEmails: false,
      productUpdates: true,
      securityNotifications: true,
      newsletter: false,
      weeklySummary: false,
      checkInReminder: false,
    });
    expect(Object.isFrozen(defaultEmailPreferences)).toBe(true);
  });
});
