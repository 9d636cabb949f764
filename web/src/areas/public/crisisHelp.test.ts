import { guessedCountry } from './crisisHelp';

describe('the visitor’s country for crisis help', () => {
  it('follows the browser’s time zone first, then its language’s region', () => {
    expect(guessedCountry('Europe/London', 'en-US')).toBe('GB');
    expect(guessedCountry('America/Chicago', 'en-US')).toBe('US');
    expect(guessedCountry('Europe/Paris', 'en-US')).toBe('FR');
    expect(guessedCountry('UTC', 'en-GB')).toBe('GB');
    expect(guessedCountry('UTC', 'en-US')).toBe('US');
  });

  it('suggests nothing when neither says a country Haven has help for', () => {
    expect(guessedCountry('UTC', 'en')).toBeNull();
    expect(guessedCountry(undefined, undefined)).toBeNull();
    expect(guessedCountry('Not/AZone', 'xx-ZZ')).toBeNull();
  });
});
