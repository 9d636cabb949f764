/**
 * The country a time zone suggests, for crisis help before a person has chosen one: the browser's zone on
 * the public pages, the stored zone on the server. Only a country Haven has help for, and only a zone that
 * belongs to one country (Europe/London → GB, America/Chicago → US); UTC and unknown zones suggest nothing.
 * The zones come from the runtime's own ICU data (Intl.Locale's time zones), so neither the server nor the
 * web app ships a time-zone table; a runtime without that data (Firefox) suggests nothing.
 */
import { crisisCountries } from './support-resources';

type LocaleWithZones = Intl.Locale & { timeZones?: string[]; getTimeZones?: () => string[] };

let countryByZone: Map<string, string> | undefined;

function zonesOf(code: string): string[] {
  const locale = new Intl.Locale(`und-${code}`) as LocaleWithZones;
  return locale.getTimeZones?.() ?? locale.timeZones ?? [];
}

/** The zone as the runtime names it (Europe/Kyiv and Europe/Kiev alike), or null when it is no zone. */
function canonicalZone(timeZone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export function countryOfTimeZone(timeZone: string | null | undefined): string | null {
  const zone = timeZone ? canonicalZone(timeZone) : null;
  if (!zone) return null;
  countryByZone ??= new Map(crisisCountries().flatMap(({ code }) => zonesOf(code).map((each) => [each, code])));
  return countryByZone.get(zone) ?? null;
}
