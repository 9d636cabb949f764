/** Newsletter rules: tokens, input checks, the composer's limits. Pure, no I/O. */
import { newsletterContentMaxLength, newsletterSubjectMaxLength } from '@haven/domain';
import { createHash, randomBytes } from 'node:crypto';
import { linkMac, macMatches } from './link-macs';
import { sanitizeNewsletterHtml } from './sanitize';

/** How long a confirmation link works. */
export const confirmationTtlMs = 48 * 60 * 60 * 1000;
export const subjectMaxLength = newsletterSubjectMaxLength;
/** The content as written by the admin (HTML), before sanitising. */
export const contentMaxLength = newsletterContentMaxLength;
export const sourceMaxLength = 40;
/** The composer's preview: the first 200 characters, then an ellipsis. */
export const previewLength = 200;

export type SubscriberStatus = 'pending' | 'active' | 'unsubscribed';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A confirmation token and what is stored of it (its hash and its expiry). */
export function newConfirmation(now = new Date()): { token: string; tokenHash: string; expiresAt: Date } {
  const token = newToken();
  return { token, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + confirmationTtlMs) };
}

/** A confirmation token as it arrives in a link: anything else is refused before any lookup. */
export function isWellFormedToken(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{20,100}$/.test(token);
}

/**
 * The unsubscribe link's token: `<subscriber id, base64url>.<MAC>` under the service's link key. Every copy
 * carries it, so it is derived when a copy is written and never stored: the database holds nothing a reader
 * could use to take people off the list.
 */
export function unsubscribeTokenOf(key: Buffer, subscriberId: string): string {
  return `${Buffer.from(subscriberId).toString('base64url')}.${linkMac(key, 'newsletter-unsubscribe', subscriberId)}`;
}

/** The subscriber an unsubscribe token names, or null for anything `unsubscribeTokenOf` did not mint under this key. */
export function subscriberOfUnsubscribeToken(key: Buffer, token: unknown): string | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const match = /^([\w-]{1,120})\.([\w-]{1,64})$/.exec(token);
  if (!match) return null;
  const subscriberId = Buffer.from(match[1]!, 'base64url').toString();
  return macMatches(match[2]!, linkMac(key, 'newsletter-unsubscribe', subscriberId)) ? subscriberId : null;
}

export function previewOf(content: string): string {
  return content.length > previewLength ? `${content.slice(0, previewLength)}...` : content;
}

const missingComposeFields = 'Please fill in both subject and content.';
const thousands = new Intl.NumberFormat('en-GB');

/** A draft as every newsletter route takes it: the trimmed subject and the sanitised HTML that would be sent. */
export interface NewsletterDraft {
  subject: string;
  html: string;
}

export type DraftCheck =
  { ok: true; draft: NewsletterDraft } | { ok: false; problems: Array<{ field: string; message: string }> };

/**
 * The composer's rules, the same for a send, a test send and a preview: both fields filled in, each within its
 * limit, and some text left once unsafe HTML is removed. The first problem names its field.
 */
export function checkDraft(subject: string, content: string): DraftCheck {
  const missing = [
    ...(subject.trim() ? [] : [{ field: 'subject', message: missingComposeFields }]),
    ...(content.trim() ? [] : [{ field: 'content', message: missingComposeFields }]),
  ];
  if (missing.length > 0) return { ok: false, problems: missing };
  if (subject.trim().length > subjectMaxLength) {
    const message = `The subject can be at most ${thousands.format(subjectMaxLength)} characters.`;
    return { ok: false, problems: [{ field: 'subject', message }] };
  }
  if (content.length > contentMaxLength) {
    const message =
      `The content is ${thousands.format(content.length)} characters; it can be at most ` +
      `${thousands.format(contentMaxLength)}. Please shorten it and try again.`;
    return { ok: false, problems: [{ field: 'content', message }] };
  }
  const html = sanitizeNewsletterHtml(content);
  if (!html.replace(/<[^>]*>/g, '').trim()) {
    return {
      ok: false,
      problems: [{ field: 'content', message: 'The content has no text left once unsafe HTML is removed.' }],
    };
  }
  return { ok: true, draft: { subject: subject.trim(), html } };
}

/** A test copy's subject, so the admin's inbox never mistakes it for the real send. */
export const testSubjectOf = (subject: string) => `[Test] ${subject}`;

export const messages = {
  subscribed: 'Thanks! Please check your inbox and confirm your subscription.',
  confirmed: 'Your subscription is confirmed. The weekly newsletter will find you soon.',
  invalidConfirmation: 'This confirmation link is invalid or has expired.',
  unsubscribed: "You won't receive any more newsletters from us.",
  invalidUnsubscribe: 'This unsubscribe link is not valid.',
} as const;
