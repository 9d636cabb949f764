/** The newsletter composer's rules (spec: preview of 200 characters, both fields required). Pure. */
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
