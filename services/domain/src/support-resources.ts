/**
 * Who can help right now, for a person's country, from the one dataset (crisis-resources.ts): the shape the
 * composer's crisis reply, the help page and e-mail show. Never behind sign-in or the paywall.
 */
import { countryHelp, helplineDirectory, type CountryHelp } from './crisis-resources';

export interface SupportResource {
  name: string;
  /** What to do, in a few plain words: call or text what, whether it is free, and when. */
  action: string;
  /** A tel:, sms: or https: link the page can offer as one tap. */
  href: string;
}

export interface SupportResources {
  /** ISO 3166-1 alpha-2 code the list is for, or "international". */
  region: string;
  /** Where the list is for, in words: "United Kingdom", or "Anywhere else". */
  place: string;
  resources: SupportResource[];
  /** When life is in danger. */
  emergency: string;
}

const byCode = new Map(countryHelp.map((help) => [help.code, help]));
const byTimeZone = new Map(countryHelp.flatMap((help) => help.timeZones.map((zone) => [zone, help.code] as const)));

const anywhereElse: SupportResources = {
  region: 'international',
  place: 'Anywhere else',
  resources: [{ ...helplineDirectory }],
  emergency: 'If your life is in danger, call your local emergency number.',
};

/** The dataset's entry for a country code (any case; "UK" is the UK), if Haven has one. */
export function countryHelpOf(country?: string | null): CountryHelp | undefined {
  const code = country?.trim().toUpperCase();
  return code ? byCode.get(code === 'UK' ? 'GB' : code) : undefined;
}

/** The country a browser's IANA time zone places a person in, when the dataset knows the zone. */
export function countryOfTimeZone(timeZone?: string | null): string | null {
  return (timeZone && byTimeZone.get(timeZone)) || null;
}

/** The country of a language tag's region ("en-US" → "US"), when the dataset knows it. */
export function countryOfLanguage(language?: string | null): string | null {
  const region = /-([a-z]{2})(?:-|$)/i.exec(language ?? '')?.[1];
  return countryHelpOf(region)?.code ?? null;
}

/** Until a person picks one, their country is guessed from the browser: its time zone, then its language. */
export function guessCountry(timeZone?: string | null, language?: string | null): string | null {
  return countryOfTimeZone(timeZone) ?? countryOfLanguage(language);
}

/** A country as asked for: absent, or two letters (ISO 3166-1 alpha-2); anything else is a problem to name. */
export function countryProblem(country: unknown): string | null {
  if (country === undefined || country === null) return null;
  return typeof country === 'string' && /^[A-Za-z]{2}$/.test(country.trim())
    ? null
    : 'country must be a two-letter country code, for example GB';
}

/**
 * The resources for a country: its confirmed lines, or the helpline directory where none is confirmed, and
 * its emergency number. A country Haven does not know (or none) gets the directory and "your local
 * emergency number"; never another country's lines.
 */
export function supportResourcesFor(country?: string | null): SupportResources {
  const help = countryHelpOf(country);
  if (!help) return anywhereElse;
  const lines = help.lines.map(({ name, action, href }) => ({ name, action, href }));
  return {
    region: help.code,
    place: help.name,
    resources: lines.length > 0 ? lines : [{ ...helplineDirectory }],
    emergency: `If your life is in danger, call ${help.emergency.number}.`,
  };
}

/** Every country's list, the given country's first, then by name, then "Anywhere else": the help page. */
export function allSupportResources(country?: string | null): SupportResources[] {
  const first = countryHelpOf(country);
  const others = [...countryHelp]
    .filter((help) => help !== first)
    .sort((a, b) => a.name.localeCompare(b.name, 'en'))
    .map((help) => supportResourcesFor(help.code));
  return [...(first ? [supportResourcesFor(first.code)] : []), ...others, anywhereElse];
}

/** The short line that says what Haven is, kindly, beside the resources. */
export const notTherapyLine =
  'Haven is not therapy or a crisis service, but people who can help are ready to listen right now.';

/**
 * The cookie that carries the person's pick to the server (a country code, or ZZ for their "Somewhere else"), set
 * by the web app beside its own copy, so the help page's HTML puts their country first before any script runs.
 */
export const COUNTRY_COOKIE = 'haven_country';

/** What the country cookie holds for the person's "Somewhere else": ZZ, the unknown region. */
export const SOMEWHERE_ELSE = 'ZZ';

/**
 * The country a request's help page puts first: the person's pick from the cookie (its "Somewhere else" is no
 * country, and no guess overrides it), else the first language in Accept-Language whose region the dataset knows.
 */
export function countryOfRequest(
  cookie: string | null | undefined,
  acceptLanguage: string | null | undefined,
): string | null {
  if (cookie) return countryHelpOf(cookie)?.code ?? null;
  for (const tag of (acceptLanguage ?? '').split(',')) {
    const country = countryOfLanguage(tag.split(';')[0]!.trim());
    if (country) return country;
  }
  return null;
}
