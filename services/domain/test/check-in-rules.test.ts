import {
  dateOfDay,
  dayNumber,
  moodDirection,
  noStreak,
  recordDay,
  streakEndingOn,
  streakOnDay,
  weekdayOfDay,
  weekStartDay,
} from '../src/check-in-rules';

const at = (iso: string) => new Date(iso);

describe('calendar days', () => {
  it('names the weekday of a day number and the Sunday its week starts on', () => {
    const sunday = dayNumber(at('2026-11-22T12:00:00Z'), 'UTC');
    expect(weekdayOfDay(sunday)).toBe(0);
    expect(weekdayOfDay(sunday + 6)).toBe(6);
    expect(weekStartDay(sunday)).toBe(sunday);
    expect(weekStartDay(sunday + 6)).toBe(sunday);
    expect(weekStartDay(sunday + 7)).toBe(sunday + 7);
    expect(dateOfDay(sunday)).toBe('2026-11-22');
  });

  it('keeps weeks of seven days across a year end', () => {
    const saturday = dayNumber(at('2027-01-02T12:00:00Z'), 'UTC');
    expect(dateOfDay(weekStartDay(saturday))).toBe('2026-12-27');
    expect(weekdayOfDay(dayNumber(at('2026-12-31T12:00:00Z'), 'UTC'))).toBe(4); // a Thursday
  });
});

describe('the streak', () => {
  it('counts consecutive days back from the given day', () => {
    expect(streakEndingOn([10, 11, 12, 14], 12)).toBe(3);
    expect(streakEndingOn([10, 11, 12, 14], 13)).toBe(0);
    expect(streakEndingOn([], 12)).toBe(0);
  });

  it('reads the run reaching an earlier day from the kept state, or says it cannot', () => {
    let state = noStreak;
    for (const day of [3, 5, 6, 7, 8]) state = recordDay(state, day);
    expect(state).toEqual({ lastDay: 8, run: 4, longest: 4 });
    expect(streakOnDay(state, 8)).toBe(4);
    expect(streakOnDay(state, 7)).toBe(3);
    expect(streakOnDay(state, 5)).toBe(1);
    expect(streakOnDay(state, 4)).toBe(0); // the day before the run had no check-in
    expect(streakOnDay(state, 3)).toBeNull(); // an older run: the state no longer knows it
    expect(streakOnDay(state, 9)).toBe(0);
    expect(streakOnDay(noStreak, 9)).toBe(0);
  });
});

describe('the mood direction (0.3 threshold)', () => {
  it('is up or down only beyond 0.3, flat otherwise', () => {
    expect(moodDirection(3.5, 3.1)).toBe('up');
    expect(moodDirection(3.1, 3.5)).toBe('down');
    expect(moodDirection(3.5, 3.3)).toBe('flat');
    expect(moodDirection(3.5, 3.5)).toBe('flat');
    expect(moodDirection(3.5, 3.25)).toBe('flat');
    expect(moodDirection(4, 3.7)).toBe('flat'); // exactly 0.3 (in floating point, a hair under) is not more than 0.3
  });
});
