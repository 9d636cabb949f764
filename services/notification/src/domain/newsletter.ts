/** Newsletter rules: tokens, input checks, the composer's limits. Pure, no I/O. */
import { createHash, randomBytes } from 'node:crypto';

/** How long a confirmation link works. */
export const confirmationTtlMs = 48 * 60 * 60 * 1000;
export const subjectMaxLength = 200;
/** The content as written by the admin (HTML), before sanitising; the REST body limit is 16 kB anyway. */
export const contentMaxLength = 15_000;
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

/** Haven's ids are UUIDs: anything else in a subscription's `userId` is a mistake, not someone else's id. */
export function isWellFormedUserId(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** A token as it arrives in a link: anything else is refused before any lookup. */
export function isWellFormedToken(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{20,100}$/.test(token);
}

export function previewOf(content: string): string {
  return content.length > previewLength ? `${content.slice(0, previewLength)}...` : content;
}

export const messages = {
  subscribed: 'Thanks! Please check your inbox and confirm your subscription.',
  confirmed: 'Your subscription is confirmed. The weekly newsletter will find you soon.',
  invalidConfirmation: 'This confirmation link is invalid or has expired.',
  unsubscribed: "You won't receive any more newsletters from us.",
  invalidUnsubscribe: 'This unsubscribe link is not valid.',
} as const;
