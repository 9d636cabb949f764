/**
 * The numbers of the progress and analytics pages (document 000 section 5, document 001 section 4). Pure:
 * every rule that depends on "today" takes the instant and the user's IANA time zone.
 */

/** The six ratings of the "emotionalState" a quote carries for the progress and analytics pages. */
export interface EmotionalState {
  stressLevel: number;
  confidenceLevel: number;
  motivationLevel: number;
  anxietyLevel: number;
  hopeForFuture: number;
  gratitudeLevels: number;
  focusClarity: number;
  senseOfPurpose: number;
}

const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Per-quote score: the mean of motivation, confidence, focus, 6 − stress, 6 − anxiety, purpose and hope. */
export function quoteScore(state: EmotionalState): number {
  return mean([
    state.motivationLevel,
    state.confidenceLevel,
    state.focusClarity,
    6 - state.stressLevel,
    6 - state.anxietyLevel,
    state.senseOfPurpose,
    state.hopeForFuture,
  ]);
}

/** One check-in's mood: the mean of 6 − stress, confidence, motivation, 6 − anxiety, hope and gratitude. */
export function moodOf(state: EmotionalState): number {
  return mean([
    6 - state.stressLevel,
    state.confidenceLevel,
    state.motivationLevel,
    6 - state.anxietyLevel,
    state.hopeForFuture,
    state.gratitudeLevels,
  ]);
}

/** The "Avg Mood" tile: the mean mood over the given check-ins, 0 when there are none. */
export function averageMood(states: EmotionalState[]): number {
  return states.length === 0 ? 0 : mean(states.map(moodOf));
}

export type Colour = 'green' | 'yellow' | 'red';

/** A progress row's dot: green from 4, yellow from 3, red below. */
export function dotColour(score: number): Colour {
  return score >= 4 ? 'green' : score >= 3 ? 'yellow' : 'red';
}

/** The analytics mood colour: the same thresholds (4 and 3) on the average mood. */
export const moodColour = dotColour;

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

/** Weekly goal: check-ins this week (Sunday to Saturday, local) out of 7, as a whole percentage capped at 100. */
export function weeklyGoal(createdAt: Date[], now: Date, timeZone: string): number {
  const today = dayNumber(now, timeZone);
  // Day 0 (1970-01-01) was a Thursday: (day + 4) mod 7 is 0 on a Sunday.
  const sunday = today - ((today + 4) % 7);
  const thisWeek = createdAt.filter((instant) => {
    const day = dayNumber(instant, timeZone);
    return day >= sunday && day <= today;
  }).length;
  return Math.min(100, Math.round((thisWeek / 7) * 100));
}

/**
 * Day streak, the spec's rule: consecutive days back from today with at least one check-in. A day without
 * one today means 0 (the rule counts from today); no guilt is attached to it on screen.
 */
export function dayStreak(createdAt: Date[], now: Date, timeZone: string): number {
  const days = new Set(createdAt.map((instant) => dayNumber(instant, timeZone)));
  let streak = 0;
  for (let day = dayNumber(now, timeZone); days.has(day); day -= 1) streak += 1;
  return streak;
}

/** The longest run of consecutive local days with at least one check-in. */
export function longestStreak(createdAt: Date[], timeZone: string): number {
  const days = [...new Set(createdAt.map((instant) => dayNumber(instant, timeZone)))].sort((a, b) => a - b);
  let longest = 0;
  let run = 0;
  for (let index = 0; index < days.length; index += 1) {
    run = index > 0 && days[index] === days[index - 1]! + 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  return longest;
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

export function recordDay(state: StreakState, day: number): StreakState {
  if (state.lastDay !== null && day <= state.lastDay) return state;
  const run = state.lastDay !== null && day === state.lastDay + 1 ? state.run + 1 : 1;
  return { lastDay: day, run, longest: Math.max(state.longest, run) };
}

/** The current streak from the kept state: the run counts only if it reaches today. */
export function currentStreakOf(state: StreakState, today: number): number {
  return state.lastDay === today ? state.run : 0;
}

export type Trend = 'up' | 'down' | 'flat';
export const trendThreshold = 0.3;

/**
 * Trend of a mood history listed newest first: the first half (the recent one, the smaller half when the
 * count is odd) against the rest; more than 0.3 apart is up or down, else flat; fewer than 2 → flat.
 */
export function trendOf(historyNewestFirst: number[]): Trend {
  if (historyNewestFirst.length < 2) return 'flat';
  const half = Math.floor(historyNewestFirst.length / 2);
  const difference = mean(historyNewestFirst.slice(0, half)) - mean(historyNewestFirst.slice(half));
  if (difference > trendThreshold) return 'up';
  if (difference < -trendThreshold) return 'down';
  return 'flat';
}
