import { Schema, type Connection, type Model } from 'mongoose';
import { safetyPlanSectionKeys, type SafetyPlanSections } from '@haven/domain';

/** A person's safety plan, one per account (its `_id` is the user's id), in their own words. */
export interface SafetyPlanRecord extends SafetyPlanSections {
  _id: string;
  updatedAt: Date;
}

const sectionFields = Object.fromEntries(safetyPlanSectionKeys.map((key) => [key, { type: String, default: '' }]));

const safetyPlanSchema = new Schema<SafetyPlanRecord>(
  {
    _id: { type: String, required: true },
    ...sectionFields,
    updatedAt: { type: Date, required: true },
  },
  { collection: 'safety_plans', versionKey: false },
);

export function safetyPlanModel(connection: Connection): Model<SafetyPlanRecord> {
  return connection.model<SafetyPlanRecord>('SafetyPlan', safetyPlanSchema);
}
