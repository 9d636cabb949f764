import { crisisLinesFor, guessCrisisRegion } from './crisisLines';

describe('crisis lines', () => {
  it('guesses the visitor’s country from the time zone, then the language', () => {
    expect(guessCrisisRegion('Europe/London', 'en-US')).toBe('GB');
    expect(guessCrisisRegion('America/Chicago', 'en-US')).toBe('US');
    expect(guessCrisisRegion('UTC', 'en-GB')).toBe('GB');
    expect(guessCrisisRegion('Europe/Berlin', 'de-DE')).toBe('other');
    expect(guessCrisisRegion(undefined, undefined)).toBe('other');
  });

  it('puts the visitor’s lines first and keeps every other line', () => {
    expect(crisisLinesFor('US').map((line) => line.region)).toEqual(['US', 'GB', 'other']);
    expect(crisisLinesFor('other').map((line) => line.region)).toEqual(['other', 'GB', 'US']);
  });

  it('says what VOICE.md lists, and nothing else', () => {
    const text = crisisLinesFor('GB')
      .map((line) => line.text)
      .join(' ');
    expect(text).toContain('116 123');
    expect(text).toContain('85258');
    expect(text).toContain('988');
  });
});
