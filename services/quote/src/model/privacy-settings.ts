import { recordById } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * What the user lets Haven keep and work out from their check-ins (the help text's "adjust what is stored,
 * opt out of analysis"). No document means the defaults: both on.
 */
export interface PrivacySettingsRecord {
  _id: string; // the user id
  /** Insights (weekly summary, weekly change, sleep and mood) are worked out from the history. */
  allowInsights: boolean;
  /** A check-in's notes are stored with it. */
  keepNotes: boolean;
  updatedAt: Date;
}

export const defaultPrivacySettings = Object.freeze({ allowInsights: true, keepNotes: true });

const privacySettingsSchema = new Schema<PrivacySettingsRecord>(
  {
    _id: { type: String, required: true },
    allowInsights: { type: Boolean, required: true },
    keepNotes: { type: Boolean, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'privacy_settings', versionKey: false },
);

export function privacySettingsModel(connection: Connection): Model<PrivacySettingsRecord> {
  return connection.model<PrivacySettingsRecord>('PrivacySettings', privacySettingsSchema);
}

/** The user's settings, the defaults when they never changed them (one read by primary key). */
export async function privacySettingsOf(
  settings: Model<PrivacySettingsRecord>,
  userId: string,
): Promise<{ allowInsights: boolean; keepNotes: boolean }> {
  const saved = await recordById(settings, userId, { allowInsights: 1, keepNotes: 1 });
  return {
    allowInsights: saved?.allowInsights ?? defaultPrivacySettings.allowInsights,
    keepNotes: saved?.keepNotes ?? defaultPrivacySettings.keepNotes,
  };
}
