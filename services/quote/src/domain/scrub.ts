/**
 * Takes personal details out of the notes before they leave Haven for the AI provider: e-mail addresses, links,
 * ids, bank and insurance numbers, dates (of birth above all), postal addresses, phone, card and account numbers,
 * and the user's own names. A supportive message needs none of them. Pure; measured on the labelled set in
 * test/support/scrub-set.ts.
 */
const months =
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec';
/** Words that end a street's name: "12 Baker Street", "221B Elm Rd". */
const streetWords =
  'Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Close|Way|Boulevard|Blvd|Court|Ct|Place|Pl|Crescent|Terrace|Gardens|Square|Sq|Grove|Row|Mews|Parade|Walk|Hill';

const patterns: Array<[RegExp, string]> = [
  [/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu, '[email]'],
  [/\bhttps?:\/\/\S+|\bwww\.\S+/gi, '[link]'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '[id]'],
  [/\b[0-9a-f]{24}\b/gi, '[id]'],
  // An IBAN: country, check digits, then groups of letters and digits ("GB82 WEST 1234 5698 7654 32").
  [/\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,3})?\b/g, '[account]'],
  // A UK National Insurance number ("QQ 12 34 56 C").
  [/\b[A-CEGHJ-PR-TW-Z]{2}\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D]\b/g, '[id]'],
  // What follows words that introduce a birth date or an address, up to the end of the phrase.
  [
    /\b([Bb]orn on|[Mm]y birthday is|[Dd]ate of birth(?: is)?:?|DOB:?)\s+[^,;!?\n]{1,30}?(?=[,;!?\n]|\.(?:\s|$)|$)/g,
    '$1 [date]',
  ],
  [/\b([Ii] live at|[Ii] live on|[Mm]y address is)\s+[^;!?\n]{1,60}?(?=[;!?\n]|\.(?:\s|$)|$)/g, '$1 [address]'],
  // Dates with a year: 12/03/1990, 12.3.90, 1990-03-12, 12 March 1990, March 12th, 1990.
  [/\b(?:0?[1-9]|[12]\d|3[01])[./-](?:0?[1-9]|[12]\d|3[01])[./-](?:\d{4}|\d{2})\b/g, '[date]'],
  [/\b(?:19|20)\d{2}-\d{1,2}-\d{1,2}\b/g, '[date]'],
  [new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${months})\\.?,?\\s+(?:19|20)\\d{2}\\b`, 'gi'), '[date]'],
  [new RegExp(`\\b(?:${months})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+(?:19|20)\\d{2}\\b`, 'gi'), '[date]'],
  // A house number and a street ("221B Baker Street"), a UK postcode ("SW1A 1AA"), a US state and ZIP ("NY 10001").
  [new RegExp(`\\b\\d{1,5}[A-Za-z]?,?\\s+(?:\\p{Lu}[\\p{L}'-]*\\s+){1,3}(?:${streetWords})\\b\\.?`, 'gu'), '[address]'],
  [/\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b/g, '[address]'],
  [/\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b/g, '[address]'],
  // Phone, card and account numbers: an optional + or bracket, then at least 7 digits with spaces, dots, dashes or
  // brackets between.
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
