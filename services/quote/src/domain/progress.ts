/**
 * The numbers of the progress and analytics pages. Pure:
 * every rule that depends on "today" takes the instant and the user's IANA time zone. The rules the
 * notification service's weekly summary states too (days in a time zone, the streak, the trend's 0.3
 * threshold) live in the platform's check-in-rules.ts and are re-exported here.
 */
import {
  dayNumber,
  moodDirection,
  noStreak,
  streakEndingOn,
  weekStartDay,
  type StreakState,
  type Trend,
} from '@haven/platform';

export {
  currentStreakOf,
  dayNumber,
  dayStreak,
  localDate,
  noStreak,
  recordDay,
  trendThreshold,
  type StreakState,
  type Trend,
} from '@haven/platform';

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

/** Weekly goal: check-ins this week (Sunday to Saturday, local) out of 7, as a whole percentage capped at 100. */
export function weeklyGoal(createdAt: Date[], now: Date, timeZone: string): number {
  const today = dayNumber(now, timeZone);
  const sunday = weekStartDay(today);
  const thisWeek = createdAt.filter((instant) => {
    const day = dayNumber(instant, timeZone);
    return day >= sunday && day <= today;
  }).length;
  return Math.min(100, Math.round((thisWeek / 7) * 100));
}

/** The longest run of consecutive local days with at least one check-in. */
export function longestStreak(createdAt: Date[], timeZone: string): number {
  return longestRun(createdAt.map((instant) => dayNumber(instant, timeZone)));
}

/** The longest run of consecutive day numbers among the given ones (repeats count once). */
export function longestRun(days: Iterable<number>): number {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  let longest = 0;
  let run = 0;
  for (let index = 0; index < sorted.length; index += 1) {
    run = index > 0 && sorted[index] === sorted[index - 1]! + 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  return longest;
}

export interface Streaks {
  /** Consecutive days back from today; 0 without a check-in today. */
  current: number;
  longest: number;
}

/**
 * The streaks from the local days with a check-in, in any order and with repeats. `earlier` is a running
 * state kept before the days were: the days of its run count too, and its longest run stands.
 */
export function streaksOf(days: Iterable<number>, today: number, earlier: StreakState = noStreak): Streaks {
  const checkedIn = new Set(days);
  if (earlier.lastDay !== null) {
    for (let day = earlier.lastDay - earlier.run + 1; day <= earlier.lastDay; day += 1) checkedIn.add(day);
  }
  return {
    current: streakEndingOn(checkedIn, today),
    longest: Math.max(earlier.longest, longestRun(checkedIn)),
  };
}

/**
 * Trend of a mood history listed newest first: the first half (the recent one, the smaller half when the
 * count is odd) against the rest; more than 0.3 apart is up or down, else flat; fewer than 2 → flat.
 */
export function trendOf(historyNewestFirst: number[]): Trend {
  if (historyNewestFirst.length < 2) return 'flat';
  const half = Math.floor(historyNewestFirst.length / 2);
  return moodDirection(mean(historyNewestFirst.slice(0, half)), mean(historyNewestFirst.slice(half)));
}
