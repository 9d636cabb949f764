import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { countryHelp, helplineDirectory } from '../src/crisis-resources';
import {
  allSupportResources,
  countryOfTimeZone,
  countryOfRequest,
  countryProblem,
  guessCountry,
  supportResourcesFor,
} from '../src/support-resources';

const day = /^\d{4}-\d{2}-\d{2}$/;
const repository = join(__dirname, '..', '..', '..');

describe('the crisis-resource dataset', () => {
  it('has an emergency number for at least 60 countries, each with its source and the day it was checked', () => {
    expect(countryHelp.length).toBeGreaterThanOrEqual(60);
    expect(new Set(countryHelp.map((help) => help.code)).size).toBe(countryHelp.length);
    for (const help of countryHelp) {
      expect([help.code, /^[A-Z]{2}$/.test(help.code)]).toEqual([help.code, true]);
      expect([help.code, help.emergency.number]).toEqual([help.code, expect.stringMatching(/^\d{3,5}$/)]);
      expect([help.code, help.emergency.source]).toEqual([help.code, expect.stringMatching(/^https:\/\//)]);
      expect([help.code, help.emergency.checked]).toEqual([help.code, expect.stringMatching(day)]);
    }
  });

  it('offers a line as a call or text link only with the source it was confirmed from and the day', () => {
    const lines = countryHelp.flatMap((help) => help.lines.map((line) => ({ country: help.code, ...line })));
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) {
      expect(line.href).toMatch(/^(tel:\d+|sms:\d+(\?body=\w+)?|https:\/\/\S+)$/);
      expect(line.source).toMatch(/^https:\/\//);
      expect(line.checked).toMatch(day);
      expect(new Date(line.checked).getTime()).toBeLessThanOrEqual(Date.now());
    }
  });

  it('places every time zone it lists in one country, and every zone is one a browser can report', () => {
    const zones = countryHelp.flatMap((help) => help.timeZones);
    expect(new Set(zones).size).toBe(zones.length);
    for (const zone of zones) expect(() => new Intl.DateTimeFormat('en', { timeZone: zone })).not.toThrow();
    expect(countryOfTimeZone('Europe/London')).toBe('GB');
    expect(countryOfTimeZone('America/Chicago')).toBe('US');
    expect(countryOfTimeZone('America/Toronto')).toBe('CA');
    expect(countryOfTimeZone('UTC')).toBeNull();
  });

  it('guesses a country from the browser: the time zone first, then the language, never a default', () => {
    expect(guessCountry('Europe/London', 'en-US')).toBe('GB');
    expect(guessCountry('America/Chicago', 'en-US')).toBe('US');
    expect(guessCountry('UTC', 'en-GB')).toBe('GB');
    expect(guessCountry('UTC', 'en-AU')).toBe('AU');
    expect(guessCountry('UTC', 'fr')).toBeNull();
    expect(guessCountry(undefined, undefined)).toBeNull();
  });

  it('puts a request’s country first from the person’s pick in the cookie, else the first known language region', () => {
    expect(countryOfRequest('GB', 'en-US,en;q=0.9')).toBe('GB');
    expect(countryOfRequest('uk', undefined)).toBe('GB');
    // "Somewhere else" (ZZ) and an unknown pick are no country, and no language overrides the pick.
    expect(countryOfRequest('ZZ', 'en-US')).toBeNull();
    expect(countryOfRequest('not-a-country', 'en-US')).toBeNull();
    expect(countryOfRequest(null, 'fr, de-DE;q=0.8, en-US;q=0.5')).toBe('DE');
    expect(countryOfRequest(undefined, 'en-us')).toBe('US');
    expect(countryOfRequest(null, 'fr, en')).toBeNull();
    expect(countryOfRequest(null, undefined)).toBeNull();
  });

  it('gives each country its own lines, or the directory and its emergency number; never another country’s', () => {
    expect(supportResourcesFor('GB')).toMatchObject({
      region: 'GB',
      place: 'United Kingdom',
      resources: [{ name: 'Samaritans' }, { name: 'Shout' }],
      emergency: 'If your life is in danger, call 999.',
    });
    expect(supportResourcesFor('uk').region).toBe('GB');
    expect(supportResourcesFor('US')).toMatchObject({
      resources: [{ name: '988 Suicide & Crisis Lifeline', href: 'tel:988' }],
      emergency: 'If your life is in danger, call 911.',
    });
    expect(supportResourcesFor('JP')).toMatchObject({
      resources: [{ href: helplineDirectory.href }],
      emergency: 'If your life is in danger, call 119.',
    });
    for (const unknown of [null, undefined, 'FJ', '']) {
      expect(supportResourcesFor(unknown)).toMatchObject({
        region: 'international',
        resources: [{ href: helplineDirectory.href }],
        emergency: 'If your life is in danger, call your local emergency number.',
      });
    }
  });

  it('lists every country for the help page, the person’s first and “Anywhere else” last', () => {
    const lists = allSupportResources('US');
    expect(lists).toHaveLength(countryHelp.length + 1);
    expect(lists[0]!.region).toBe('US');
    expect(lists.at(-1)!.region).toBe('international');
    expect(new Set(lists.map((list) => list.region)).size).toBe(lists.length);
    expect(allSupportResources(null)[0]!.place).toBe('Andorra');
  });

  it('takes a country as two letters, and names the field otherwise', () => {
    expect(countryProblem(undefined)).toBeNull();
    expect(countryProblem('gb')).toBeNull();
    expect(countryProblem('United Kingdom')).toMatch(/^country must be/);
    expect(countryProblem(44)).toMatch(/^country must be/);
  });
});

/** Folders of tests, installed packages and what a build made from the sources (the prerendered help pages among it). */
const notSources = ['node_modules', 'dist', 'dist-prerender', 'test', 'e2e', 'generated'];

/** Every source and template file a person's screen or inbox is built from (tests and generated code aside). */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (notSources.includes(name)) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|html|graphql|css|json)$/.test(name) && !/\.(test|generated)\.tsx?$/.test(name) ? [path] : [];
  });
}

it('is the only place a crisis number is spelled: no copy in any service, the gateway or the web app', () => {
  // Each line's number as its link dials it (tel:116123).
  const lineNumbers = countryHelp.flatMap((help) =>
    help.lines.flatMap((line) => /^(?:tel|sms):(\d{3,})/.exec(line.href)?.[1] ?? []),
  );
  // Long numbers are matched however they are spaced; a short one (113, 024) only as written, since spaced
  // digits that short occur in ordinary code ("0 0 24 24").
  const patterns = [...new Set(lineNumbers)].map(
    (digits) => new RegExp(`(?<![\\w.-])${digits.length >= 6 ? digits.split('').join('\\s?') : digits}(?![\\w.-])`),
  );
  const emergency = [...new Set(countryHelp.map((help) => help.emergency.number))];
  patterns.push(new RegExp(`\\b(call|dial|ring)\\b[^.\\n]{0,20}\\b(${emergency.join('|')})\\b`, 'i'));
  const places = ['services', 'gateway', 'web'].flatMap((area) =>
    readdirSync(join(repository, area))
      .filter((name) => !notSources.includes(name))
      .map((name) => join(repository, area, name))
      .filter((path) => statSync(path).isDirectory()),
  );
  const spelled = places
    .flatMap((place) => sourceFiles(place))
    .filter((path) => !path.endsWith(join('domain', 'src', 'crisis-resources.ts')))
    .flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      return patterns
        .filter((pattern) => pattern.test(text))
        .map((pattern) => `${relative(repository, path)}: ${pattern}`);
    });
  expect(spelled).toEqual([]);
});
