import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Where each user is, kept from the user service's events (`user.registered`, `user.profile_updated`): the
 * IANA time zone, so "today" in streaks, goals and file names needs no call to another service, and the
 * country the person chose for crisis help, so a crisis reply needs none either.
 */
export interface TimeZoneRecord {
  _id: string; // the user id
  timeZone: string;
  /** ISO code the person chose; absent or null until they do (the time zone then suggests one). */
  country?: string | null;
}

const timeZoneSchema = new Schema<TimeZoneRecord>(
  {
    _id: { type: String, required: true },
    timeZone: { type: String, required: true },
    country: { type: String, default: null },
  },
  { collection: 'user_time_zones', versionKey: false },
);

export function timeZoneModel(connection: Connection): Model<TimeZoneRecord> {
  return connection.models.TimeZone ?? connection.model<TimeZoneRecord>('TimeZone', timeZoneSchema);
}
