import { byIds } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { defaultEmailPreferences, type EmailPreferences } from '../domain/preferences';
import { readStopToken, stopMessages, switchOf, type StoppableSwitch } from '../domain/stop-links';
import type { KnownUserRecord } from './known-user';

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

/**
 * Turns one switch off for a stop link's user. Only for an account this service knows: a link clicked after
 * the account was deleted writes nothing (there is nobody left to e-mail). The other switches keep their
 * saved values, or take the defaults when none were saved.
 */
export async function stopEmailsOf(
  models: { preferences: Model<PreferencesRecord>; knownUsers: Model<KnownUserRecord> },
  userId: string,
  governing: StoppableSwitch,
): Promise<void> {
  if (!(await models.knownUsers.exists({ _id: userId }))) return;
  const { [governing]: _stopped, ...others } = defaultEmailPreferences;
  await models.preferences.updateOne(
    { _id: userId },
    { $set: { [governing]: false, updatedAt: new Date() }, $setOnInsert: others },
    { upsert: true },
  );
}

/** What a stop link does, for the GraphQL mutation and the one-click route alike: null for a link not ours. */
export async function stopByLink(
  models: { preferences: Model<PreferencesRecord>; knownUsers: Model<KnownUserRecord> },
  stopKey: Buffer,
  token: unknown,
): Promise<{ preference: StoppableSwitch; message: string } | null> {
  const stop = readStopToken(stopKey, token);
  if (!stop) return null;
  const preference = switchOf(stop.kind);
  await stopEmailsOf(models, stop.userId, preference);
  return { preference, message: stopMessages.stopped(stop.kind) };
}
