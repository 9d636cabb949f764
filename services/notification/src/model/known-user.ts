import { Schema, type Connection, type Model } from 'mongoose';

/**
 * What this service keeps of a user, from the user service's events: where to write, whether it is
 * verified, and the time zone the weekly summary and the check-in reminder go by.
 */
export interface KnownUserRecord {
  _id: string; // the user id
  email: string;
  emailVerified: boolean;
  /** IANA time zone from `user.registered` / `user.profile_updated`; absent (older users) reads as UTC. */
  timeZone?: string;
  updatedAt: Date;
}

const knownUserSchema = new Schema<KnownUserRecord>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    emailVerified: { type: Boolean, required: true },
    timeZone: { type: String },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'known_users', versionKey: false },
);

export function knownUserModel(connection: Connection): Model<KnownUserRecord> {
  return connection.model<KnownUserRecord>('KnownUser', knownUserSchema);
}

/** The user's time zone, UTC when this service does not know one. */
export const timeZoneOf = (user: { timeZone?: string | undefined } | null | undefined) => user?.timeZone || 'UTC';
