import { checkInDaysOf, monthWindow, moodsByDay, yearWindow } from '../src/domain/calendar';

describe("the calendar's month", () => {
  it('takes yyyy-mm and reaches a day beyond the UTC month either side', () => {
    expect(monthWindow('2026-11')).toEqual({
      month: '2026-11',
      from: new Date('2026-10-31T00:00:00Z'),
      to: new Date('2026-12-02T00:00:00Z'),
    });
    expect(monthWindow('2026-12')?.to).toEqual(new Date('2027-01-02T00:00:00Z'));
  });

  it('refuses anything that is not a month', () => {
    for (const month of ['2026-13', '2026-00', '2026-1', '26-11', '2026-11-27', 'November', '', '1969-12']) {
      expect([month, monthWindow(month)]).toEqual([month, null]);
    }
  });

  it("keeps the month's distinct days in the time zone, in order", () => {
    const instants = ['2026-11-16T01:00:00Z', '2026-10-31T12:00:00Z', '2026-11-15T20:00:00Z', '2026-11-30T12:00:00Z'];
    const dates = instants.map((instant) => new Date(instant));
    expect(checkInDaysOf(dates, '2026-11', 'Pacific/Auckland')).toEqual(['2026-11-01', '2026-11-16']);
    expect(checkInDaysOf(dates, '2026-11', 'UTC')).toEqual(['2026-11-15', '2026-11-16', '2026-11-30']);
  });
});

describe('the year view', () => {
  it('takes yyyy and reaches a day beyond the UTC year either side', () => {
    expect(yearWindow('2026')).toEqual({
      year: '2026',
      from: new Date('2025-12-31T00:00:00Z'),
      to: new Date('2027-01-02T00:00:00Z'),
    });
  });

  it('refuses anything that is not a year', () => {
    for (const year of ['26', '20266', '2026-01', 'twenty', '', '1969']) {
      expect([year, yearWindow(year)]).toEqual([year, null]);
    }
  });

  it("gives each local day of the year its check-ins' mean mood, in order", () => {
    const samples = [
      { at: new Date('2026-03-02T09:00:00Z'), mood: 4 },
      { at: new Date('2026-03-02T20:00:00Z'), mood: 3 },
      // 11:30 on 31 December in UTC is already 1 January 2027 in Auckland: not this year's.
      { at: new Date('2026-12-31T11:30:00Z'), mood: 5 },
      { at: new Date('2026-01-01T09:00:00Z'), mood: 2.333333 },
    ];
    expect(moodsByDay(samples, '2026', 'Pacific/Auckland')).toEqual([
      { date: '2026-01-01', mood: 2.33, entries: 1 },
      { date: '2026-03-02', mood: 4, entries: 1 },
      { date: '2026-03-03', mood: 3, entries: 1 },
    ]);
    expect(moodsByDay(samples, '2026', 'UTC')).toEqual([
      { date: '2026-01-01', mood: 2.33, entries: 1 },
      { date: '2026-03-02', mood: 3.5, entries: 2 },
      { date: '2026-12-31', mood: 5, entries: 1 },
    ]);
  });
});
