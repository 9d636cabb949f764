/** The check-in: the 15 named ratings, the time of day and optional notes. Pure validation, no I/O. */
import { checkInDimensions, checkInDimensionTable } from '@haven/domain';

/** The 15 dimensions in the order of the assessment payload. */
export const dimensions = checkInDimensions;

export type Dimension = (typeof dimensions)[number];
export type Ratings = Record<Dimension, number>;

/** Dimensions where a high rating is the hard one (stress, anxiety, challenge, urgency); the rest are wellbeing. */
export const strainDimensions: ReadonlySet<Dimension> = new Set([
  'stressLevel',
  'anxietyLevel',
  'currentChallengeLevel',
  'urgencyOfNeed',
]);

/** How people read each dimension (the slider labels of /sliders, and the words of messages and insights). */
export const dimensionLabels = Object.fromEntries(
  checkInDimensionTable.map((dimension) => [dimension.name, dimension.label]),
) as Record<Dimension, string>;

export const timesOfDay = ['morning', 'afternoon', 'evening'] as const;
export type TimeOfDay = (typeof timesOfDay)[number];

export const ratingMin = 1;
export const ratingMax = 5;
export const ratingDefault = 3;
/**
 * Long enough for a few honest sentences; short enough to keep a check-in a check-in
 * (docs/decisions/journal/check-in-input.md).
 */
export const notesMaxLength = 1000;

export interface Assessment {
  ratings: Ratings;
  timeOfDay: TimeOfDay;
  notes: string | null;
}

export interface FieldProblem {
  field: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/**
 * The payload of POST /api/quotes/generate: each rating absent → 3, else an integer 1–5 (a string "3", 2.5,
 * 0, 6 or null is a problem naming the field); `timeOfDayPreference` absent → morning, else one of the
 * three; `notes` absent or blank → none, else a string of at most `notesMaxLength` characters.
 */
export function validateAssessment(input: Record<string, unknown>): Validated<Assessment> {
  const problems: FieldProblem[] = [];
  const ratings = {} as Ratings;
  for (const dimension of dimensions) {
    const value = input[dimension];
    if (value === undefined) {
      ratings[dimension] = ratingDefault;
    } else if (typeof value !== 'number' || !Number.isInteger(value) || value < ratingMin || value > ratingMax) {
      problems.push({
        field: dimension,
        message: `${dimension} must be a whole number from ${ratingMin} to ${ratingMax}`,
      });
    } else {
      ratings[dimension] = value;
    }
  }

  const time = input.timeOfDayPreference;
  let timeOfDay: TimeOfDay = 'morning';
  if (time !== undefined) {
    if (typeof time === 'string' && (timesOfDay as readonly string[]).includes(time)) timeOfDay = time as TimeOfDay;
    else
      problems.push({
        field: 'timeOfDayPreference',
        message: 'timeOfDayPreference must be morning, afternoon or evening',
      });
  }

  let notes: string | null = null;
  const rawNotes = input.notes;
  if (rawNotes !== undefined && rawNotes !== null) {
    if (typeof rawNotes !== 'string') problems.push({ field: 'notes', message: 'notes must be text' });
    else if (rawNotes.length > notesMaxLength) {
      problems.push({ field: 'notes', message: `notes must be at most ${notesMaxLength} characters` });
    } else if (rawNotes.trim() !== '') notes = rawNotes.trim();
  }

  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { ratings, timeOfDay, notes } };
}

/** How much a rating asks for care: a low wellbeing rating or a high strain rating (1 = none, 5 = most). */
export function needOf(dimension: Dimension, value: number): number {
  return strainDimensions.has(dimension) ? value : ratingMax + ratingMin - value;
}

/**
 * The dimensions that ask for the most care, most first; ties keep the payload's order. Only ratings that
 * are on the hard side (need of 4 or 5) count, so a calm check-in has none.
 */
export function salientDimensions(ratings: Ratings): Dimension[] {
  return dimensions
    .map((dimension, order) => ({ dimension, order, need: needOf(dimension, ratings[dimension]) }))
    .filter(({ need }) => need >= 4)
    .sort((a, b) => b.need - a.need || a.order - b.order)
    .map(({ dimension }) => dimension);
}

/** The crisis rule on ratings lives in the shared domain package, so the web app shows help by the same rule offline. */
export { isCrisis } from '@haven/domain';

/** The fields an edit may change: the 15 ratings, the time of day and the notes. */
const editableFields: readonly string[] = [...dimensions, 'timeOfDayPreference', 'notes'];

/**
 * An entry after an edit: each field given replaces the kept one, under the rules of a new check-in (a rating
 * null or out of range, or an unknown time of day, is a problem naming the field; notes null or blank remove
 * them); absent fields stay. An edit that changes nothing is a problem too.
 */
export function validateEntryEdit(kept: Assessment, changes: Record<string, unknown>): Validated<Assessment> {
  const given = editableFields.filter((field) => changes[field] !== undefined);
  if (given.length === 0) {
    return {
      ok: false,
      problems: [{ field: 'input', message: 'input must change a rating, the time of day or the notes' }],
    };
  }
  return validateAssessment({
    ...kept.ratings,
    timeOfDayPreference: kept.timeOfDay,
    notes: kept.notes,
    ...Object.fromEntries(given.map((field) => [field, changes[field]])),
  });
}
