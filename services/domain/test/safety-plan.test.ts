import {
  isEmptySafetyPlan,
  safetyPlanSectionKeys,
  safetyPlanSectionMaxLength,
  safetyPlanSections,
  validateSafetyPlan,
} from '../src/safety-plan';

test('the sections are the safety plan’s seven steps, each with a title and a hint, in order', () => {
  expect(safetyPlanSections.map((section) => section.key)).toEqual([...safetyPlanSectionKeys]);
  expect(safetyPlanSections).toHaveLength(7);
  for (const section of safetyPlanSections) {
    expect(section.title).not.toBe('');
    expect(section.hint).toMatch(/\.$/);
  }
});

test('a plan is kept as written: trimmed, one kind of line ending, left-out sections empty', () => {
  const validated = validateSafetyPlan({ warningSigns: ' Not eating\r\nNot texting back \r', peopleToAsk: null });
  expect(validated).toEqual({
    ok: true,
    value: {
      warningSigns: 'Not eating\nNot texting back',
      copingStrategies: '',
      distractions: '',
      peopleToAsk: '',
      professionals: '',
      saferSurroundings: '',
      reasonsForLiving: '',
    },
  });
});

test('a section over the limit is named, with every other one over it too', () => {
  const long = 'a'.repeat(safetyPlanSectionMaxLength + 1);
  const validated = validateSafetyPlan({
    warningSigns: 'a'.repeat(safetyPlanSectionMaxLength),
    distractions: long,
    reasonsForLiving: long,
  });
  expect(validated.ok).toBe(false);
  expect(!validated.ok && validated.problems).toEqual([
    { field: 'distractions', message: '“People and places that help me feel better” must be at most 1,000 characters' },
    { field: 'reasonsForLiving', message: '“What matters most to me” must be at most 1,000 characters' },
  ]);
});

test('a plan of blank sections is empty; one word makes it a plan', () => {
  const blank = validateSafetyPlan({ copingStrategies: '  \n ' });
  expect(blank.ok && isEmptySafetyPlan(blank.value)).toBe(true);
  const one = validateSafetyPlan({ reasonsForLiving: 'Mum' });
  expect(one.ok && isEmptySafetyPlan(one.value)).toBe(false);
});
