/**
 * The personal safety plan's sections and rules, no I/O: the user service keeps the plan, the gateway's export and
 * the web app's page read its sections from here. The sections follow the plan clinicians write with a person
 * (the Stanley–Brown safety plan), in its order, in Haven's words.
 */

/** A refused section: the field it names and why, as the services' input refusal reports it. */
export interface SafetyPlanProblem {
  field: string;
  message: string;
}

export const safetyPlanSectionKeys = [
  'warningSigns',
  'copingStrategies',
  'distractions',
  'peopleToAsk',
  'professionals',
  'saferSurroundings',
  'reasonsForLiving',
] as const;

export type SafetyPlanSectionKey = (typeof safetyPlanSectionKeys)[number];

export interface SafetyPlanSection {
  key: SafetyPlanSectionKey;
  title: string;
  /** What to write, in a few words: the field's hint. */
  hint: string;
}

export const safetyPlanSections: readonly SafetyPlanSection[] = [
  {
    key: 'warningSigns',
    title: 'My warning signs',
    hint: 'Thoughts, feelings or situations that tell me a hard time may be starting.',
  },
  {
    key: 'copingStrategies',
    title: 'Things I can do on my own',
    hint: 'Small things that help me get through a few minutes: music, a shower, a walk, slow breaths.',
  },
  {
    key: 'distractions',
    title: 'People and places that help me feel better',
    hint: 'Who I can be with, and where I can go, to take my mind off things.',
  },
  {
    key: 'peopleToAsk',
    title: 'People I can ask for help',
    hint: 'Names and numbers of people I can tell how I am feeling.',
  },
  {
    key: 'professionals',
    title: 'Professionals and services I can contact',
    hint: 'My doctor, a therapist, a crisis line, the nearest urgent care — with their numbers.',
  },
  {
    key: 'saferSurroundings',
    title: 'Making where I am safer',
    hint: 'What I can do, or ask someone to do, so that where I am feels safer.',
  },
  {
    key: 'reasonsForLiving',
    title: 'What matters most to me',
    hint: 'People, pets, plans and things that are worth holding on for.',
  },
];

export const safetyPlanSectionMaxLength = 1000;

export type SafetyPlanInput = Partial<Record<SafetyPlanSectionKey, string | null | undefined>>;
export type SafetyPlanSections = Record<SafetyPlanSectionKey, string>;

/**
 * A whole plan as the person wrote it: each section trimmed, its line endings made `\n`, an absent section empty.
 * A section over the limit is a problem naming it; nothing is saved then.
 */
export function validateSafetyPlan(
  input: SafetyPlanInput,
): { ok: true; value: SafetyPlanSections } | { ok: false; problems: SafetyPlanProblem[] } {
  const problems: SafetyPlanProblem[] = [];
  const value = {} as SafetyPlanSections;
  for (const { key, title } of safetyPlanSections) {
    const text = (input[key] ?? '').replace(/\r\n?/g, '\n').trim();
    if (text.length > safetyPlanSectionMaxLength) {
      problems.push({
        field: key,
        message: `“${title}” must be at most ${safetyPlanSectionMaxLength.toLocaleString('en-GB')} characters`,
      });
    }
    value[key] = text;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}

/** A plan with nothing written is no plan: saving one removes what was kept. */
export const isEmptySafetyPlan = (plan: SafetyPlanSections): boolean =>
  safetyPlanSectionKeys.every((key) => plan[key] === '');
