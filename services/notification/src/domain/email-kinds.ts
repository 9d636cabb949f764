/**
 * Every kind of e-mail Haven sends and the preference that governs it; the mailer takes only these kinds,
 * so a new e-mail cannot be sent without being declared here. What a person just asked for (a verification,
 * reset or confirmation link) and billing's e-mails about their money always go. The security notices
 * (password changed, address changed, a sign-in method linked) follow the spec's `securityNotifications`,
 * on unless the person turned it off (issue 8). The newsletter follows the list, the rest their switches.
 */
import type { EmailPreferences } from './preferences';

export type GoverningPreference = keyof EmailPreferences | 'always';

export const emailKinds = {
  'verify-email': 'always',
  'verify-new-email': 'always',
  'password-reset': 'always',
  'newsletter-confirmation': 'always',
  'password-changed': 'securityNotifications',
  'email-changed': 'securityNotifications',
  'sign-in-method-linked': 'securityNotifications',
  'billing-welcome': 'always',
  'billing-trial-ending': 'always',
  'billing-payment-failed': 'always',
  'billing-cancelled': 'always',
  'billing-reactivated': 'always',
  'billing-receipt': 'always',
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
