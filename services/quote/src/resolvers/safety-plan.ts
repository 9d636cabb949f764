/**
 * The personal safety plan: read by its owner alone, saved part by part. Never premium: a plan for a hard
 * moment is never behind the paywall. Its text is logged nowhere (only which parts changed).
 */
import {
  badInput,
  emptySafetyPlan,
  requireSession,
  safetyPlanSections,
  validateSafetyPlan,
  type RequestContext,
  type SafetyPlanContent,
} from '@haven/platform';
import type { Model } from 'mongoose';
import type { SafetyPlanRecord } from '../model/safety-plan';
import type { Resolvers } from './types.generated';

export interface SafetyPlanView extends SafetyPlanContent {
  updatedAt: string | null;
}

/** The user's plan, every part empty until they write one (one read by primary key). */
export async function safetyPlanOf(plans: Model<SafetyPlanRecord>, userId: string): Promise<SafetyPlanView> {
  const saved = await plans.findById(userId).lean();
  const parts = Object.fromEntries(
    safetyPlanSections.map(({ key }) => [key, saved?.[key] ?? emptySafetyPlan[key]]),
  ) as SafetyPlanContent;
  return { ...parts, updatedAt: saved?.updatedAt.toISOString() ?? null };
}

export const safetyPlanMessages = {
  nothingToSave: 'Write in at least one part of the plan: warningSigns, copingStrategies, … reasonsForLiving.',
} as const;

export function safetyPlanResolvers(deps: {
  safetyPlans: Model<SafetyPlanRecord>;
}): Pick<Resolvers, 'User' | 'Mutation'> {
  return {
    User: {
      // A person's own words: not even an admin reading the account sees them.
      safetyPlan: async ({ id }, _args, context: RequestContext) =>
        context.session?.userId === id ? safetyPlanOf(deps.safetyPlans, id) : null,
    },
    Mutation: {
      saveSafetyPlan: async (_parent, { input }, context) => {
        const session = requireSession(context);
        const validated = validateSafetyPlan(input);
        if (!validated.ok) {
          const [first] = validated.problems as [(typeof validated.problems)[number]];
          throw badInput(first.field, first.message, validated.problems);
        }
        const changed = Object.keys(validated.value);
        if (changed.length === 0) throw badInput('input', safetyPlanMessages.nothingToSave);
        await deps.safetyPlans.updateOne(
          { _id: session.userId },
          { $set: { ...validated.value, updatedAt: new Date() } },
          { upsert: true },
        );
        context.log.info({ parts: changed }, 'safety plan saved');
        return safetyPlanOf(deps.safetyPlans, session.userId);
      },
    },
  };
}
