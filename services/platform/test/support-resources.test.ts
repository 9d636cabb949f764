import { allSupportResources, countryOfTimeZone, crisisCountries, knownCountry, supportResourcesFor } from '../src';
import { CRISIS_COUNTRIES } from '../src/crisis-countries';

const text = (list: ReturnType<typeof supportResourcesFor>) =>
  [...list.resources.map((line) => `${line.name} ${line.action} ${line.href}`), list.emergency].join(' ');

describe('crisis help for a person’s country', () => {
  it('gives a person in the US the 988 Lifeline and 911, and one in the UK Samaritans and 999', () => {
    const us = supportResourcesFor('us');
    expect(us.region).toBe('US');
    expect(text(us)).toContain('tel:988');
    expect(us.emergency).toBe('If your life is in danger, call 911.');
    const uk = supportResourcesFor(' UK ');
    expect(uk.region).toBe('GB');
    expect(text(uk)).toContain('tel:116123');
    expect(uk.emergency).toBe('If your life is in danger, call 999.');
  });

  it('gives a country without a confirmed line the directory and its own emergency number, never a guessed line', () => {
    const withoutLine = CRISIS_COUNTRIES.find((country) => country.lines.length === 0);
    expect(withoutLine).toBeDefined();
    const list = supportResourcesFor(withoutLine!.code);
    expect(list.resources.map((line) => line.href)).toEqual(['https://findahelpline.com']);
    expect(list.emergency).toBe(`If your life is in danger, call ${withoutLine!.emergency.number}.`);
  });

  it('never gives another country’s lines when the country is unknown or not set', () => {
    for (const unknown of [null, undefined, '', 'ZZ', 'international']) {
      const list = supportResourcesFor(unknown);
      expect(list.region).toBe('international');
      expect(list.resources.map((line) => line.href)).toEqual(['https://findahelpline.com']);
      expect(list.emergency).toBe('If your life is in danger, call your local emergency number.');
    }
  });

  it('lists every country once on the help page, the person’s own first and the directory last', () => {
    const lists = allSupportResources('US');
    expect(lists[0]!.region).toBe('US');
    expect(lists.at(-1)!.region).toBe('international');
    expect(new Set(lists.map((list) => list.region)).size).toBe(lists.length);
    expect(lists).toHaveLength(CRISIS_COUNTRIES.length + 1);
    expect(allSupportResources(null)).toHaveLength(CRISIS_COUNTRIES.length + 1);
  });

  it('offers the countries to choose from by name, and accepts only those', () => {
    const names = crisisCountries().map((country) => country.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(knownCountry('gb')).toBe('GB');
    expect(knownCountry('uk')).toBe('GB');
    expect(knownCountry('XX')).toBeNull();
    expect(knownCountry(null)).toBeNull();
  });
});

describe('the country a time zone suggests', () => {
  it('names the country a zone belongs to, in either of its spellings', () => {
    expect(countryOfTimeZone('Europe/London')).toBe('GB');
    expect(countryOfTimeZone('America/New_York')).toBe('US');
    expect(countryOfTimeZone('America/Los_Angeles')).toBe('US');
    expect(countryOfTimeZone('Europe/Paris')).toBe('FR');
  });

  it('suggests nothing for UTC, a zone of no country Haven knows, or something that is no zone', () => {
    expect(countryOfTimeZone('UTC')).toBeNull();
    expect(countryOfTimeZone('Etc/GMT+5')).toBeNull();
    expect(countryOfTimeZone('Antarctica/Troll')).toBeNull();
    expect(countryOfTimeZone('Not/AZone')).toBeNull();
    expect(countryOfTimeZone(null)).toBeNull();
  });
});
