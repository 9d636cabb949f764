/**
 * The person's country, for the help Haven shows first: their own choice on this device (the help page's
 * picker), else the browser's guess (time zone, then language). Never the price's currency. The choice is
 * kept in localStorage under `country`, like the theme: it is theirs, and no server needs it.
 */
import { countryHelp } from '@haven/domain/src/crisis-resources';
import { COUNTRY_COOKIE, SOMEWHERE_ELSE, countryHelpOf, guessCountry } from '@haven/domain/src/support-resources';
import { useEffect, useState } from 'react';
import { browserTimeZone } from './dates';
import { rendersAsPrerendered, usePrerenderedCountry } from './prerendered';

export const COUNTRY_STORAGE_KEY = 'country';
/** Set when the person skipped the check-in page's question, so it is asked once. */
export const COUNTRY_ASKED_STORAGE_KEY = 'country-asked';

/**
 * Every country Haven has help for, by name: the picker's choices. One collator for the whole sort: `localeCompare`
 * with a locale builds a new one on every call, a long task while a page that only shows crisis lines starts.
 */
const byName = new Intl.Collator('en').compare;
export const countryChoices = [...countryHelp]
  .map(({ code, name }) => ({ code, name }))
  .sort((a, b) => byName(a.name, b.name));

/** The pick kept on this device: a country code, "" for "Somewhere else", or null when none was made. */
function pickedCountry(): string | null {
  try {
    return window.localStorage.getItem(COUNTRY_STORAGE_KEY);
  } catch {
    return null;
  }
}

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Keeps the person's pick on this device; null ("Somewhere else") is a pick too, so no guess overrides it. A
 * cookie carries the same pick to the server, so the help page's HTML lists their country first next time.
 */
export function chooseCountry(code: string | null): void {
  try {
    window.localStorage.setItem(COUNTRY_STORAGE_KEY, code ?? '');
  } catch {
    // Storage refused (a private window): the pick lasts as long as the page.
  }
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${COUNTRY_COOKIE}=${code ?? SOMEWHERE_ELSE}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure}`;
}

/**
 * The country a check-in sends: the person's country, ZZ for their "Somewhere else" (so the server does not fall
 * back on the country of their time zone), or null when there is neither a pick nor a guess.
 */
export function countryForCheckIn(): string | null {
  const picked = pickedCountry();
  return countryOf(picked) ?? (picked === null ? null : SOMEWHERE_ELSE);
}

/** The person's country: their pick on this device, else the browser's guess; null for "Somewhere else". */
export function personCountry(): string | null {
  return countryOf(pickedCountry());
}

function countryOf(picked: string | null): string | null {
  if (picked !== null) return countryHelpOf(picked)?.code ?? null;
  return guessCountry(browserTimeZone(), navigator.language);
}

/**
 * Whether the check-in page asks the person's country: once, until they pick one (there, in Settings or on the
 * help page) or skip it. Never where storage is refused, where a skip could not be kept and it would ask again.
 */
export function countryQuestionDue(): boolean {
  try {
    const storage = window.localStorage;
    return storage.getItem(COUNTRY_STORAGE_KEY) === null && storage.getItem(COUNTRY_ASKED_STORAGE_KEY) === null;
  } catch {
    return false;
  }
}

/** The question was skipped: the browser's guess stays, and the question is not asked again. */
export function skipCountryQuestion(): void {
  try {
    window.localStorage.setItem(COUNTRY_ASKED_STORAGE_KEY, 'skipped');
  } catch {
    // Storage refused: countryQuestionDue already keeps the question away.
  }
}

/**
 * The person's country for a page that may be prerendered, and its setter. The first render uses the country the
 * page's HTML was rendered for (none when it was rendered for everyone), so the browser can adopt that HTML; then
 * the device's own pick or guess, which knows the time zone too.
 */
export function usePersonCountry(): [string | null, (code: string | null) => void] {
  const rendered = usePrerenderedCountry();
  const [country, setCountry] = useState(() =>
    rendered !== undefined ? rendered : rendersAsPrerendered() ? null : personCountry(),
  );
  // After the paint, not before it: the first guess from the time zone wakes the browser's date library, a long
  // task that would otherwise hold up the commit of the page it belongs to.
  useEffect(() => setCountry(personCountry()), []);
  return [country, setCountry];
}
