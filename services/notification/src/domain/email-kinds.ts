/**
 * Every kind of e-mail Haven sends and the preference that governs it; the mailer takes only these kinds,
 * so a new e-mail cannot be sent without being declared here. What a person just asked for (a verification,
 * reset or confirmation link) and billing's e-mails about their money always go. The security notices
 * (password changed, address changed, a sign-in method linked) follow the `securityNotifications` switch,
 * on unless the person turned it off. The newsletter follows the list, the rest their switches.
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
  'billing-card-updated': 'always',
  'billing-ended': 'always',
  newsletter: 'newsletter',
  /** The admin's own test copy of a draft, sent only when they ask for it. */
  'newsletter-test': 'always',
  'product-update': 'productUpdates',
  marketing: 'marketingEmails',
  'weekly-summary': 'weeklySummary',
  'check-in-reminder': 'checkInReminder',
} as const satisfies Record<string, GoverningPreference>;

export type EmailKind = keyof typeof emailKinds;

const aboutSubscription = 'This email is about your subscription, so it is sent whatever your email preferences say.';

/**
 * Why each kind reaches the person, said at the foot of the e-mail beside the way to their e-mail preferences:
 * the kinds that always go say so, so nobody looks for a switch that is not there.
 */
export const whySent: Record<EmailKind, string> = {
  'verify-email': 'You get this email because this address was used to create an account.',
  'verify-new-email': 'You get this email because this address was given as an account’s new address.',
  'password-reset': 'You get this email because a new password was asked for with this address.',
  'newsletter-confirmation': 'You get this email because this address was entered to join the newsletter.',
  'password-changed': 'You get this email because security notices are on in your email preferences.',
  'email-changed': 'You get this email because security notices are on in your email preferences.',
  'sign-in-method-linked': 'You get this email because security notices are on in your email preferences.',
  'billing-welcome': aboutSubscription,
  'billing-trial-ending': aboutSubscription,
  'billing-payment-failed': aboutSubscription,
  'billing-cancelled': aboutSubscription,
  'billing-reactivated': aboutSubscription,
  'billing-receipt': aboutSubscription,
  'billing-card-updated': aboutSubscription,
  'billing-ended': aboutSubscription,
  newsletter: 'You get this email because you subscribed to the newsletter.',
  'newsletter-test': 'You get this email because you asked for a test copy of a newsletter.',
  'product-update': 'You get this email because product updates are on in your email preferences.',
  marketing: 'You get this email because marketing emails are on in your email preferences.',
  'weekly-summary': 'You get this email because you turned on the weekly summary.',
  'check-in-reminder': 'You get this email because you turned on the daily check-in reminder.',
};

export function mayReceive(kind: EmailKind, preferences: EmailPreferences): boolean {
  const governing: GoverningPreference = emailKinds[kind];
  return governing === 'always' || preferences[governing];
}
