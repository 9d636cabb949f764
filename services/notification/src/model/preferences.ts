import { byIds } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { defaultEmailPreferences, defaultReminderHour, type EmailPreferences } from '../domain/preferences';
import { readStopToken, stopMessages, switchOf, type StoppableSwitch } from '../domain/stop-links';
import type { KnownUserRecord } from './known-user';

export interface PreferencesRecord extends EmailPreferences {
  _id: string; // the user id
  reminderHour?: number;
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
    // Added after the first four switches: documents saved before it have none (read as off). Indexed: the
    // weekly summary's scheduler looks up the users who turned it on.
    weeklySummary: { type: Boolean, default: false, index: true },
    // The daily reminder: indexed for its scheduler like the summary; the hour on the user's own clock.
    checkInReminder: { type: Boolean, default: false, index: true },
    reminderHour: { type: Number, default: defaultReminderHour, min: 0, max: 23 },
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
  linkKey: Buffer,
  token: unknown,
): Promise<{ preference: StoppableSwitch; message: string } | null> {
  const stop = readStopToken(linkKey, token);
  if (!stop) return null;
  const preference = switchOf(stop.kind);
  await stopEmailsOf(models, stop.userId, preference);
  return { preference, message: stopMessages.stopped(stop.kind) };
}

/**
 * The ids of the users with a switch on, a page at a time in id order (the schedulers' passes): each page is
 * read after the one before was handled, so a long pass never holds a cursor open.
 */
export async function* pagesOfUsersWith(
  preferences: Model<PreferencesRecord>,
  governing: keyof EmailPreferences,
  pageSize: number,
): AsyncGenerator<string[]> {
  for (let after = ''; ;) {
    const page = await preferences
      .find({ [governing]: true, _id: { $gt: after } }, { _id: 1 })
      .sort({ _id: 1 })
      .limit(pageSize)
      .lean();
    if (page.length === 0) return;
    after = page.at(-1)!._id;
    yield page.map((entry) => entry._id);
    if (page.length < pageSize) return;
  }
}
