/**
 * A personal safety plan: what a person writes, on a calmer day, for a hard moment, in the structure clinicians
 * use (the Stanley–Brown safety plan). One list of its parts, read by the quote service (storage, export,
 * validation) and the web app (the page's fields), so a part is added in one place. Pure, no I/O.
 */

export const safetyPlanSections = [
  {
    key: 'warningSigns',
    title: 'Warning signs',
    prompt: 'Thoughts, moods, situations or behaviours that tell me a crisis may be starting.',
  },
  {
    key: 'copingStrategies',
    title: 'Things I can do on my own',
    prompt: 'What helps me take my mind off things without contacting anyone: a walk, music, a shower, a game.',
  },
  {
    key: 'distractions',
    title: 'People and places that take my mind off things',
    prompt: 'Friends I can spend time with, and places where I feel better around other people.',
  },
  {
    key: 'peopleToAsk',
    title: 'People I can ask for help',
    prompt: 'Names and numbers of people I trust and can tell how I feel.',
  },
  {
    key: 'professionals',
    title: 'Professionals and services I can contact',
    prompt: 'My doctor, a therapist or a crisis line, with their numbers. The help page lists lines for my country.',
  },
  {
    key: 'safeEnvironment',
    title: 'Making my surroundings safer',
    prompt: 'What I can put away or ask someone to keep for me while things are hard.',
  },
  {
    key: 'reasonsForLiving',
    title: 'What matters most to me',
    prompt: 'The people, things and hopes that are worth holding on for.',
  },
] as const;

export type SafetyPlanSection = (typeof safetyPlanSections)[number]['key'];
export type SafetyPlanContent = Record<SafetyPlanSection, string>;

/** Room for a real list in each part (as much as a check-in's notes), bounded so one save cannot store a book. */
export const safetyPlanSectionMaxLength = 1000;

export const emptySafetyPlan: SafetyPlanContent = Object.freeze(
  Object.fromEntries(safetyPlanSections.map(({ key }) => [key, ''])) as SafetyPlanContent,
);

/**
 * The parts given change (trimmed; blank clears one); absent parts stay. Each part at most
 * `safetyPlanSectionMaxLength` characters, else a problem naming it.
 */
export function validateSafetyPlan(
  input: Partial<Record<SafetyPlanSection, string | null | undefined>>,
):
  | { ok: true; value: Partial<SafetyPlanContent> }
  | { ok: false; problems: Array<{ field: SafetyPlanSection; message: string }> } {
  const value: Partial<SafetyPlanContent> = {};
  const problems: Array<{ field: SafetyPlanSection; message: string }> = [];
  for (const { key, title } of safetyPlanSections) {
    const given = input[key];
    if (given === undefined || given === null) continue;
    const text = given.trim();
    if (text.length > safetyPlanSectionMaxLength) {
      problems.push({ field: key, message: `${title} must be at most ${safetyPlanSectionMaxLength} characters` });
    } else value[key] = text;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}
