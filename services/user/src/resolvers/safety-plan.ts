/**
 * The personal safety plan: its writer saves it whole and reads it back on `User`. Nobody else reads it — not an
 * admin either — and it is open to everyone signed in, whatever their verification or subscription.
 */
import { isEmptySafetyPlan, rejectInput, requireSession, validateSafetyPlan } from '@haven/platform';
import type { Model } from 'mongoose';
import type { SafetyPlanRecord } from '../model/safety-plan';
import type { Resolvers, SafetyPlan } from './types.generated';

const toSafetyPlan = ({ _id, updatedAt, ...sections }: SafetyPlanRecord): SafetyPlan => ({
  ...sections,
  updatedAt: updatedAt.toISOString(),
});

export function safetyPlanResolvers(deps: {
  safetyPlans: Model<SafetyPlanRecord>;
}): Pick<Resolvers, 'Mutation' | 'User'> {
  const { safetyPlans } = deps;
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
            { $set: { ...validated.value, updatedAt: new Date() } },
            { upsert: true, new: true },
          )
          .lean<SafetyPlanRecord>();
        return { safetyPlan: toSafetyPlan(saved!) };
      },
    },
    User: {
      safetyPlan: async (user, _args, context) => {
        if (context.session?.userId !== user._id) return null;
        const plan = await safetyPlans.findById(user._id).lean<SafetyPlanRecord>();
        return plan ? toSafetyPlan(plan) : null;
      },
    },
  };
}
