/**
 * Every kind of e-mail Haven sends and the preference that governs it. Security and billing e-mails
 * (and the ones a person just asked for, such as a confirmation link) always go.
 */
import type { EmailPreferences } from './preferences';

export type GoverningPreference = keyof EmailPreferences | 'always';

export const emailKinds = {
  'verify-email': 'always',
  'newsletter-confirmation': 'always',
  security: 'always',
  billing: 'always',
  newsletter: 'newsletter',
  'product-update': 'productUpdates',
  marketing: 'marketingEmails',
  'weekly-summary': 'weeklySummary',
} as const satisfies Record<string, GoverningPreference>;

export type EmailKind = keyof typeof emailKinds;

export function mayReceive(kind: EmailKind, preferences: EmailPreferences): boolean {
  const governing: GoverningPreference = emailKinds[kind];
  return governing === 'always' || preferences[governing];
}
