import { avatarInitial, displayName, memberSince } from './userDisplay';

describe('displayName', () => {
  it('uses the full name, else the first name, else "User"', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(displayName({ firstName: 'Ada', lastName: null })).toBe('Ada');
    expect(displayName({ firstName: null, lastName: 'Lovelace' })).toBe('User');
    expect(displayName({ firstName: '  ', lastName: '' })).toBe('User');
    expect(displayName({})).toBe('User');
  });
});

describe('avatarInitial', () => {
  it('uses the first name, else the e-mail, upper-cased', () => {
    expect(avatarInitial({ firstName: 'ada', email: 'x@example.com' })).toBe('A');
    expect(avatarInitial({ firstName: null, email: 'zed@example.com' })).toBe('Z');
    expect(avatarInitial({})).toBe('U');
  });
});

describe('memberSince', () => {
  it('shows createdAt as a local date', () => {
    const iso = '2025-02-03T10:00:00.000Z';
    expect(memberSince(iso)).toBe(new Date(iso).toLocaleDateString());
  });
  it('shows "Unknown" when missing or invalid', () => {
    expect(memberSince(null)).toBe('Unknown');
    expect(memberSince(undefined)).toBe('Unknown');
    expect(memberSince('')).toBe('Unknown');
    expect(memberSince('not a date')).toBe('Unknown');
  });
});
