import type { PersonKeyring } from '@haven/platform';
import { decodeRatings } from '../domain/rating-codes';

/**
 * Ratings as they are stored, whichever form: their code sealed under the person's key (opened with it, in
 * memory), or the clear numbers of a record stored before the ratings were sealed (read as they are). Throws when
 * a sealed value does not open (the person's key is gone, or the value was altered): nothing to show then.
 */
export async function openStoredRatings<Name extends string>(
  keyring: PersonKeyring,
  userId: string,
  names: readonly Name[],
  stored: string | Partial<Record<Name, number>> | null | undefined,
): Promise<Record<Name, number>> {
  if (stored && typeof stored === 'object') {
    return Object.fromEntries(names.map((name) => [name, stored[name]])) as Record<Name, number>;
  }
  const code = typeof stored === 'string' ? await keyring.open(userId, stored) : null;
  const ratings = code === null ? null : decodeRatings(names, code);
  if (!ratings) throw new Error('stored ratings do not open with their person’s key');
  return ratings;
}
