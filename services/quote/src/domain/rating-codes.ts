/**
 * Ratings as one short text, so a check-in's ratings and a quote's emotional state are each sealed as one value
 * under their person's key: one digit (1–5) per rating, in a fixed order of names. Pure, no I/O.
 */
import { ratingMax, ratingMin } from './assessment';

/** The ratings named by `names`, one digit each, in that order; throws on a rating that is not a whole 1–5. */
export function encodeRatings<Name extends string>(names: readonly Name[], ratings: Record<Name, number>): string {
  return names
    .map((name) => {
      const value = ratings[name];
      if (!Number.isInteger(value) || value < ratingMin || value > ratingMax) {
        throw new RangeError(`${name} must be a whole number from ${ratingMin} to ${ratingMax}`);
      }
      return String(value);
    })
    .join('');
}

/** The ratings a code holds, by name; null when it is not one digit 1–5 for each of `names`. */
export function decodeRatings<Name extends string>(names: readonly Name[], code: string): Record<Name, number> | null {
  if (code.length !== names.length) return null;
  const ratings = {} as Record<Name, number>;
  for (const [index, name] of names.entries()) {
    const value = code.charCodeAt(index) - 48;
    if (!(value >= ratingMin && value <= ratingMax)) return null;
    ratings[name] = value;
  }
  return ratings;
}
