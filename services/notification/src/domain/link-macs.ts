/**
 * The MAC that signs the links in Haven's e-mails (stop links, newsletter unsubscribe links), so a link names
 * whom it acts for without anything stored per link. Pure, no I/O.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const macLength = 32; // base64url characters: 192 bits of the HMAC-SHA256

/** The MAC of a link's fields under the key; the first field names the link's purpose, so MACs never cross. */
export function linkMac(key: Buffer, ...fields: string[]): string {
  return createHmac('sha256', key).update(fields.join('\n')).digest('base64url').slice(0, macLength);
}

/** Whether a MAC from a link is the expected one, in constant time. */
export function macMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
