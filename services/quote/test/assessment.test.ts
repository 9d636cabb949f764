import {
  dimensions,
  notesMaxLength,
  salientDimensions,
  validateAssessment,
  validateEntryEdit,
  type Ratings,
} from '../src/domain/assessment';
import { entryEditableDays, isEditable } from '@haven/domain';

describe('validateAssessment', () => {
  it('defaults every rating to 3 and the time of day to morning', () => {
    const result = validateAssessment({});
    expect(result).toEqual({
      ok: true,
      value: { ratings: Object.fromEntries(dimensions.map((d) => [d, 3])), timeOfDay: 'morning', notes: null },
    });
  });

  it.each([0, 6, 2.5, '3', null, true])('refuses %p for a rating, naming the field', (value) => {
    const result = validateAssessment({ sleepQuality: value });
    expect(result).toEqual({
      ok: false,
      problems: [{ field: 'sleepQuality', message: 'sleepQuality must be a whole number from 1 to 5' }],
    });
  });

  it('refuses an unknown time of day and notes that are too long or not text', () => {
    expect(validateAssessment({ timeOfDayPreference: 'night' })).toMatchObject({
      ok: false,
      problems: [{ field: 'timeOfDayPreference' }],
    });
    expect(validateAssessment({ notes: 'x'.repeat(notesMaxLength + 1) })).toMatchObject({
      ok: false,
      problems: [{ field: 'notes', message: `notes must be at most ${notesMaxLength} characters` }],
    });
    expect(validateAssessment({ notes: 42 })).toMatchObject({ ok: false, problems: [{ field: 'notes' }] });
  });

  it('keeps trimmed notes and treats blank notes as none', () => {
    expect(validateAssessment({ notes: '  a long day  ', timeOfDayPreference: 'evening' })).toMatchObject({
      ok: true,
      value: { notes: 'a long day', timeOfDay: 'evening' },
    });
    expect(validateAssessment({ notes: '   ' })).toMatchObject({ ok: true, value: { notes: null } });
  });
});

describe('salientDimensions', () => {
  it('orders the hard-side ratings by need, low wellbeing and high strain alike, ties in payload order', () => {
    const ratings = Object.fromEntries(dimensions.map((d) => [d, 3])) as Ratings;
    Object.assign(ratings, { sleepQuality: 1, stressLevel: 5, hopeForFuture: 2, anxietyLevel: 4, gratitudeLevels: 5 });
    expect(salientDimensions(ratings)).toEqual(['stressLevel', 'sleepQuality', 'anxietyLevel', 'hopeForFuture']);
  });
});

describe('validateEntryEdit', () => {
  const kept = validateAssessment({ stressLevel: 4, timeOfDayPreference: 'evening', notes: 'As written' });
  if (!kept.ok) throw new Error('the kept entry is valid');

  it('replaces what is given and keeps what is absent', () => {
    const edited = validateEntryEdit(kept.value, { sleepQuality: 5, notes: 'Added later' });
    expect(edited).toEqual({
      ok: true,
      value: { ratings: { ...kept.value.ratings, sleepQuality: 5 }, timeOfDay: 'evening', notes: 'Added later' },
    });
  });

  it('removes the notes when they are null or blank', () => {
    expect(validateEntryEdit(kept.value, { notes: null })).toMatchObject({ ok: true, value: { notes: null } });
    expect(validateEntryEdit(kept.value, { notes: '   ' })).toMatchObject({ ok: true, value: { notes: null } });
  });

  it('names each field that is wrong, a rating given as null included', () => {
    expect(validateEntryEdit(kept.value, { stressLevel: null, timeOfDayPreference: 'night' })).toEqual({
      ok: false,
      problems: [
        { field: 'stressLevel', message: 'stressLevel must be a whole number from 1 to 5' },
        { field: 'timeOfDayPreference', message: 'timeOfDayPreference must be morning, afternoon or evening' },
      ],
    });
  });

  it('refuses an edit that changes nothing', () => {
    expect(validateEntryEdit(kept.value, { country: 'GB' })).toMatchObject({
      ok: false,
      problems: [{ field: 'input' }],
    });
  });
});

describe('isEditable', () => {
  const madeAt = new Date('2026-11-20T08:00:00Z');

  it(`lets an entry change for ${entryEditableDays} days, to the millisecond`, () => {
    const lastMoment = new Date(madeAt.getTime() + entryEditableDays * 24 * 60 * 60 * 1000);
    expect(isEditable(madeAt, madeAt)).toBe(true);
    expect(isEditable(madeAt, lastMoment)).toBe(true);
    expect(isEditable(madeAt, new Date(lastMoment.getTime() + 1))).toBe(false);
  });
});
