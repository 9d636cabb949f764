import { byIds } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import type { EmailPreferences } from '../domain/preferences';

export interface PreferencesRecord extends EmailPreferences {
  _id: string; // the user id
  updatedAt: Date;
  /** When the user first saved their choices (the consent status's consentGivenAt). */
  consentGivenAt?: Date | null;
}

const preferencesSchema = new Schema<PreferencesRecord>(
  {
    _id: { type: String, required: true },
    marketingEmails: { type: Boolean, required: true },
    productUpdates: { type: Boolean, required: true },
    securityNotifications: { type: Boolean, required: true },
    newsletter: { type: Boolean, required: true },
    // Added after the spec's four: documents saved before it have none (read as off). Indexed: the
    // weekly summary's scheduler looks up the users who turned it on.
    weeklySummary: { type: Boolean, default: false, index: true },
    updatedAt: { type: Date, required: true },
    consentGivenAt: { type: Date, default: null },
  },
  { collection: 'email_preferences', versionKey: false },
);

export function preferencesModel(connection: Connection): Model<PreferencesRecord> {
  return connection.model<PreferencesRecord>('EmailPreferences', preferencesSchema);
}

/** The saved preferences of the users among `ids`, in one `$in` query (the per-request loader's batch). */
export function findPreferencesByUserIds(preferences: Model<PreferencesRecord>, userIds: readonly string[]) {
  return byIds((filter) => preferences.find(filter).lean<PreferencesRecord[]>(), userIds);
}
