/**
 * The check-in rules more than one service states: calendar days in the user's IANA time zone, the day
 * streak (consecutive days with at least one check-in, counted by elapsed 24-hour differences) and the
 * mood trend's direction (more than 0.3 apart is up or down). The quote service's progress and
 * analytics and the notification service's weekly summary use them, so both say the same. Pure: no I/O,
 * every "today" is passed in.
 */

/**
 * The 15 rated dimensions of a check-in, in the order of the assessment payload: the one list of them. Each with
 * how people read it (the slider's label, the words of messages, insights and the AI prompt) and the card /sliders
 * shows it in. The quote service validates exactly these, the gateway's REST facade passes exactly these on, and
 * the web app draws its sliders from them.
 */
export const checkInDimensionTable = [
  { name: 'stressLevel', label: 'Stress', group: 'Emotional & Mental State' },
  { name: 'confidenceLevel', label: 'Confidence', group: 'Emotional & Mental State' },
  { name: 'focusClarity', label: 'Focus and clarity', group: 'Emotional & Mental State' },
  { name: 'motivationLevel', label: 'Motivation', group: 'Emotional & Mental State' },
  { name: 'anxietyLevel', label: 'Anxiety', group: 'Emotional & Mental State' },
  { name: 'connectionWithOthers', label: 'Connection with others', group: 'Social & Relationships' },
  { name: 'supportSystemStrength', label: 'Support system strength', group: 'Social & Relationships' },
  { name: 'senseOfPurpose', label: 'Sense of purpose', group: 'Purpose & Direction' },
  { name: 'progressTowardGoals', label: 'Progress toward goals', group: 'Purpose & Direction' },
  { name: 'hopeForFuture', label: 'Hope for future', group: 'Purpose & Direction' },
  { name: 'sleepQuality', label: 'Sleep quality', group: 'Physical Wellbeing' },
  { name: 'physicalComfort', label: 'Physical comfort', group: 'Physical Wellbeing' },
  { name: 'currentChallengeLevel', label: 'Current challenge level', group: 'Daily Context' },
  { name: 'gratitudeLevels', label: 'Gratitude levels', group: 'Daily Context' },
  { name: 'urgencyOfNeed', label: 'Urgency of need', group: 'Daily Context' },
] as const;

/** A dimension's name, as the payload and the GraphQL schema spell it. */
export type CheckInDimension = (typeof checkInDimensionTable)[number]['name'];

/** The dimensions' names, in the payload's order. */
export const checkInDimensions: readonly CheckInDimension[] = checkInDimensionTable.map((dimension) => dimension.name);

const dayMs = 24 * 60 * 60 * 1000;
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (yyyy-mm-dd) of an instant in an IANA time zone. */
export function localDate(instant: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/**
 * A day number: local midnight of the instant's date counted as whole 24-hour days since 1970-01-01. Two
 * instants' day numbers differ by the elapsed 24-hour days between their local dates, also across a
 * daylight-saving change or a month's end.
 */
export function dayNumber(instant: Date, timeZone: string): number {
  const [year, month, day] = localDate(instant, timeZone).split('-').map(Number);
  return Math.round(Date.UTC(year!, month! - 1, day!) / dayMs);
}

/** The calendar date (yyyy-mm-dd) a day number stands for. */
export function dateOfDay(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}

/** 0 on a Sunday … 6 on a Saturday (day 0, 1970-01-01, was a Thursday). */
export function weekdayOfDay(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** The first day (a Sunday) of the week a day is in: the app's weeks start on Sunday, as its calendar does. */
export function weekStartDay(day: number): number {
  return day - weekdayOfDay(day);
}

/**
 * The days in ascending order, each once: the list itself when it already is (a kept record's days are), in one
 * pass; otherwise a sorted copy.
 */
export function ascendingDays(days: Iterable<number>): number[] {
  const list = Array.isArray(days) ? (days as number[]) : [...days];
  for (let index = 1; index < list.length; index += 1) {
    if (list[index]! <= list[index - 1]!) return [...new Set(list)].sort((a, b) => a - b);
  }
  return list;
}

/** The day streak: consecutive days back from `lastDay` with at least one check-in. */
export function streakEndingOn(days: Iterable<number>, lastDay: number): number {
  const ascending = ascendingDays(days);
  let index = ascending.length - 1;
  while (index >= 0 && ascending[index]! > lastDay) index -= 1;
  let streak = 0;
  while (index >= 0 && ascending[index] === lastDay - streak) {
    streak += 1;
    index -= 1;
  }
  return streak;
}

/** The streak back from today: no check-in yet today means 0 (no guilt is attached to it on screen). */
export function dayStreak(createdAt: Date[], now: Date, timeZone: string): number {
  return streakEndingOn(
    createdAt.map((instant) => dayNumber(instant, timeZone)),
    dayNumber(now, timeZone),
  );
}

/**
 * The running streak kept per user so reading it never scans the history: the last local day with a
 * check-in, the run that ends on it and the longest run so far. `recordDay` folds one more check-in in.
 */
export interface StreakState {
  lastDay: number | null;
  run: number;
  longest: number;
}

export const noStreak: StreakState = { lastDay: null, run: 0, longest: 0 };

/** Folds in a check-in's day; a day at or before the last one (a repeat, a late event) changes nothing. */
export function recordDay(state: StreakState, day: number): StreakState {
  if (state.lastDay !== null && day <= state.lastDay) return state;
  const run = state.lastDay !== null && day === state.lastDay + 1 ? state.run + 1 : 1;
  return { lastDay: day, run, longest: Math.max(state.longest, run) };
}

/** The current streak from the kept state: the run counts only if it reaches today. */
export function currentStreakOf(state: StreakState, today: number): number {
  return state.lastDay === today ? state.run : 0;
}

/**
 * The streak back from an earlier `day` read from the kept state: the part of the run that reaches it
 * when `day` lies inside the run; 0 when no check-in came on or before it and after it; null when the
 * state cannot tell (the run that ended on `day`, if any, was followed by a gap and a newer run).
 */
export function streakOnDay(state: StreakState, day: number): number | null {
  // No check-in after the last one: a later day has none of its own.
  if (state.lastDay === null || day > state.lastDay) return 0;
  const runStart = state.lastDay - state.run + 1;
  if (day >= runStart) return day - runStart + 1;
  // The day just before the run started had no check-in, or the run would include it.
  return day === runStart - 1 ? 0 : null;
}

export type Trend = 'up' | 'down' | 'flat';
export const trendThreshold = 0.3;

/** A recent mean mood against an earlier one: more than 0.3 higher is up, more than 0.3 lower down, else flat. */
export function moodDirection(recent: number, earlier: number): Trend {
  const difference = recent - earlier;
  if (difference > trendThreshold) return 'up';
  if (difference < -trendThreshold) return 'down';
  return 'flat';
}
