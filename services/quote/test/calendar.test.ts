import { checkInDaysOf, monthWindow } from '../src/domain/calendar';

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
