/**
 * Takes personal details out of the notes before they leave Haven for the AI provider: e-mail addresses,
 * phone numbers, links, long digit runs (ids, card numbers), UUIDs, and the user's own names. Pure.
 */
const patterns: Array<[RegExp, string]> = [
  [/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu, '[email]'],
  [/\bhttps?:\/\/\S+|\bwww\.\S+/gi, '[link]'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '[id]'],
  [/\b[0-9a-f]{24}\b/gi, '[id]'],
  // Phone numbers: an optional +, then at least 7 digits with spaces, dots, dashes or brackets between.
  [/(?:\+|\(|\b)\d[\d\s().-]{5,}\d\b/g, '[number]'],
  // A name the user introduces, even one Haven does not know: "my name is Ada", "call me Sam".
  // Case-sensitive on the name's capital, so "call me on Monday" keeps "on".
  [/\b([Mm]y name is|[Mm]y name's|[Cc]all me|[Tt]his is)\s+\p{Lu}[\p{L}'-]+/gu, '$1 [name]'],
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function scrubNotes(notes: string, names: Array<string | null | undefined> = []): string {
  let scrubbed = notes;
  for (const [pattern, replacement] of patterns) scrubbed = scrubbed.replace(pattern, replacement);
  for (const name of names) {
    const trimmed = name?.trim();
    if (trimmed && trimmed.length >= 2) {
      scrubbed = scrubbed.replace(new RegExp(`(?<![\\p{L}])${escape(trimmed)}(?![\\p{L}])`, 'giu'), '[name]');
    }
  }
  return scrubbed;
}
