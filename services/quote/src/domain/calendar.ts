/**
 * The dashboard calendar's month and the year view: which instants may fall in them, and which of their days had
 * a check-in (with the day's mood, for the year). Pure.
 */
import { localDate } from '@haven/domain';

const monthPattern = /^(\d{4})-(0[1-9]|1[0-2])$/;
const yearPattern = /^\d{4}$/;
const dayMs = 24 * 60 * 60 * 1000;

export interface MonthWindow {
  /** yyyy-mm, as asked. */
  month: string;
  /** Every instant of the month in any time zone lies in [from, to): the UTC month with a day either side. */
  from: Date;
  to: Date;
}

/** A month written yyyy-mm (years 1970–9999), else null. */
export function monthWindow(month: string): MonthWindow | null {
  const match = monthPattern.exec(month);
  if (!match) return null;
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  if (year < 1970) return null;
  return {
    month,
    from: new Date(Date.UTC(year, index, 1) - dayMs),
    to: new Date(Date.UTC(year, index + 1, 1) + dayMs),
  };
}

/** The distinct days (yyyy-mm-dd, in the time zone) of the month with a check-in, in order. */
export function checkInDaysOf(instants: Date[], month: string, timeZone: string): string[] {
  const days = new Set(
    instants.map((instant) => localDate(instant, timeZone)).filter((day) => day.startsWith(`${month}-`)),
  );
  return [...days].sort();
}

export interface YearWindow {
  /** yyyy, as asked. */
  year: string;
  /** Every instant of the year in any time zone lies in [from, to): the UTC year with a day either side. */
  from: Date;
  to: Date;
}

/** A year written yyyy (1970–9999), else null. */
export function yearWindow(year: string): YearWindow | null {
  if (!yearPattern.test(year) || Number(year) < 1970) return null;
  return {
    year,
    from: new Date(Date.UTC(Number(year), 0, 1) - dayMs),
    to: new Date(Date.UTC(Number(year) + 1, 0, 1) + dayMs),
  };
}

export interface DayMood {
  /** yyyy-mm-dd in the time zone. */
  date: string;
  /** The mean mood of the day's check-ins, to two decimals. */
  mood: number;
  entries: number;
}

/** The days (in the time zone) of the year with a check-in, in order, each with its check-ins' mean mood. */
export function moodsByDay(samples: Array<{ at: Date; mood: number }>, year: string, timeZone: string): DayMood[] {
  const days = new Map<string, { sum: number; entries: number }>();
  for (const { at, mood } of samples) {
    const date = localDate(at, timeZone);
    if (!date.startsWith(`${year}-`)) continue;
    const day = days.get(date) ?? { sum: 0, entries: 0 };
    days.set(date, { sum: day.sum + mood, entries: day.entries + 1 });
  }
  return [...days.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, { sum, entries }]) => ({ date, mood: Math.round((sum / entries) * 100) / 100, entries }));
}
