import { countryOfTimeZone } from '@haven/domain/src/support-resources';
import {
  chooseCountry,
  COUNTRY_STORAGE_KEY,
  countryChoices,
  countryForCheckIn,
  countryQuestionDue,
  personCountry,
  skipCountryQuestion,
} from './country';

const stored = new Map<string, string>();
const storage = {
  getItem: (key: string) => stored.get(key) ?? null,
  setItem: (key: string, value: string) => void stored.set(key, value),
};

/** The cookies the code set, as a browser is told them. */
const cookiesSet: string[] = [];

beforeAll(() => {
  const location = { protocol: 'https:' };
  Object.defineProperty(globalThis, 'window', { value: { localStorage: storage, location }, configurable: true });
  Object.defineProperty(globalThis, 'document', {
    value: {
      set cookie(value: string) {
        cookiesSet.push(value);
      },
    },
    configurable: true,
  });
  Object.defineProperty(globalThis, 'navigator', { value: { language: 'en-AU' }, configurable: true });
});

beforeEach(() => {
  stored.clear();
  cookiesSet.length = 0;
});

describe('the person’s country', () => {
  it('is the browser’s guess until the person picks one: its time zone, else its language', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(personCountry()).toBe(countryOfTimeZone(zone) ?? 'AU');
    expect(countryForCheckIn()).toBe(personCountry());
  });

  it('is the pick kept on this device once made, and "Somewhere else" stays picked over any guess', () => {
    chooseCountry('JP');
    expect(stored.get(COUNTRY_STORAGE_KEY)).toBe('JP');
    // The same pick travels to the server for the help page's HTML; "Somewhere else" as ZZ.
    expect(cookiesSet).toEqual(['haven_country=JP; Path=/; Max-Age=31536000; SameSite=Lax; Secure']);
    expect(personCountry()).toBe('JP');
    chooseCountry(null);
    expect(cookiesSet[1]).toMatch(/^haven_country=ZZ;/);
    expect(personCountry()).toBeNull();
    expect(countryForCheckIn()).toBe('ZZ'); // so the server does not use the time zone's country instead
    stored.set(COUNTRY_STORAGE_KEY, 'not a country');
    expect(personCountry()).toBeNull();
  });

  it('offers every country by name', () => {
    const names = countryChoices.map((choice) => choice.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(countryChoices).toContainEqual({ code: 'GB', name: 'United Kingdom' });
    expect(countryChoices.length).toBeGreaterThanOrEqual(60);
  });

  it('is asked once: until the person picks one or skips the question', () => {
    expect(countryQuestionDue()).toBe(true);
    skipCountryQuestion();
    expect(countryQuestionDue()).toBe(false);
    expect(personCountry()).toBe(guessCountryHere());

    stored.clear();
    chooseCountry('NO');
    expect(countryQuestionDue()).toBe(false);
    stored.clear();
    chooseCountry(null);
    expect(countryQuestionDue()).toBe(false);
  });
});

/** What the browser guesses on this machine, with the test's en-AU language. */
function guessCountryHere(): string | null {
  return countryOfTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'AU';
}
