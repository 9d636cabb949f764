/**
 * Where someone in crisis can reach a person right now: one dataset (`crisis-countries.ts`) read by the
 * composer's crisis reply, the API, the web app's pages and the e-mails. Pure data and rules, no I/O, so
 * the web app bundles the same module and shows it offline. Never behind sign-in or the paywall.
 */
import { CRISIS_COUNTRIES, CRISIS_DIRECTORY } from './crisis-countries';

/** Where a fact was confirmed: the helpline's own page or a national service's, and the day it was read. */
export interface Confirmation {
  url: string;
  /** yyyy-mm-dd */
  checked: string;
}

/** A free line a person can reach now, confirmed from its source. Only confirmed lines become call links. */
export interface CrisisLine {
  name: string;
  /** What to do, in a few plain words: "Call <the number> (free, 24 hours)". */
  action: string;
  /** A tel:, sms: or https: link the page can offer as one tap. */
  href: string;
  /** When it answers, in plain words, where known: "24 hours, every day". */
  hours?: string;
  /** Languages it answers in, where known. */
  languages?: string[];
  source: Confirmation;
}

/** One country's help: its emergency number (always) and the crisis lines confirmed for it (maybe none). */
export interface CountryHelp {
  /** ISO 3166-1 alpha-2. */
  code: string;
  name: string;
  emergency: { number: string; source: Confirmation };
  lines: CrisisLine[];
}

/** What a page, a reply or an e-mail shows: the lines as links and the emergency sentence. */
export interface SupportResource {
  name: string;
  action: string;
  href: string;
}

export interface SupportResources {
  /** ISO 3166-1 alpha-2 code the list is for, or "international". */
  region: string;
  /** The country's name, or "Anywhere else". */
  name: string;
  resources: SupportResource[];
  /** When life is in danger. */
  emergency: string;
}

const byCode = new Map(CRISIS_COUNTRIES.map((country) => [country.code, country]));

/** The ISO code Haven knows crisis help for, from any spelling ("gb", " UK "), or null. */
export function knownCountry(country?: string | null): string | null {
  const code = (country ?? '').trim().toUpperCase();
  const canonical = code === 'UK' ? 'GB' : code;
  return byCode.has(canonical) ? canonical : null;
}

/** Every country Haven has help for, by name: what a person picks their country from. */
export function crisisCountries(): Array<{ code: string; name: string }> {
  return CRISIS_COUNTRIES.map(({ code, name }) => ({ code, name })).sort((a, b) => a.name.localeCompare(b.name));
}

const international: SupportResources = {
  region: 'international',
  name: 'Anywhere else',
  resources: [CRISIS_DIRECTORY],
  emergency: 'If your life is in danger, call your local emergency number.',
};

function resourcesOf(country: CountryHelp): SupportResources {
  return {
    region: country.code,
    name: country.name,
    // A country without a confirmed line gets the directory: an unconfirmed number is never a call link.
    resources:
      country.lines.length > 0
        ? country.lines.map(({ name, action, href }) => ({ name, action, href }))
        : [CRISIS_DIRECTORY],
    emergency: `If your life is in danger, call ${country.emergency.number}.`,
  };
}

/**
 * The resources for a person's country (ISO code, any case). Unknown or not yet known: the directory and
 * "your local emergency number" — never another country's lines.
 */
export function supportResourcesFor(country?: string | null): SupportResources {
  const code = knownCountry(country);
  return code ? resourcesOf(byCode.get(code)!) : international;
}

/** Every list, the given country's first, the others by name, then the directory: the help page. */
export function allSupportResources(country?: string | null): SupportResources[] {
  const first = knownCountry(country);
  const others = crisisCountries()
    .filter(({ code }) => code !== first)
    .map(({ code }) => resourcesOf(byCode.get(code)!));
  return [...(first ? [resourcesOf(byCode.get(first)!)] : []), ...others, international];
}

/** The short line that says what Haven is, kindly, beside the resources. */
export const notTherapyLine =
  'Haven is not therapy or a crisis service, but people who can help are ready to listen right now.';
