/**
 * The link at the foot of an e-mail that a switch governs, which stops that kind of e-mail without signing in
 * (and its RFC 8058 one-click twin for mail clients). The token names the user and the kind and carries a MAC
 * under the service's key, so nothing is stored per link and a link can only ever turn one switch off, for
 * the person it was sent to. Security notices are not stoppable this way: a forwarded or leaked e-mail must not
 * be able to silence the warnings an account takeover would trigger. Pure, no I/O.
 */
import { appLink } from './email-parts';
import { emailKinds, type EmailKind } from './email-kinds';
import { linkMac, macMatches } from './link-macs';
import type { EmailPreferences } from './preferences';

/** The switches a stop link may turn off. */
export const stoppableSwitches = [
  'weeklySummary',
  'checkInReminder',
  'productUpdates',
  'marketingEmails',
] as const satisfies ReadonlyArray<keyof EmailPreferences>;
export type StoppableSwitch = (typeof stoppableSwitches)[number];

/** The kinds of e-mail that carry a stop link: those governed by a stoppable switch. */
export type StoppableKind = {
  [Kind in EmailKind]: (typeof emailKinds)[Kind] extends StoppableSwitch ? Kind : never;
}[EmailKind];

export function isStoppableKind(kind: string): kind is StoppableKind {
  const governing = (emailKinds as Record<string, string>)[kind];
  return governing !== undefined && (stoppableSwitches as readonly string[]).includes(governing);
}

export const switchOf = (kind: StoppableKind): StoppableSwitch => emailKinds[kind];

/** What each kind is called where the person reads that it stopped, and the word for it after that. */
const kindNames: Record<StoppableKind, [name: string, pronoun: 'it' | 'them']> = {
  'weekly-summary': ['the weekly summary', 'it'],
  'check-in-reminder': ['the daily check-in reminder', 'it'],
  'product-update': ['product update emails', 'them'],
  marketing: ['marketing emails', 'them'],
};

export const stopMessages = {
  stopped: (kind: StoppableKind) =>
    `You won't get ${kindNames[kind][0]} any more. You can turn ${kindNames[kind][1]} back on in your email preferences.`,
  invalid:
    'This link to stop emails is not valid. You can still choose which emails you get in your email preferences.',
} as const;

const macOf = (key: Buffer, userId: string, kind: StoppableKind) => linkMac(key, 'stop-emails', userId, kind);

/** `<user id, base64url>.<kind>.<MAC>`: readable by this service alone, and only as a whole. */
export function stopToken(key: Buffer, userId: string, kind: StoppableKind): string {
  return `${Buffer.from(userId).toString('base64url')}.${kind}.${macOf(key, userId, kind)}`;
}

/** The user and kind a token stops, or null for anything not minted by `stopToken` under this key. */
export function readStopToken(key: Buffer, token: unknown): { userId: string; kind: StoppableKind } | null {
  if (typeof token !== 'string' || token.length > 400) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [encodedUser, kind, mac] = parts as [string, string, string];
  if (!/^[\w-]{1,200}$/.test(encodedUser) || !isStoppableKind(kind) || !/^[\w-]+$/.test(mac)) return null;
  const userId = Buffer.from(encodedUser, 'base64url').toString();
  return macMatches(mac, macOf(key, userId, kind)) ? { userId, kind } : null;
}

/** The page a person lands on from the footer: it stops the kind and says so. */
export const stopPageLink = (appUrl: string, token: string) => appLink(appUrl, 'stop-emails', token);

/** RFC 8058's target, served by this service's httpRoutes: a mail client's POST `List-Unsubscribe=One-Click`. */
export const stopOneClickLink = (appUrl: string, token: string) =>
  appLink(appUrl, 'hooks/notification/emails/one-click', token);

/** The List-Unsubscribe pair (RFC 2369 and RFC 8058) of an e-mail carrying a stop link. */
export function stopHeaders(appUrl: string, token: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${stopOneClickLink(appUrl, token)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
