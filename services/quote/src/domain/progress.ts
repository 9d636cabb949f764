/**
 * The numbers of the progress and analytics pages. Pure:
 * every rule that depends on "today" takes the instant and the user's IANA time zone. The rules the
 * notification service's weekly summary states too (days in a time zone, the streak, the trend's 0.3
 * threshold) live in the domain package's check-in-rules.ts and are re-exported here.
 */
import {
  ascendingDays,
  dayNumber,
  moodDirection,
  noStreak,
  streakEndingOn,
  weekStartDay,
  type CheckInDimension,
  type StreakState,
  type Trend,
} from '@haven/domain';

export {
  ascendingDays,
  currentStreakOf,
  dayNumber,
  dayStreak,
  localDate,
  noStreak,
  recordDay,
  trendThreshold,
  type StreakState,
  type Trend,
} from '@haven/domain';

/** The eight ratings of the "emotionalState" a quote carries for the progress and analytics pages, in its order. */
export const emotionalStateRatings = [
  'stressLevel',
  'confidenceLevel',
  'motivationLevel',
  'anxietyLevel',
  'hopeForFuture',
  'gratitudeLevels',
  'focusClarity',
  'senseOfPurpose',
] as const satisfies ReadonlyArray<CheckInDimension>;

export type EmotionalState = Record<(typeof emotionalStateRatings)[number], number>;

/** The emotional state a quote keeps of a check-in's ratings: those eight, no others. */
export function emotionalStateOf(ratings: EmotionalState): EmotionalState {
  return Object.fromEntries(
    emotionalStateRatings.map((rating) => [rating, ratings[rating]]),
  ) as unknown as EmotionalState;
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
  const sorted = ascendingDays(days);
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
  let all = days;
  if (earlier.lastDay !== null) {
    const list = [...days];
    for (let day = earlier.lastDay - earlier.run + 1; day <= earlier.lastDay; day += 1) list.push(day);
    all = list;
  }
  // Sorted once, then both streaks are one pass each: a decade of days costs microseconds, not milliseconds.
  const ascending = ascendingDays(all);
  return {
    current: streakEndingOn(ascending, today),
    longest: Math.max(earlier.longest, longestRun(ascending)),
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

/**
 * A set of day numbers kept as bits, 32 days to a word, each word named by its index (`w<index>`): a day joins or
 * leaves the set with one atomic bit operation on one word, and a decade of daily check-ins is about 115 words
 * instead of 3,650 numbers to read on every progress page.
 */
export type DayBits = Record<string, number>;

const dayBitsPerWord = 32;

/** The word a day's bit is in, and the bit as a 32-bit mask (bit 31 is the sign bit, as the store keeps it). */
export function dayBit(day: number): { word: string; mask: number } {
  const index = Math.floor(day / dayBitsPerWord);
  return { word: `w${index}`, mask: 1 << (day - index * dayBitsPerWord) };
}

/** The days a set of words holds, ascending. */
export function daysOfBits(bits: DayBits | undefined): number[] {
  const days: number[] = [];
  for (const [index, word] of wordsInOrder(bits)) {
    for (let bit = 0; bit < dayBitsPerWord; bit += 1) {
      if ((word >>> bit) & 1) days.push(index * dayBitsPerWord + bit);
    }
  }
  return days;
}

/**
 * The streaks of a set of days kept as bits, in one pass over the words without listing the days: what
 * `streaksOf(daysOfBits(bits), today)` says, at a cost that stays small with decades of days. Each word is read a
 * run of consecutive days at a time (a daily habit fills words with few gaps), not a day at a time.
 */
export function streaksOfBits(bits: DayBits | undefined, today: number): Streaks {
  let longest = 0;
  let current = 0;
  let run = 0;
  let previous = Number.NEGATIVE_INFINITY;
  for (const [index, word] of wordsInOrder(bits)) {
    const first = index * dayBitsPerWord;
    for (let rest = word; rest !== 0;) {
      // The run's first bit is the lowest set one; its length, the count of ones from there up.
      const start = trailingZeros(rest);
      const length = Math.min(trailingZeros(~(rest >>> start)), dayBitsPerWord - start);
      const runStart = first + start;
      run = runStart === previous + 1 ? run + length : length;
      previous = runStart + length - 1;
      if (run > longest) longest = run;
      if (today >= runStart && today <= previous) current = run - (previous - today);
      // Clears the run's bits (integer shifts only: a power of two as a float costs five times the loop).
      rest &= length === dayBitsPerWord ? 0 : ~(((1 << length) - 1) << start);
    }
  }
  return { current, longest };
}

/**
 * A record's words that hold days, by index, ascending. They are kept in the order first written, which is ascending
 * unless an earlier day was written later (a late check-in, an edit), so sorting is the exception. Names that are not
 * words are skipped.
 */
function wordsInOrder(bits: DayBits | undefined): Array<readonly [index: number, word: number]> {
  const words: Array<readonly [number, number]> = [];
  let ascending = true;
  for (const name in bits) {
    const index = Number(name.slice(1));
    const word = bits[name]!;
    if (!Number.isInteger(index) || word === 0) continue;
    if (words.length > 0 && index < words[words.length - 1]![0]) ascending = false;
    words.push([index, word]);
  }
  return ascending ? words : words.sort(([a], [b]) => a - b);
}

/** The index of a 32-bit word's lowest set bit; 32 for a word of none. */
const trailingZeros = (word: number): number => (word === 0 ? dayBitsPerWord : 31 - Math.clz32(word & -word));

/** The words holding a set of days (for writing a whole record at once). */
export function bitsOfDays(days: Iterable<number>): DayBits {
  const bits: DayBits = {};
  for (const day of days) {
    const { word, mask } = dayBit(day);
    bits[word] = (bits[word] ?? 0) | mask;
  }
  return bits;
}

/** How many of its latest folds a progress record remembers by check-in id: far more than an hour's check-ins. */
export const foldsRemembered = 64;

/** What a progress record says about the folds it made: how many it counts, and the latest of them by id. */
export interface FoldMemory {
  entries: number;
  /** The ids of the latest check-ins folded in, oldest first (at most `foldsRemembered`). */
  folded?: string[];
}

/**
 * Whether a stored check-in is missing from a user's progress (its request failed after storing it): only when
 * the record's memory provably reaches back to it, that is, when it remembers every fold it counts or more folds
 * than check-ins were stored after this one. Otherwise (a record kept before folds were remembered, a check-in too
 * far back) it is taken as folded in: counting a check-in twice would be the worse error.
 */
export function foldIsMissing(record: FoldMemory | null, checkInId: string, storedAfter: number): boolean {
  if (!record) return true;
  const folded = record.folded ?? [];
  if (folded.includes(checkInId)) return false;
  return folded.length === record.entries || folded.length > storedAfter;
}
