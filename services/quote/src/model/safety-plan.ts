import { safetyPlanSections, type SafetyPlanContent } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A person's safety plan, one document per user. Their own words for a hard moment: never in an event, an
 * e-mail, a log or an AI prompt; in the data export, and erased with the account.
 */
export interface SafetyPlanRecord extends SafetyPlanContent {
  _id: string; // the user id
  updatedAt: Date;
}

const safetyPlanSchema = new Schema<SafetyPlanRecord>(
  {
    _id: { type: String, required: true },
    ...Object.fromEntries(safetyPlanSections.map(({ key }) => [key, { type: String, default: '' }])),
    updatedAt: { type: Date, required: true },
  },
  { collection: 'safety_plans', versionKey: false },
);

export function safetyPlanModel(connection: Connection): Model<SafetyPlanRecord> {
  return connection.models.SafetyPlan ?? connection.model<SafetyPlanRecord>('SafetyPlan', safetyPlanSchema);
}
