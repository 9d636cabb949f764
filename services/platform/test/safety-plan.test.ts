import { emptySafetyPlan, safetyPlanSectionMaxLength, safetyPlanSections, validateSafetyPlan } from '../src';

describe('the safety plan', () => {
  it('has the parts of the Stanley–Brown plan, in its order, each with a title and a prompt', () => {
    expect(safetyPlanSections.map(({ key }) => key)).toEqual([
      'warningSigns',
      'copingStrategies',
      'distractions',
      'peopleToAsk',
      'professionals',
      'safeEnvironment',
      'reasonsForLiving',
    ]);
    for (const { title, prompt } of safetyPlanSections)
      expect([title.length > 0, prompt.length > 0]).toEqual([true, true]);
    expect(Object.values(emptySafetyPlan)).toEqual(Array(safetyPlanSections.length).fill(''));
  });

  it('changes only the parts given, trimmed, and clears a blank one', () => {
    expect(validateSafetyPlan({ warningSigns: '  Not sleeping  ', peopleToAsk: '   ', distractions: null })).toEqual({
      ok: true,
      value: { warningSigns: 'Not sleeping', peopleToAsk: '' },
    });
  });

  it('refuses a part over the length, naming each one, and accepts one at the length', () => {
    const long = 'x'.repeat(safetyPlanSectionMaxLength + 1);
    expect(validateSafetyPlan({ warningSigns: long, professionals: long, copingStrategies: 'fine' })).toEqual({
      ok: false,
      problems: [
        { field: 'warningSigns', message: 'Warning signs must be at most 1000 characters' },
        { field: 'professionals', message: 'Professionals and services I can contact must be at most 1000 characters' },
      ],
    });
    expect(validateSafetyPlan({ warningSigns: 'x'.repeat(safetyPlanSectionMaxLength) }).ok).toBe(true);
  });
});
