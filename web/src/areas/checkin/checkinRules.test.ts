import {
  calendarDayLabel,
  dayFilterLabel,
  dayFromKey,
  monthKey,
  cutText,
  dayKey,
  deleteEntryLabel,
  editEntryLabel,
  emotionalBars,
  ENTRY_EDITABLE_DAYS,
  entryDeletion,
  entryEditChanges,
  entryEditProblems,
  entryEditing,
  isEntryEditable,
  monthGrid,
  newSubmissionKey,
  relativeDayLabel,
  scoreLabel,
  timeOfDayLabel,
  yearDayLabel,
} from './checkinRules';

describe('check-in page rules', () => {
  const now = new Date(2026, 2, 1, 10); // Sun Mar 1 2026, local

  it('labels days Today, Yesterday, else short month and day (with the year on progress)', () => {
    expect(relativeDayLabel(new Date(2026, 2, 1, 0, 5), now)).toBe('Today');
    expect(relativeDayLabel(new Date(2026, 1, 28, 23, 0), now)).toBe('Yesterday');
    expect(relativeDayLabel(new Date(2026, 1, 20), now)).toBe('Feb 20');
    expect(relativeDayLabel(new Date(2026, 1, 20), now, true)).toBe('Feb 20, 2026');
  });

  it('names a month for the calendar query and reads a ?date= day', () => {
    expect(monthKey(2026, 0)).toBe('2026-01');
    expect(monthKey(2026, 10)).toBe('2026-11');
    expect(dayFromKey('2026-11-27')?.getDate()).toBe(27);
    expect(dayFromKey('2026-02-30')).toBeNull();
    expect(dayFromKey('27/11/2026')).toBeNull();
  });

  it('says which day the progress list shows, and which calendar days had a check-in', () => {
    expect(dayFilterLabel('2026-11-27', 'en-GB')).toBe('Showing 27 November 2026');
    expect(dayFilterLabel('not-a-day', 'en-GB')).toBe('Showing not-a-day');
    expect(calendarDayLabel(new Date(2026, 10, 27), true, 'en-US')).toBe('Friday, November 27, 2026, checked in');
    expect(calendarDayLabel(new Date(2026, 10, 3), false, 'en-US')).toBe('Tuesday, November 3, 2026');
  });

  it("names a year view's day with its mood and check-ins, so it reads without colour", () => {
    expect(yearDayLabel(new Date(2026, 2, 3), 3.5, 2, 'en-US')).toBe(
      'Tuesday, March 3, 2026: mood 3.5 of 5, 2 check-ins',
    );
    expect(yearDayLabel(new Date(2026, 2, 4), 4, 1, 'en-US')).toBe('Wednesday, March 4, 2026: mood 4 of 5, 1 check-in');
    expect(yearDayLabel(new Date(2026, 2, 5), 2.33, 1, 'en-US')).toBe(
      'Thursday, March 5, 2026: mood 2.3 of 5, 1 check-in',
    );
  });

  it('cuts at 75 characters with an ellipsis', () => {
    expect(cutText('a'.repeat(75), 75)).toEqual({ text: 'a'.repeat(75), cut: false });
    expect(cutText('a'.repeat(76), 75)).toEqual({ text: `${'a'.repeat(75)}...`, cut: true });
  });

  it('lays a month out in weeks starting on Sunday', () => {
    const weeks = monthGrid(2026, 1); // February 2026 starts on a Sunday, 28 days
    expect(weeks).toHaveLength(4);
    expect(weeks[0]![0]!.getDate()).toBe(1);
    const march = monthGrid(2026, 2); // March 2026 starts on a Sunday too; April 1 is a Wednesday
    expect(monthGrid(2026, 3)[0]!.slice(0, 3)).toEqual([null, null, null]);
    expect(march.flat().filter(Boolean)).toHaveLength(31);
  });

  it('formats days, scores, bars and the country', () => {
    expect(dayKey(new Date(2026, 0, 5))).toBe('2026-01-05');
    expect(scoreLabel(27 / 7)).toBe('3.9/5');
    expect(
      emotionalBars({
        motivationLevel: 1,
        confidenceLevel: 2,
        focusClarity: 3,
        stressLevel: 4,
        anxietyLevel: 5,
        senseOfPurpose: 1,
      }).map((bar) => bar.label),
    ).toEqual(['Motivation', 'Confidence', 'Focus', 'Stress', 'Anxiety', 'Purpose']);
  });

  it("names each row's delete button with the day the row shows, its visible words first", () => {
    expect(deleteEntryLabel('Today')).toBe('Delete entry from Today');
    expect(deleteEntryLabel(relativeDayLabel(new Date(2026, 1, 20), now, true))).toBe('Delete entry from Feb 20, 2026');
    expect(deleteEntryLabel('Yesterday').startsWith(entryDeletion.button)).toBe(true);
  });

  it("names each row's edit button like its delete button, and says the time of day as the page shows it", () => {
    expect(editEntryLabel('Today')).toBe('Edit entry from Today');
    expect(editEntryLabel(relativeDayLabel(new Date(2026, 1, 24), now, true))).toBe('Edit entry from Feb 24, 2026');
    expect(editEntryLabel('Yesterday').startsWith(entryEditing.button)).toBe(true);
    expect(timeOfDayLabel('evening')).toBe('Evening');
  });

  it('offers an edit for 7 days after an entry is made, counted to the millisecond as the server counts', () => {
    const day = 86_400_000;
    const made = new Date(Date.UTC(2026, 2, 1, 12));
    const at = (ms: number) => new Date(made.getTime() + ms);
    expect(ENTRY_EDITABLE_DAYS).toBe(7);
    expect(isEntryEditable(made, made)).toBe(true);
    expect(isEntryEditable(made, at(6 * day))).toBe(true);
    expect(isEntryEditable(made, at(7 * day))).toBe(true);
    expect(isEntryEditable(made, at(7 * day + 1))).toBe(false);
    expect(isEntryEditable(made, at(30 * day))).toBe(false);
  });

  describe('what an edit sends', () => {
    const kept = {
      ratings: { stressLevel: 4, hopeForFuture: 2, sleepQuality: 3 },
      timeOfDay: 'morning',
      notes: 'A slow start',
    };

    it('sends only the answers that changed, so the rest stay as kept', () => {
      const form = { ...kept, ratings: { ...kept.ratings, stressLevel: 2 }, timeOfDay: 'evening' };
      expect(entryEditChanges(kept, form, true)).toEqual({ stressLevel: 2, timeOfDayPreference: 'evening' });
    });

    it('sends nothing when nothing changed, spaces around the notes included', () => {
      expect(entryEditChanges(kept, { ...kept, notes: '  A slow start \n' }, true)).toBeNull();
      expect(entryEditChanges({ ...kept, notes: null }, { ...kept, notes: '   ' }, true)).toBeNull();
    });

    it('sends changed notes trimmed, and emptied notes as null, which removes them', () => {
      expect(entryEditChanges(kept, { ...kept, notes: ' A better afternoon ' }, true)).toEqual({
        notes: 'A better afternoon',
      });
      expect(entryEditChanges(kept, { ...kept, notes: '' }, true)).toEqual({ notes: null });
    });

    it('leaves the notes alone when the person keeps none', () => {
      expect(entryEditChanges(kept, { ...kept, notes: '' }, false)).toBeNull();
      expect(entryEditChanges(kept, { ...kept, notes: '', timeOfDay: 'afternoon' }, false)).toEqual({
        timeOfDayPreference: 'afternoon',
      });
    });
  });

  describe("where a refused edit's messages show", () => {
    const formFields = ['stressLevel', 'timeOfDayPreference', 'notes'];

    it("puts a field's message beside its field, with a word above the buttons that the changes are still there", () => {
      expect(entryEditProblems({ notes: 'notes must be at most 1000 characters' }, formFields, 'ignored')).toEqual({
        fields: { notes: 'notes must be at most 1000 characters' },
        form: entryEditing.failed,
      });
    });

    it('puts a message about the entry itself above the buttons', () => {
      const tooOld = 'An entry can be changed for 7 days after it is made; this one is older';
      expect(entryEditProblems({ quoteId: tooOld, stressLevel: 'Out of range' }, formFields, tooOld)).toEqual({
        fields: { stressLevel: 'Out of range' },
        form: tooOld,
      });
    });

    it("shows the server's own message without a field, else says the changes are still there", () => {
      const conflict = 'This entry changed a moment ago. Please look again and try once more.';
      expect(entryEditProblems({}, formFields, conflict)).toEqual({ fields: {}, form: conflict });
      expect(entryEditProblems({}, formFields, undefined)).toEqual({ fields: {}, form: entryEditing.failed });
      expect(entryEditing.failed).toMatch(/still here/);
    });
  });

  it('names each check-in submission with its own key the server accepts (printable ASCII, at most 200)', () => {
    const keys = new Set(Array.from({ length: 100 }, newSubmissionKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });
});
