/**
 * The person's country, for the help Haven shows first: their own choice on this device (the help page's
 * picker), else the browser's guess (time zone, then language). Never the price's currency. The choice is
 * kept in localStorage under `country`, like the theme: it is theirs, and no server needs it.
 */
import { countryHelp } from '@haven/platform/src/crisis-resources';
import { countryHelpOf, guessCountry } from '@haven/platform/src/support-resources';
import { browserTimeZone } from './dates';

export const COUNTRY_STORAGE_KEY = 'country';

/** Every country Haven has help for, by name: the picker's choices. */
export const countryChoices = [...countryHelp]
  .map(({ code, name }) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

function chosenCountry(): string | null {
  try {
    return countryHelpOf(window.localStorage.getItem(COUNTRY_STORAGE_KEY))?.code ?? null;
  } catch {
    return null;
  }
}

/** Keeps the person's pick on this device; null forgets it, and the browser's guess applies again. */
export function chooseCountry(code: string | null): void {
  try {
    if (code) window.localStorage.setItem(COUNTRY_STORAGE_KEY, code);
    else window.localStorage.removeItem(COUNTRY_STORAGE_KEY);
  } catch {
    // Storage refused (a private window): the pick lasts as long as the page.
  }
}

export function personCountry(): string | null {
  return chosenCountry() ?? guessCountry(browserTimeZone(), navigator.language);
}
