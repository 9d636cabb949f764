/** The FAQ page's rules without the DOM: which entries are open, the URL hash, and the structured data. */
import type { FaqEntry } from './faqEntries';

/** A hash on load opens its entry and scrolls to it after about this long. */
export const FAQ_SCROLL_DELAY_MS = 150;

/**
 * Opening or closing one entry. Single-open (the default) closes every other entry; multi-open keeps them.
 * Returns the new open set.
 */
export function toggleEntry(open: ReadonlySet<string>, slug: string, multiOpen: boolean): Set<string> {
  if (open.has(slug)) {
    const next = new Set(open);
    next.delete(slug);
    return next;
  }
  return multiOpen ? new Set([...open, slug]) : new Set([slug]);
}

/** The hash after a toggle: the slug just opened, or none when it was closed. */
export function hashAfterToggle(open: ReadonlySet<string>, slug: string): string {
  return open.has(slug) ? `#${slug}` : '';
}

/** The entry a URL hash names, if it names one. */
export function slugFromHash(hash: string, entries: readonly FaqEntry[]): string | null {
  const slug = decodeURIComponent(hash.replace(/^#/, ''));
  return entries.some((entry) => entry.slug === slug) ? slug : null;
}

/** schema.org FAQPage data for search engines, built from the same entries the page shows. */
export function faqJsonLd(entries: readonly FaqEntry[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: entries.map((entry) => ({
      '@type': 'Question',
      name: entry.question,
      acceptedAnswer: { '@type': 'Answer', text: entry.answer.join('\n\n') },
    })),
  };
}

/** JSON-LD safe inside a <script> element: `<` is escaped so no text can close the element. */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
