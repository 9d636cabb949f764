/**
 * The crisis lines the public pages show, as shared/VOICE.md lists them, the visitor's country first.
 * The country is a guess from the browser (time zone, then language region); nothing is sent anywhere.
 */
export type CrisisRegion = 'GB' | 'US' | 'other';

export interface CrisisLine {
  region: CrisisRegion;
  label: string;
  text: string;
}

export const CRISIS_LINES: readonly CrisisLine[] = [
  {
    region: 'GB',
    label: 'In the UK',
    text: 'Call Samaritans free on 116 123, any time of day or night, or text SHOUT to 85258.',
  },
  { region: 'US', label: 'In the US', text: 'Call or text 988 to reach the 988 Suicide & Crisis Lifeline.' },
  {
    region: 'other',
    label: 'Elsewhere',
    text: 'Find a free local helpline at findahelpline.com. If your life is in danger, call your local emergency number (999, 911 or 112).',
  },
];

export function guessCrisisRegion(timeZone: string | undefined, language: string | undefined): CrisisRegion {
  if (timeZone === 'Europe/London' || timeZone === 'Europe/Belfast') return 'GB';
  if (timeZone?.startsWith('America/') && /^en-US$/i.test(language ?? '')) return 'US';
  const region = /-([a-z]{2})$/i.exec(language ?? '')?.[1]?.toUpperCase();
  if (region === 'GB') return 'GB';
  if (region === 'US') return 'US';
  return 'other';
}

/** The lines with the visitor's own first; the others follow, so nobody is left without one. */
export function crisisLinesFor(region: CrisisRegion): CrisisLine[] {
  return [...CRISIS_LINES].sort((a, b) => Number(b.region === region) - Number(a.region === region));
}
