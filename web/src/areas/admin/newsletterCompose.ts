/** The newsletter composer's rules (a preview of 200 characters, both fields required). Pure. */
import { newsletterContentMaxLength } from '@haven/domain/src/newsletter-limits';

/** The service's own limit (one constant for it, the REST facade and this composer). */
export const NEWSLETTER_CONTENT_MAX_LENGTH = newsletterContentMaxLength;
export const NEWSLETTER_PREVIEW_LENGTH = 200;
export const NEWSLETTER_TEXTAREA_ROWS = 12;

export function previewOf(content: string): string {
  return content.length > NEWSLETTER_PREVIEW_LENGTH ? `${content.slice(0, NEWSLETTER_PREVIEW_LENGTH)}...` : content;
}

/** Both fields non-empty after trimming. */
export function isComposeComplete(subject: string, content: string): boolean {
  return subject.trim() !== '' && content.trim() !== '';
}

/** Pending subscribers: the total less the active ones. */
export const pendingOf = (stats: { total: number; active: number }) => Math.max(0, stats.total - stats.active);

const thousands = new Intl.NumberFormat('en-GB');

/** The composer's live count: "1,234 of 15,000 characters". */
export const contentCountOf = (content: string) =>
  `${thousands.format(content.length)} of ${thousands.format(NEWSLETTER_CONTENT_MAX_LENGTH)} characters`;

/** What to say when the content is past the limit, or null while it fits. */
export function contentTooLongMessage(content: string): string | null {
  const over = content.length - NEWSLETTER_CONTENT_MAX_LENGTH;
  if (over <= 0) return null;
  const characters = over === 1 ? 'character' : 'characters';
  return `This is ${thousands.format(over)} ${characters} over the limit. Please shorten it before sending.`;
}

/** Complete and within the limit: what a send or a test send needs. */
export const isSendable = (subject: string, content: string) =>
  isComposeComplete(subject, content) && contentTooLongMessage(content) === null;

/** "12 subscribers", "1 subscriber". */
export const subscribersOf = (count: number) =>
  `${thousands.format(count)} ${count === 1 ? 'subscriber' : 'subscribers'}`;

/** The confirmation's button: "Send to 12 subscribers". */
export const sendToLabel = (count: number) => `Send to ${subscribersOf(count)}`;
