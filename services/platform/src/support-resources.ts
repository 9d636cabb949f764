/**
 * Where someone in crisis can reach a person right now, as shared/VOICE.md lists them (checked for that
 * guide; any other number needs a cited source in docs/decisions.md). Pure data, shown by the composer's
 * crisis reply and the public "Need help now?" page, never behind sign-in or the paywall.
 */
export interface SupportResource {
  name: string;
  /** What to do, in a few plain words: "Call 116 123 (free, 24 hours)". */
  action: string;
  /** A tel:, sms: or https: link the page can offer as one tap. */
  href: string;
}

export interface SupportResources {
  /** ISO 3166-1 alpha-2 code the list is for, or "international". */
  region: 'GB' | 'US' | 'international';
  resources: SupportResource[];
  /** When life is in danger. */
  emergency: string;
}

const unitedKingdom: SupportResources = {
  region: 'GB',
  resources: [
    { name: 'Samaritans', action: 'Call 116 123 (free, 24 hours)', href: 'tel:116123' },
    { name: 'Shout', action: 'Text SHOUT to 85258', href: 'sms:85258?body=SHOUT' },
  ],
  emergency: 'If your life is in danger, call 999.',
};

const unitedStates: SupportResources = {
  region: 'US',
  resources: [{ name: '988 Suicide & Crisis Lifeline', action: 'Call or text 988', href: 'tel:988' }],
  emergency: 'If your life is in danger, call 911.',
};

const international: SupportResources = {
  region: 'international',
  resources: [
    {
      name: 'Find A Helpline',
      action: 'Free, confidential helplines in your country',
      href: 'https://findahelpline.com',
    },
  ],
  emergency: 'If your life is in danger, call your local emergency number (112 in most of Europe, 999 or 911).',
};

/**
 * The resources for a country (ISO code, any case): the UK and the US get their own lines, anyone else
 * the directory and the emergency number. Unknown country: the UK's, since Haven's prices are in pounds.
 */
export function supportResourcesFor(country?: string | null): SupportResources {
  const code = (country ?? 'GB').trim().toUpperCase();
  if (code === 'GB' || code === 'UK') return unitedKingdom;
  if (code === 'US') return unitedStates;
  return international;
}

/** Every list, the given country's first: what the "Need help now?" page shows. */
export function allSupportResources(country?: string | null): SupportResources[] {
  const first = supportResourcesFor(country);
  return [first, ...[unitedKingdom, unitedStates, international].filter((list) => list !== first)];
}

/** The short line that says what Haven is, kindly, beside the resources. */
export const notTherapyLine =
  'Haven is not therapy or a crisis service, but people who can help are ready to listen right now.';
