/**
 * Whose crisis lines a visitor sees first: the country they chose (on the help page or in Settings, kept on
 * this device), else the one their browser's time zone suggests, else its language's region. Nothing is sent
 * anywhere. The lines themselves are the platform's one dataset.
 */
import { countryOfTimeZone } from '@haven/platform/src/country-of-time-zone';
import { knownCountry } from '@haven/platform/src/support-resources';
import { browserTimeZone } from '../../lib/dates';

const chosenCountryKey = 'haven.helpCountry';

/** The country a browser suggests: its time zone's, else its language's region ("en-GB" → GB), if Haven has help for it. */
export function guessedCountry(timeZone: string | undefined, language: string | undefined): string | null {
  return countryOfTimeZone(timeZone) ?? knownCountry(language?.split('-')[1]);
}

export function chosenCountry(): string | null {
  try {
    return knownCountry(localStorage.getItem(chosenCountryKey));
  } catch {
    return null;
  }
}

/** Keeps a choice on this device (null forgets it, and the guess applies again). */
export function chooseCountry(code: string | null): void {
  try {
    if (code) localStorage.setItem(chosenCountryKey, code);
    else localStorage.removeItem(chosenCountryKey);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}

/** The visitor's country for crisis help: a signed-in person's setting first, then this device's choice, then the guess. */
export function visitorCountry(setting?: string | null): string | null {
  return knownCountry(setting) ?? chosenCountry() ?? guessedCountry(browserTimeZone(), navigator.language);
}
