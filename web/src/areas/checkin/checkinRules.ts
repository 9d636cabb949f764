/** Pure rules of the check-in area's pages (labels, cuts, the calendar), unit-tested beside. */

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

/** The "Your Emotional State" grid of an expanded progress row, in the spec's order. */
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

/**
 * A new idempotency key for one check-in submission: 32 hex digits from the browser's random source
 * (crypto.getRandomValues also works off HTTPS, where randomUUID is missing). The same submission sent again,
 * a double click or a retry, carries the same key, so the server stores it once.
 */
export function newSubmissionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
