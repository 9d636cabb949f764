import { isVisitorId } from '@haven/platform';
import { choiceProblem, necessaryRefusedMessage, newerChoice } from '../src/domain/consent';

const choice = { necessary: true, analytics: false, marketing: false, preferences: true };

describe('choiceProblem', () => {
  it('accepts any choice with essential cookies on', () => {
    expect(choiceProblem(choice)).toBeNull();
    expect(choiceProblem({ ...choice, analytics: true, marketing: true })).toBeNull();
  });

  it('refuses essential cookies switched off, naming necessary', () => {
    expect(choiceProblem({ ...choice, necessary: false })).toEqual({
      field: 'necessary',
      message: necessaryRefusedMessage,
    });
  });
});

describe('newerChoice (a visitor signs in)', () => {
  const older = { consentGivenAt: new Date('2026-01-01T10:00:00Z'), who: 'older' };
  const newer = { consentGivenAt: new Date('2026-01-02T10:00:00Z'), who: 'newer' };

  it('keeps whichever choice is newer', () => {
    expect(newerChoice(older, newer)).toBe(newer);
    expect(newerChoice(newer, older)).toBe(newer);
  });

  it('keeps the account’s choice on a tie', () => {
    const same = { ...older, who: 'visitor' };
    expect(newerChoice(older, same)).toBe(older);
  });

  it('takes the only choice there is', () => {
    expect(newerChoice(null, older)).toBe(older);
    expect(newerChoice(older, null)).toBe(older);
    expect(newerChoice(null, null)).toBeNull();
  });
});

describe('isVisitorId', () => {
  it('accepts a random UUID and nothing else', () => {
    expect(isVisitorId('3f2b8c1e-9d4a-4c2b-8e1f-0a1b2c3d4e5f')).toBe(true);
    expect(isVisitorId('not-a-uuid')).toBe(false);
    expect(isVisitorId('3F2B8C1E-9D4A-4C2B-8E1F-0A1B2C3D4E5F')).toBe(false);
    expect(isVisitorId(null)).toBe(false);
    expect(isVisitorId('')).toBe(false);
  });
});
