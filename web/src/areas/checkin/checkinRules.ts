/** Pure rules of the check-in area's pages (labels, cuts, the calendar), unit-tested beside. */
import type { EntryEditInput } from '../../graphql/operations.generated';

/** The day of a date in the browser's own time zone, as yyyy-mm-dd (the calendar's and ?date='s format). */
export function dayKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A month as the server's calendar query takes it: yyyy-mm (`month` counted from 0, as Date does). */
export function monthKey(year: number, month: number): string {
  return `${year}-${String(month + 1).padStart(2, '0')}`;
}

/** A yyyy-mm-dd day as a local date at noon (clear of daylight-saving edges), or null when it is no real day. */
export function dayFromKey(key: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const date = new Date(year, month, day, 12);
  return date.getFullYear() === year && date.getMonth() === month && date.getDate() === day ? date : null;
}

/** What the progress list's day filter says: "Showing 27 November 2026" (in the browser's own format). */
export function dayFilterLabel(key: string, locale?: string): string {
  const day = dayFromKey(key);
  return `Showing ${day ? day.toLocaleDateString(locale, { day: 'numeric', month: 'long', year: 'numeric' }) : key}`;
}

/**
 * A calendar day's accessible name: its full date, holding the day's number as shown ("Friday 27 November 2026"),
 * and whether the user checked in that day.
 */
export function calendarDayLabel(day: Date, checkedIn: boolean, locale?: string): string {
  const date = day.toLocaleDateString(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  return checkedIn ? `${date}, checked in` : date;
}

/**
 * A day of the year view, read without its colour: "Tuesday 3 March 2026: mood 3.5 of 5, 2 check-ins".
 */
export function yearDayLabel(day: Date, mood: number, entries: number, locale?: string): string {
  const date = day.toLocaleDateString(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const moodText = Number.isInteger(mood) ? String(mood) : mood.toFixed(1);
  return `${date}: mood ${moodText} of 5, ${entries} ${entries === 1 ? 'check-in' : 'check-ins'}`;
}

const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());

/** Whole local days from `date` to `now` (0 = today). */
function daysAgo(date: Date, now: Date): number {
  return Math.round((startOfDay(now).getTime() - startOfDay(date).getTime()) / 86_400_000);
}

/** Today, Yesterday, else "Mar 5" (dashboard) or "Mar 5, 2026" (progress). */
export function relativeDayLabel(date: Date, now: Date, withYear = false): string {
  const ago = daysAgo(date, now);
  if (ago === 0) return 'Today';
  if (ago === 1) return 'Yesterday';
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', ...(withYear ? { year: 'numeric' } : {}) });
}

/** The first `length` characters, with "..." when cut. */
export function cutText(text: string, length: number): { text: string; cut: boolean } {
  return text.length <= length ? { text, cut: false } : { text: `${text.slice(0, length).trimEnd()}...`, cut: true };
}

/** The weeks of a month, Sunday first; days outside the month are null. */
export function monthGrid(year: number, month: number): Array<Array<Date | null>> {
  const first = new Date(year, month, 1);
  const daysInMonth = new Date(year, month + 1, 0).getDate();
  const cells: Array<Date | null> = Array.from({ length: first.getDay() }, () => null);
  for (let day = 1; day <= daysInMonth; day += 1) cells.push(new Date(year, month, day));
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: Array<Array<Date | null>> = [];
  for (let index = 0; index < cells.length; index += 7) weeks.push(cells.slice(index, index + 7));
  return weeks;
}

export const WEEKDAYS = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'] as const;

export interface EmotionalStateView {
  motivationLevel: number;
  confidenceLevel: number;
  focusClarity: number;
  stressLevel: number;
  anxietyLevel: number;
  senseOfPurpose: number;
}

/** The "Your Emotional State" grid of an expanded progress row, in its fixed order. */
export function emotionalBars(state: EmotionalStateView): Array<{ label: string; value: number }> {
  return [
    { label: 'Motivation', value: state.motivationLevel },
    { label: 'Confidence', value: state.confidenceLevel },
    { label: 'Focus', value: state.focusClarity },
    { label: 'Stress', value: state.stressLevel },
    { label: 'Anxiety', value: state.anxietyLevel },
    { label: 'Purpose', value: state.senseOfPurpose },
  ];
}

/** The progress badge: "3.9/5". */
export const scoreLabel = (score: number): string => `${score.toFixed(1)}/5`;

const DELETE_ENTRY = 'Delete entry';

/** The words of deleting an entry: the row's button, the dialog that asks first, and the toasts after. */
export const entryDeletion = {
  button: DELETE_ENTRY,
  title: 'Delete this entry?',
  description:
    'The check-in, its notes and its message are deleted for good. Your progress, streaks and analytics will no longer count it.',
  confirmLabel: DELETE_ENTRY,
  cancelLabel: 'Keep it',
  deletedToast: { title: 'Entry deleted' },
  failedToast: { title: 'That entry could not be deleted. Please try again.', variant: 'destructive' },
} as const;

/** The delete button's accessible name, saying which entry by the day its row shows: "Delete entry from Today". */
export const deleteEntryLabel = (dayLabel: string): string => `${entryDeletion.button} from ${dayLabel}`;

/** A time of day as the page shows it: "Morning". */
export const timeOfDayLabel = (time: string): string => time.charAt(0).toUpperCase() + time.slice(1);

/** The server's rule for how long an entry can be changed, so the page offers what the server accepts. */
export {
  entryEditableDays as ENTRY_EDITABLE_DAYS,
  isEditable as isEntryEditable,
} from '@haven/domain/src/entry-editing';

const EDIT_ENTRY = 'Edit entry';

/** The words of editing an entry: the row's button, the form, the toast after and the row's marker. */
export const entryEditing = {
  button: EDIT_ENTRY,
  title: 'Edit this entry',
  description:
    'Change your ratings, the time of day or your notes. Your progress and analytics will count the new answers.',
  saveLabel: 'Save changes',
  cancelLabel: 'Cancel',
  savedToast: { title: 'Entry updated', description: 'Your progress now counts your new answers.' },
  nothingChanged: 'Nothing has changed yet. Move a slider, choose another time of day or change your notes.',
  failed: "We couldn't save that. Your changes are still here. Please try again.",
  editedMarker: 'Edited',
} as const;

/** The edit button's accessible name, saying which entry by the day its row shows: "Edit entry from Today". */
export const editEntryLabel = (dayLabel: string): string => `${entryEditing.button} from ${dayLabel}`;

/** An entry's answers: as kept (notes null when none), or as the edit form holds them (notes as typed). */
export interface EntryAnswers {
  ratings: Readonly<Record<string, number>>;
  timeOfDay: string;
  notes: string | null;
}

/**
 * What an edit sends: only the answers that differ from the kept ones, so the rest stay as they are. Notes are
 * compared trimmed, and emptied notes are sent as null (removed); when the person keeps no notes, the form has no
 * notes box and the kept ones are not touched. Null when nothing changed.
 */
export function entryEditChanges(kept: EntryAnswers, form: EntryAnswers, notesKept: boolean): EntryEditInput | null {
  const changes: Record<string, number | string | null> = {};
  for (const [dimension, value] of Object.entries(form.ratings)) {
    if (kept.ratings[dimension] !== value) changes[dimension] = value;
  }
  if (form.timeOfDay !== kept.timeOfDay) changes.timeOfDayPreference = form.timeOfDay;
  const notes = form.notes?.trim() || null;
  if (notesKept && notes !== (kept.notes?.trim() || null)) changes.notes = notes;
  return Object.keys(changes).length > 0 ? (changes as EntryEditInput) : null;
}

/**
 * Where a refused edit's messages show: a field's message under the field the form has for it, the rest (the entry
 * itself, the country) above the buttons. With nothing the person can act on field by field, the server's own
 * message, else one that says the changes are still there.
 */
export function entryEditProblems(
  fieldMessages: Readonly<Record<string, string>>,
  formFields: readonly string[],
  serverMessage: string | undefined,
): { fields: Record<string, string>; form: string } {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const [field, message] of Object.entries(fieldMessages)) {
    if (formFields.includes(field)) fields[field] = message;
    else rest.push(message);
  }
  if (rest.length > 0) return { fields, form: rest.join(' ') };
  const hasFieldMessages = Object.keys(fields).length > 0;
  return { fields, form: hasFieldMessages ? entryEditing.failed : (serverMessage ?? entryEditing.failed) };
}

/**
 * A new idempotency key for one check-in submission: 32 hex digits from the browser's random source
 * (crypto.getRandomValues also works off HTTPS, where randomUUID is missing). The same submission sent again,
 * a double click or a retry, carries the same key, so the server stores it once.
 */
export function newSubmissionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
