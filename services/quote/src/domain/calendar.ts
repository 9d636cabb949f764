/** The dashboard calendar's month: which instants may fall in it, and which of its days had a check-in. Pure. */
import { localDate } from '@haven/platform';

const monthPattern = /^(\d{4})-(0[1-9]|1[0-2])$/;
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
