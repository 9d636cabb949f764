import {
  averageMood,
  bitsOfDays,
  currentStreakOf,
  dayBit,
  dayNumber,
  dayStreak,
  daysOfBits,
  dotColour,
  foldIsMissing,
  longestRun,
  longestStreak,
  moodColour,
  moodOf,
  noStreak,
  quoteScore,
  recordDay,
  streaksOf,
  streaksOfBits,
  trendOf,
  weeklyGoal,
  type EmotionalState,
} from '../src/domain/progress';

const state = (overrides: Partial<EmotionalState> = {}): EmotionalState => ({
  stressLevel: 3,
  confidenceLevel: 3,
  motivationLevel: 3,
  anxietyLevel: 3,
  hopeForFuture: 3,
  gratitudeLevels: 3,
  focusClarity: 3,
  senseOfPurpose: 3,
  ...overrides,
});
const at = (iso: string) => new Date(iso);

describe('per-quote score (7 values)', () => {
  it('averages motivation, confidence, focus, 6 − stress, 6 − anxiety, purpose and hope', () => {
    // 4 + 3 + 5 + (6−2) + (6−1) + 2 + 4 = 27; 27 / 7
    const score = quoteScore(
      state({
        motivationLevel: 4,
        confidenceLevel: 3,
        focusClarity: 5,
        stressLevel: 2,
        anxietyLevel: 1,
        senseOfPurpose: 2,
        hopeForFuture: 4,
        gratitudeLevels: 1,
      }),
    );
    expect(score).toBeCloseTo(27 / 7, 10);
  });

  it('is 1 for the hardest ratings and 5 for the brightest, gratitude playing no part', () => {
    const hardest = {
      motivationLevel: 1,
      confidenceLevel: 1,
      focusClarity: 1,
      stressLevel: 5,
      anxietyLevel: 5,
      senseOfPurpose: 1,
      hopeForFuture: 1,
    };
    expect(quoteScore(state({ ...hardest, gratitudeLevels: 5 }))).toBe(1);
    const brightest = {
      motivationLevel: 5,
      confidenceLevel: 5,
      focusClarity: 5,
      stressLevel: 1,
      anxietyLevel: 1,
      senseOfPurpose: 5,
      hopeForFuture: 5,
    };
    expect(quoteScore(state({ ...brightest, gratitudeLevels: 1 }))).toBe(5);
  });
});

describe('average mood (6 values)', () => {
  it('averages 6 − stress, confidence, motivation, 6 − anxiety, hope and gratitude for one check-in', () => {
    // (6−2) + 3 + 4 + (6−1) + 4 + 5 = 25; 25 / 6; focus and purpose play no part
    expect(
      moodOf(
        state({
          stressLevel: 2,
          confidenceLevel: 3,
          motivationLevel: 4,
          anxietyLevel: 1,
          hopeForFuture: 4,
          gratitudeLevels: 5,
          focusClarity: 1,
          senseOfPurpose: 1,
        }),
      ),
    ).toBeCloseTo(25 / 6, 10);
  });

  it('averages the moods of all check-ins for the tile, and is 0 with none', () => {
    // moods: all 3s → 3; (6−1)+5+5+(6−1)+5+5 = 30 → 5; tile (3 + 5) / 2 = 4
    const calm = state();
    const bright = state({
      stressLevel: 1,
      confidenceLevel: 5,
      motivationLevel: 5,
      anxietyLevel: 1,
      hopeForFuture: 5,
      gratitudeLevels: 5,
    });
    expect(averageMood([calm, bright])).toBe(4);
    expect(averageMood([])).toBe(0);
  });
});

describe('dot colour and mood colour', () => {
  it.each([
    [5, 'green'],
    [4, 'green'],
    [3.99, 'yellow'],
    [3, 'yellow'],
    [2.99, 'red'],
    [1, 'red'],
  ] as const)('%d is %s', (score, colour) => {
    expect(dotColour(score)).toBe(colour);
    expect(moodColour(score)).toBe(colour);
  });
});

describe('weekly goal (weeks start on Sunday)', () => {
  // 2026-11-22 is a Sunday; "now" is Wednesday 2026-11-25.
  const now = at('2026-11-25T12:00:00Z');

  it('counts check-ins from Sunday to today out of 7, rounded to a whole percent', () => {
    const checkIns = [
      at('2026-11-21T23:00:00Z'), // Saturday: last week
      at('2026-11-22T10:00:00Z'), // Sunday
      at('2026-11-23T10:00:00Z'),
      at('2026-11-25T08:00:00Z'),
      at('2026-11-25T09:00:00Z'), // two on one day count twice: "quotes within the week"
    ];
    expect(weeklyGoal(checkIns, now, 'UTC')).toBe(57); // 4 / 7 = 57.1 %
  });

  it('caps at 100', () => {
    const checkIns = Array.from({ length: 9 }, (_, index) => at(`2026-11-2${2 + (index % 4)}T1${index}:00:00Z`));
    expect(weeklyGoal(checkIns, now, 'UTC')).toBe(100);
  });

  it("decides the week in the user's time zone", () => {
    // 02:00 UTC on Sunday is still Saturday evening in New York: last week there.
    const checkIns = [at('2026-11-22T02:00:00Z')];
    expect(weeklyGoal(checkIns, now, 'UTC')).toBe(14); // 1 / 7
    expect(weeklyGoal(checkIns, now, 'America/New_York')).toBe(0);
  });

  it('starts a new week on Sunday itself', () => {
    expect(weeklyGoal([at('2026-11-21T12:00:00Z')], at('2026-11-22T12:00:00Z'), 'UTC')).toBe(0);
    expect(weeklyGoal([at('2026-11-22T00:30:00Z')], at('2026-11-22T12:00:00Z'), 'UTC')).toBe(14);
  });
});

describe('day streak', () => {
  it('counts consecutive days back from today across a month boundary', () => {
    const now = at('2026-03-01T10:00:00Z');
    const checkIns = [
      at('2026-03-01T08:00:00Z'),
      at('2026-02-28T20:00:00Z'),
      at('2026-02-27T09:00:00Z'),
      at('2026-02-25T09:00:00Z'),
    ];
    expect(dayStreak(checkIns, now, 'UTC')).toBe(3); // Mar 1, Feb 28, Feb 27; Feb 26 missing
  });

  it('is 0 when today has no check-in yet (the rule counts from today)', () => {
    expect(dayStreak([at('2026-02-28T20:00:00Z')], at('2026-03-01T10:00:00Z'), 'UTC')).toBe(0);
    expect(dayStreak([], at('2026-03-01T10:00:00Z'), 'UTC')).toBe(0);
  });

  it("takes today and each check-in's day in the user's time zone", () => {
    // 03:00 UTC on Mar 1 is 22:00 on Feb 28 in New York.
    const now = at('2026-03-01T03:00:00Z');
    const checkIns = [at('2026-02-28T15:00:00Z'), at('2026-02-27T12:00:00Z'), at('2026-02-26T12:00:00Z')];
    expect(dayStreak(checkIns, now, 'America/New_York')).toBe(3);
    expect(dayStreak(checkIns, now, 'UTC')).toBe(0); // Mar 1 in UTC, no check-in on it

    // Tokyo is UTC+9: Feb 28 20:00 UTC is Mar 1 05:00 there, so Feb 28 is empty.
    const tokyoNow = at('2026-03-01T10:00:00Z');
    const tokyoCheckIns = [at('2026-03-01T08:00:00Z'), at('2026-02-28T20:00:00Z'), at('2026-02-27T09:00:00Z')];
    expect(dayStreak(tokyoCheckIns, tokyoNow, 'Asia/Tokyo')).toBe(1);
    expect(dayStreak(tokyoCheckIns, tokyoNow, 'UTC')).toBe(3);
  });

  it('counts whole days across a daylight-saving change (London, 29 March 2026)', () => {
    const now = at('2026-03-30T08:00:00Z');
    const checkIns = [at('2026-03-30T07:00:00Z'), at('2026-03-29T23:30:00Z'), at('2026-03-28T23:30:00Z')];
    // In London: Mar 30 08:00, Mar 30 00:30 (BST), Mar 28 23:30 (GMT) → Mar 30 and Mar 28: streak 1.
    expect(dayStreak(checkIns, now, 'Europe/London')).toBe(1);
    expect(
      dayNumber(at('2026-03-30T00:00:00Z'), 'Europe/London') - dayNumber(at('2026-03-28T12:00:00Z'), 'Europe/London'),
    ).toBe(2);
  });
});

describe('longest streak', () => {
  it('finds the longest run of days, across months and with several check-ins a day', () => {
    const checkIns = [
      at('2026-01-30T10:00:00Z'),
      at('2026-01-31T10:00:00Z'),
      at('2026-01-31T18:00:00Z'),
      at('2026-02-01T10:00:00Z'),
      at('2026-02-02T10:00:00Z'), // Jan 30 – Feb 2: 4 days
      at('2026-02-10T10:00:00Z'),
      at('2026-02-11T10:00:00Z'),
    ];
    expect(longestStreak(checkIns, 'UTC')).toBe(4);
    expect(longestStreak([], 'UTC')).toBe(0);
  });

  it('uses the time zone to decide which days are consecutive', () => {
    // 23:30 UTC on Jan 1 and 00:30 UTC on Jan 3 are Jan 2 and Jan 3 in Tokyo (run of 2), Jan 1 and Jan 3 in UTC.
    const checkIns = [at('2026-01-01T23:30:00Z'), at('2026-01-03T00:30:00Z')];
    expect(longestStreak(checkIns, 'UTC')).toBe(1);
    expect(longestStreak(checkIns, 'Asia/Tokyo')).toBe(2);
  });

  it('is kept incrementally with the same result as from the whole history', () => {
    const days = [10, 11, 12, 14, 15, 16, 17, 20];
    const kept = days.reduce(recordDay, noStreak);
    expect(kept).toEqual({ lastDay: 20, run: 1, longest: 4 });
    expect(currentStreakOf(kept, 20)).toBe(1);
    expect(currentStreakOf(kept, 21)).toBe(0);
    expect(recordDay(recordDay(kept, 20), 21)).toEqual({ lastDay: 21, run: 2, longest: 4 });
  });
});

describe('streaks from the kept days', () => {
  it('counts the run reaching today and the longest run, whatever the order and repeats of the days', () => {
    const days = [20, 14, 10, 11, 17, 12, 15, 16, 20, 11];
    expect(longestRun(days)).toBe(4);
    expect(streaksOf(days, 20)).toEqual({ current: 1, longest: 4 });
    expect(streaksOf(days, 21)).toEqual({ current: 0, longest: 4 });
    expect(streaksOf([...days, 19, 18], 20)).toEqual({ current: 7, longest: 7 });
    expect(streaksOf([], 20)).toEqual({ current: 0, longest: 0 });
  });

  it('reads days already ascending as they are, and a day after today (a later time zone) ends no streak', () => {
    const decade = Array.from({ length: 3_650 }, (_, index) => 10_000 + index);
    expect(streaksOf(decade, 13_649)).toEqual({ current: 3_650, longest: 3_650 });
    expect(streaksOf(decade, 12_000)).toEqual({ current: 2_001, longest: 3_650 });
    expect(streaksOf([18, 19, 20, 21], 20)).toEqual({ current: 3, longest: 4 });
    expect(streaksOf([21, 20, 20, 19], 20)).toEqual({ current: 2, longest: 3 });
  });

  it('says what the running state said for the same days', () => {
    const days = [3, 4, 5, 9, 10, 12, 13, 14, 15, 20, 21];
    for (const today of [15, 16, 21, 22]) {
      const kept = days.filter((day) => day <= today).reduce(recordDay, noStreak);
      const fromDays = streaksOf(
        days.filter((day) => day <= today),
        today,
      );
      expect(fromDays).toEqual({ current: currentStreakOf(kept, today), longest: kept.longest });
    }
  });

  it('carries a running state kept before the days were: its run joins the new days, its longest stands', () => {
    const earlier = { lastDay: 30, run: 3, longest: 6 }; // days 28–30, and a run of 6 before
    expect(streaksOf([], 30, earlier)).toEqual({ current: 3, longest: 6 });
    expect(streaksOf([31, 32, 33, 34], 34, earlier)).toEqual({ current: 7, longest: 7 });
    expect(streaksOf([33], 33, earlier)).toEqual({ current: 1, longest: 6 });
  });
});

describe('days kept as bits', () => {
  it('puts each day on one bit of one word, the 32nd on the sign bit', () => {
    expect(dayBit(0)).toEqual({ word: 'w0', mask: 1 });
    expect(dayBit(31)).toEqual({ word: 'w0', mask: -2147483648 });
    expect(dayBit(32)).toEqual({ word: 'w1', mask: 1 });
    expect(dayBit(20_421)).toEqual({ word: 'w638', mask: 1 << 5 });
    // Days before 1970 fall in negative words, still one bit each.
    expect(dayBit(-1)).toEqual({ word: 'w-1', mask: -2147483648 });
  });

  it('gives back the days it holds, ascending, each once, whatever the order they came in', () => {
    const days = [20_421, 19, -1, 31, 32, 20_420, 0, 31, 63, 64];
    const bits = bitsOfDays(days);
    expect(Object.keys(bits).sort()).toEqual(['w-1', 'w0', 'w1', 'w2', 'w638']);
    expect(daysOfBits(bits)).toEqual([-1, 0, 19, 31, 32, 63, 64, 20_420, 20_421]);
  });

  it('reads nothing from no words, empty words or names that are not words', () => {
    expect(daysOfBits(undefined)).toEqual([]);
    expect(daysOfBits({ w5: 0, other: 1 })).toEqual([]);
  });

  it('gives the streaks the listed days give, across words, the sign bit and days after today', () => {
    expect(streaksOfBits(bitsOfDays([29, 30, 31, 32, 33, 40]), 33)).toEqual({ current: 5, longest: 5 });
    expect(streaksOfBits(bitsOfDays([-2, -1, 0, 1, 5]), 1)).toEqual({ current: 4, longest: 4 });
    expect(streaksOfBits(bitsOfDays([10, 11, 12]), 13)).toEqual({ current: 0, longest: 3 });
    expect(streaksOfBits(undefined, 5)).toEqual({ current: 0, longest: 0 });
    const decade = Array.from({ length: 3_650 }, (_, day) => 13_000 + day);
    expect(streaksOfBits(bitsOfDays(decade), 15_000)).toEqual({ current: 2_001, longest: 3_650 });
    expect(streaksOfBits(bitsOfDays(decade.filter((day) => day !== 14_000)), 15_000)).toEqual({
      current: 1_000,
      longest: 2_649,
    });
    // Seeded sets of days of every density: each agrees with the rule on the list of days.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let round = 0; round < 200; round += 1) {
      const density = next();
      const days = Array.from({ length: 400 }, (_, offset) => 20_000 + offset).filter(() => next() < density);
      const today = 20_000 + Math.floor(next() * 420);
      expect(streaksOfBits(bitsOfDays(days), today)).toEqual(streaksOf(days, today));
    }
  });
});

describe('trend (0.3 threshold, history newest first)', () => {
  it.each([
    [[], 'flat'],
    [[4.5], 'flat'],
    [[4, 4, 3, 3], 'up'], // 4 vs 3
    [[3, 3.4], 'down'], // 3 vs 3.4: −0.4
    [[3.2, 3], 'flat'], // +0.2
    [[3.3, 3], 'flat'], // +0.3 is not more than 0.3
    [[3.31, 3], 'up'],
    [[5, 3, 3], 'up'], // odd count: the recent half is the smaller one, 5 vs 3
  ] as const)('%j is %s', (history, trend) => {
    expect(trendOf([...history])).toBe(trend);
  });
});

describe('a stored check-in missing from the kept progress', () => {
  it.each([
    ['no record yet', true, null, 0],
    ['remembered among the latest folds', false, { entries: 3, folded: ['a', 'k', 'b'] }, 1],
    ['absent, and every fold remembered', true, { entries: 2, folded: ['a', 'b'] }, 2],
    ['absent, and more folds remembered than check-ins after it', true, { entries: 80, folded: ['a', 'b', 'c'] }, 2],
    ['absent, with memory starting after it', false, { entries: 80, folded: ['a', 'b'] }, 2],
    ['absent from a record without memory', false, { entries: 5 }, 0],
    ['absent from an emptied record without memory', true, { entries: 0 }, 0],
  ] as const)('%s: missing %s', (_case, missing, record, storedAfter) => {
    const memory = record && { entries: record.entries, folded: 'folded' in record ? [...record.folded] : undefined };
    expect(foldIsMissing(memory, 'k', storedAfter)).toBe(missing);
  });
});
