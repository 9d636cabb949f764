/**
 * The personal safety plan: its writer saves it whole and reads it back on `User`. Nobody else reads it — not an
 * admin either — and it is open to everyone signed in, whatever their verification or subscription. Each written
 * section is stored sealed under the person's own key.
 */
import { rejectInput, requireSession, type PersonKeyring, type RequestContext } from '@haven/platform';
import { isEmptySafetyPlan, safetyPlanSectionKeys, validateSafetyPlan, type SafetyPlanSections } from '@haven/domain';
import type { Model } from 'mongoose';
import type { SafetyPlanRecord } from '../model/safety-plan';
import type { Resolvers, SafetyPlan } from './types.generated';

/** Every section through `change` (sealing or opening); an unwritten one stays "". */
async function eachSection(
  sections: SafetyPlanSections,
  change: (text: string) => Promise<string | null>,
): Promise<SafetyPlanSections> {
  const changed = await Promise.all(
    safetyPlanSectionKeys.map(async (key) => [key, sections[key] ? ((await change(sections[key])) ?? '') : '']),
  );
  return Object.fromEntries(changed) as SafetyPlanSections;
}

interface SafetyPlanDeps {
  safetyPlans: Model<SafetyPlanRecord>;
  personKeyring: PersonKeyring;
}

/** The plan as its writer reads it: each section opened with their key. */
const openedPlan = async (
  personKeyring: PersonKeyring,
  { _id, updatedAt, ...sections }: SafetyPlanRecord,
): Promise<SafetyPlan> => ({
  ...(await eachSection(sections, (text) => personKeyring.open(_id, text))),
  updatedAt: updatedAt.toISOString(),
});

/** The person's plan for this request: null until they write one, and null to anyone but its writer. */
export async function safetyPlanFor(
  deps: SafetyPlanDeps,
  userId: string,
  context: RequestContext,
): Promise<SafetyPlan | null> {
  if (context.session?.userId !== userId) return null;
  const plan = await deps.safetyPlans.findById(userId).lean<SafetyPlanRecord>();
  return plan ? openedPlan(deps.personKeyring, plan) : null;
}

export function safetyPlanResolvers(deps: SafetyPlanDeps): Pick<Resolvers, 'Mutation' | 'User'> {
  const { safetyPlans, personKeyring } = deps;

  return {
    Mutation: {
      saveSafetyPlan: async (_parent, { input }, context) => {
        const session = requireSession(context);
        const validated = validateSafetyPlan(input);
        if (!validated.ok) rejectInput(validated.problems);
        if (isEmptySafetyPlan(validated.value)) {
          await safetyPlans.deleteOne({ _id: session.userId });
          return { safetyPlan: null };
        }
        const saved = await safetyPlans
          .findOneAndUpdate(
            { _id: session.userId },
            {
              $set: {
                ...(await eachSection(validated.value, (text) => personKeyring.seal(session.userId, text))),
                updatedAt: new Date(),
              },
            },
            { upsert: true, new: true },
          )
          .lean<SafetyPlanRecord>();
        return { safetyPlan: await openedPlan(personKeyring, saved!) };
      },
    },
    User: {
      safetyPlan: async (user, _args, context) => safetyPlanFor(deps, user._id, context),
    },
  };
}
