import { dayNumber, notTherapyLine } from '@haven/domain';
import {
  foldCheckIn,
  reviseCheckIn,
  unfoldCheckIn,
  keptDays,
  localHour,
  renderWeeklySummaryEmail,
  summarise,
  summaryWeekAt,
  type CheckInTally,
  type WeeklySummary,
} from '../src/domain/weekly-summary';

const at = (iso: string) => new Date(iso);
const empty: CheckInTally = { days: [], recentQuoteIds: [], streak: { lastDay: null, run: 0, longest: 0 } };

/** Folds check-ins (instant and mood) as the consumer does, in one time zone. */
function tallyOf(checkIns: Array<[string, number]>, timeZone: string): CheckInTally {
  let tally = empty;
  checkIns.forEach(([iso, mood], index) => {
    const day = dayNumber(at(iso), timeZone);
    tally = foldCheckIn(tally, { quoteId: `q${index}`, day, mood }, day - keptDays + 1) ?? tally;
  });
  return tally;
}

describe('the sending window and the week it covers', () => {
  it('is Sunday 09:00 to 12:00 on the user’s clock, for the Sunday-to-Saturday week that just ended', () => {
    const week = summaryWeekAt(at('2026-11-22T09:30:00Z'), 'Europe/London');
    expect(week?.id).toBe('2026-11-15');
    expect(week!.lastDay - week!.firstDay).toBe(6);
    expect(week!.lastDay).toBe(dayNumber(at('2026-11-21T12:00:00Z'), 'UTC'));
    expect(summaryWeekAt(at('2026-11-22T08:59:00Z'), 'Europe/London')).toBeNull();
    expect(summaryWeekAt(at('2026-11-22T12:00:00Z'), 'Europe/London')).toBeNull();
    expect(summaryWeekAt(at('2026-11-21T10:00:00Z'), 'Europe/London')).toBeNull(); // Saturday
    expect(summaryWeekAt(at('2026-11-23T10:00:00Z'), 'Europe/London')).toBeNull(); // Monday
  });

  it('follows the user’s time zone, not the server’s', () => {
    // 15:00 UTC is 10:00 in New York; 01:00 UTC on Sunday is 10:00 in Tokyo.
    expect(summaryWeekAt(at('2026-11-22T15:00:00Z'), 'America/New_York')?.id).toBe('2026-11-15');
    expect(summaryWeekAt(at('2026-11-22T10:00:00Z'), 'America/New_York')).toBeNull();
    expect(summaryWeekAt(at('2026-11-22T01:00:00Z'), 'Asia/Tokyo')?.id).toBe('2026-11-15');
    expect(summaryWeekAt(at('2026-11-22T10:00:00Z'), 'Asia/Tokyo')).toBeNull();
  });

  it('moves with daylight saving on the Sunday the clocks change', () => {
    // London springs forward on 29 March 2026: 08:30 UTC is 09:30 BST (inside), 11:30 UTC is 12:30 (outside).
    expect(localHour(at('2026-03-29T08:30:00Z'), 'Europe/London')).toBe(9);
    expect(summaryWeekAt(at('2026-03-29T08:30:00Z'), 'Europe/London')?.id).toBe('2026-03-22');
    expect(summaryWeekAt(at('2026-03-29T11:30:00Z'), 'Europe/London')).toBeNull();
    // New York falls back on 1 November 2026: 13:30 UTC is 08:30 EST (outside), 14:30 UTC is 09:30 (inside).
    expect(summaryWeekAt(at('2026-11-01T13:30:00Z'), 'America/New_York')).toBeNull();
    expect(summaryWeekAt(at('2026-11-01T14:30:00Z'), 'America/New_York')?.id).toBe('2026-10-25');
  });

  it('spans a year end', () => {
    // Sunday 3 January 2027, 09:30 in Auckland (UTC+13) is still 2 January in UTC.
    const week = summaryWeekAt(at('2027-01-02T20:30:00Z'), 'Pacific/Auckland');
    expect(week?.id).toBe('2026-12-27');
    expect(summaryWeekAt(at('2026-01-04T10:00:00Z'), 'UTC')?.id).toBe('2025-12-28');
  });
});

describe('the tally kept from check-in events', () => {
  it('counts a check-in delivered twice once, and ignores one too old to matter', () => {
    const once = foldCheckIn(empty, { quoteId: 'a', day: 100, mood: 3 }, 90)!;
    expect(foldCheckIn(once, { quoteId: 'a', day: 100, mood: 3 }, 90)).toBeNull();
    expect(foldCheckIn(once, { quoteId: 'b', day: 89, mood: 3 }, 90)).toBeNull();
    const twice = foldCheckIn(once, { quoteId: 'b', day: 100, mood: 5 }, 90)!;
    expect(twice.days).toEqual([{ day: 100, checkIns: 2, moodSum: 8 }]);
  });

  it('takes a deleted check-in out of its day, the day itself with its last one, and the quote stays counted once', () => {
    const two = foldCheckIn(
      foldCheckIn(empty, { quoteId: 'a', day: 100, mood: 3 }, 90)!,
      { quoteId: 'b', day: 100, mood: 5 },
      90,
    )!;
    const withEarlier = foldCheckIn(two, { quoteId: 'c', day: 99, mood: 4 }, 90)!;
    const one = unfoldCheckIn(withEarlier, { day: 100, mood: 5 }, 90)!;
    expect(one.days).toEqual([
      { day: 99, checkIns: 1, moodSum: 4 },
      { day: 100, checkIns: 1, moodSum: 3 },
    ]);
    const none = unfoldCheckIn(one, { day: 100, mood: 3 }, 90)!;
    expect(none.days).toEqual([{ day: 99, checkIns: 1, moodSum: 4 }]);
    expect(none.streak).toEqual(withEarlier.streak);
    // Its own event delivered again does not count it back.
    expect(foldCheckIn(none, { quoteId: 'b', day: 100, mood: 5 }, 90)).toBeNull();
    // A day no longer kept, or never counted, changes nothing.
    expect(unfoldCheckIn(none, { day: 100, mood: 3 }, 90)).toBeNull();
    expect(unfoldCheckIn(none, { day: 99, mood: 4 }, 100)).toBeNull();
  });

  it('follows an edited check-in: its day keeps its count and sums the new mood', () => {
    const two = foldCheckIn(
      foldCheckIn(empty, { quoteId: 'a', day: 100, mood: 3 }, 90)!,
      { quoteId: 'b', day: 100, mood: 5 },
      90,
    )!;
    const edited = reviseCheckIn(two, { day: 100, previousMood: 5, mood: 2 }, 90)!;
    expect(edited.days).toEqual([{ day: 100, checkIns: 2, moodSum: 5 }]);
    expect(summarise(edited, { firstDay: 98, lastDay: 104, id: 'w' })?.averageMood).toBe(2.5);
    expect(edited.streak).toEqual(two.streak);
    // No change of mood, a day no longer kept, or one never counted: nothing to write.
    expect(reviseCheckIn(two, { day: 100, previousMood: 5, mood: 5 }, 90)).toBeNull();
    expect(reviseCheckIn(two, { day: 100, previousMood: 5, mood: 2 }, 101)).toBeNull();
    expect(reviseCheckIn(two, { day: 99, previousMood: 5, mood: 2 }, 90)).toBeNull();
  });

  it('keeps only the last days, however long someone keeps checking in', () => {
    let tally = empty;
    for (let day = 1; day <= 40; day += 1) {
      tally = foldCheckIn(tally, { quoteId: `q${day}`, day, mood: 4 }, day - keptDays + 1)!;
    }
    expect(tally.days).toHaveLength(keptDays);
    expect(tally.days[0]!.day).toBe(40 - keptDays + 1);
    expect(tally.recentQuoteIds.length).toBeLessThanOrEqual(50);
    expect(tally.streak).toMatchObject({ lastDay: 40, run: 40 });
  });
});

describe('the summary’s numbers', () => {
  const london = 'Europe/London';
  const sundayMorning = at('2026-11-22T10:00:00Z');
  const week = summaryWeekAt(sundayMorning, london)!;

  it('counts the week’s check-ins, averages their mood and compares it with the week before', () => {
    const tally = tallyOf(
      [
        ['2026-11-10T09:00:00Z', 3], // the week before: average 3.1
        ['2026-11-12T09:00:00Z', 3.2],
        ['2026-11-16T09:00:00Z', 3], // this week: average 3.5
        ['2026-11-18T20:00:00Z', 4],
        ['2026-11-18T21:00:00Z', 3.5],
      ],
      london,
    );
    expect(summarise(tally, week)).toEqual({ week, checkIns: 3, averageMood: 3.5, direction: 'up', streak: 0 });
  });

  it('is flat within 0.3 and down beyond it', () => {
    const flat = tallyOf(
      [
        ['2026-11-12T09:00:00Z', 3.3],
        ['2026-11-20T09:00:00Z', 3.5],
      ],
      london,
    );
    expect(summarise(flat, week)?.direction).toBe('flat');
    const down = tallyOf(
      [
        ['2026-11-12T09:00:00Z', 4],
        ['2026-11-20T09:00:00Z', 3.2],
      ],
      london,
    );
    expect(summarise(down, week)?.direction).toBe('down');
  });

  it('has no direction without a week before, and nothing at all without a check-in that week', () => {
    expect(summarise(tallyOf([['2026-11-20T09:00:00Z', 4]], london), week)?.direction).toBeNull();
    expect(summarise(tallyOf([['2026-11-12T09:00:00Z', 4]], london), week)).toBeNull();
    expect(summarise(empty, week)).toBeNull();
  });

  it('counts the streak back from the week’s Saturday, also past the week’s start and after a Sunday check-in', () => {
    const days = (from: number, to: number): Array<[string, number]> =>
      Array.from({ length: to - from + 1 }, (_, index) => [
        `2026-11-${String(from + index).padStart(2, '0')}T12:00:00Z`,
        4,
      ]);
    expect(summarise(tallyOf(days(19, 21), london), week)?.streak).toBe(3);
    // Twenty days in a row up to Saturday, more than the tally keeps day by day.
    const long = tallyOf(
      [...days(1, 21).slice(1), ['2026-11-22T09:00:00Z', 4]], // 2–21 November, then Sunday morning
      london,
    );
    expect(summarise(long, week)?.streak).toBe(20);
    // No check-in on Saturday: the streak is 0 (and the e-mail does not mention it).
    expect(summarise(tallyOf([...days(16, 20), ['2026-11-22T09:00:00Z', 4]], london), week)?.streak).toBe(0);
  });

  it('counts days in the user’s zone across a daylight-saving change and a year end', () => {
    // The week of 29 March 2026 (London's clocks go forward that Sunday): 00:30 GMT Sunday is in it,
    // 23:30 BST Saturday 4 April (22:30 UTC) is in it, 00:30 BST Sunday 5 April (23:30 UTC on the 4th) is not.
    const dstWeek = summaryWeekAt(at('2026-04-05T09:00:00Z'), london)!;
    expect(dstWeek.id).toBe('2026-03-29');
    const dst = tallyOf(
      [
        ['2026-03-29T00:30:00Z', 2],
        ['2026-04-04T22:30:00Z', 4],
        ['2026-04-04T23:30:00Z', 5],
      ],
      london,
    );
    expect(summarise(dst, dstWeek)).toMatchObject({ checkIns: 2, averageMood: 3, streak: 1 });

    // Auckland: 31 December and 1 January local are consecutive days of one week.
    const auckland = 'Pacific/Auckland';
    const yearEnd = summaryWeekAt(at('2027-01-02T20:30:00Z'), auckland)!;
    const newYear = tallyOf(
      [
        ['2026-12-31T10:00:00Z', 3], // 23:00 on 31 December in Auckland
        ['2027-01-01T10:00:00Z', 4], // 23:00 on 1 January
        ['2027-01-02T10:00:00Z', 5], // 23:00 on Saturday 2 January
      ],
      auckland,
    );
    expect(summarise(newYear, yearEnd)).toMatchObject({ checkIns: 3, averageMood: 4, streak: 3, direction: null });
  });
});

describe('the e-mail', () => {
  const week = summaryWeekAt(at('2026-11-22T10:00:00Z'), 'UTC')!;
  const render = (summary: Partial<WeeklySummary>, country: string | null = 'GB') =>
    renderWeeklySummaryEmail({
      productName: 'Haven',
      appUrl: 'https://haven.example/',
      summary: { week, checkIns: 4, averageMood: 3.64, direction: 'up', streak: 3, ...summary },
      stopToken: 'dXNlci0x.weekly-summary.mac',
      country,
    });

  it('has a subject that gives nothing away in a shared inbox', () => {
    const { subject } = render({});
    expect(subject).toBe('Your week with Haven');
    expect(subject).not.toMatch(/mood|mental|feel|therapy|crisis|check-?in/i);
  });

  it('carries the week’s numbers, the way to switch it off and where to find help', () => {
    const { text, html } = render({});
    expect(text).toContain('Sunday 15 November to Saturday 21 November');
    expect(text).toContain('You checked in 4 times.');
    expect(text).toContain('Your average mood was 3.6 out of 5, a little brighter than the week before.');
    expect(text).toContain('You checked in 3 days in a row');
    expect(text).toContain('https://haven.example/email-preferences');
    expect(html).toContain('href="https://haven.example/email-preferences"');
    expect(text).toContain('Stop it in one click: https://haven.example/stop-emails?token=dXNlci0x.weekly-summary.mac');
    expect(html).toContain('href="https://haven.example/stop-emails?token=dXNlci0x.weekly-summary.mac"');
    expect(render({}).headers).toEqual({
      'List-Unsubscribe':
        '<https://haven.example/hooks/notification/emails/one-click?token=dXNlci0x.weekly-summary.mac>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(text).toContain(notTherapyLine);
    expect(text).toContain('https://haven.example/help');
  });

  it('lists the help of the recipient’s own country, and never another country’s lines', () => {
    const inTheUk = render({}, 'GB').text;
    expect(inTheUk).toContain('Samaritans, call 116 123');
    expect(inTheUk).toContain('If your life is in danger, call 999.');
    expect(inTheUk).not.toContain('988');
    const inTheUs = render({}, 'US').text;
    expect(inTheUs).toContain('988 Suicide & Crisis Lifeline, call or text 988');
    expect(inTheUs).toContain('If your life is in danger, call 911.');
    expect(inTheUs).not.toContain('116 123');
    const inJapan = render({}, 'JP').text;
    expect(inJapan).toContain('https://findahelpline.com');
    expect(inJapan).toContain('If your life is in danger, call 119.');
    const unknown = render({}, null).text;
    expect(unknown).toContain('https://findahelpline.com');
    expect(unknown).toContain('call your local emergency number');
    expect(unknown).not.toMatch(/116 123|988|999|911/);
  });

  it('meets a lower week gently and never counts what was missed', () => {
    const { text } = render({ direction: 'down', streak: 0, checkIns: 1, averageMood: 2.2 });
    expect(text).toContain('You checked in once.');
    expect(text).toContain('a bit lower than the week before');
    expect(text).toMatch(/heavier than others, and that is okay/);
    expect(text).not.toMatch(/in a row|miss|lost|broke|only|should|fail/i);
  });

  it('leaves the comparison out when there is no week before to compare with', () => {
    const { text } = render({ direction: null, streak: 1 });
    expect(text).toContain('Your average mood was 3.6 out of 5.');
    expect(text).not.toMatch(/week before|in a row/);
  });
});
