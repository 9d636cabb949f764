/**
 * A check-in is one outcome: the client names each submission with an idempotency key, and the same key from the
 * same user again stores nothing new and gets the first reply. Pure: the key's rule and the check-in id it names.
 */
import { createHash } from 'node:crypto';
import type { Validated } from './assessment';

export const idempotencyKeyField = 'idempotencyKey';
export const idempotencyKeyMaxLength = 200;

/** Printable ASCII, space to tilde: what fits an HTTP header unchanged. */
const printableAscii = /^[\x20-\x7e]+$/;

/** Absent (undefined or null) is no key; otherwise 1 to 200 printable ASCII characters. */
export function validateIdempotencyKey(value: unknown): Validated<string | null> {
  if (value === undefined || value === null) return { ok: true, value: null };
  if (typeof value !== 'string' || !printableAscii.test(value) || value.length > idempotencyKeyMaxLength) {
    return {
      ok: false,
      problems: [
        {
          field: idempotencyKeyField,
          message: `The idempotency key must be 1 to ${idempotencyKeyMaxLength} printable ASCII characters`,
        },
      ],
    };
  }
  return { ok: true, value };
}

/**
 * The id of the check-in a user's key names, in the shape of a UUID: the key is kept as the check-in's primary key, so
 * the `_id` index makes "one check-in per user and key" atomic without a partial index (see
 * docs/decisions/journal/check-in-idempotency.md). Version nibble 8 (a name-based id) keeps it apart from random
 * (version 4) ids.
 */
export function keyedCheckInId(userId: string, key: string): string {
  const hex = createHash('sha256').update(`${userId}\n${key}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
