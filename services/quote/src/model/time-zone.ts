import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Each user's IANA time zone, kept from the user service's events (`user.registered`,
 * `user.profile_updated`), so "today" in streaks, goals and file names needs no call to another service.
 */
export interface TimeZoneRecord {
  _id: string; // the user id
  timeZone: string;
}

const timeZoneSchema = new Schema<TimeZoneRecord>(
  { _id: { type: String, required: true }, timeZone: { type: String, required: true } },
  { collection: 'user_time_zones', versionKey: false },
);

export function timeZoneModel(connection: Connection): Model<TimeZoneRecord> {
  return connection.models.TimeZone ?? connection.model<TimeZoneRecord>('TimeZone', timeZoneSchema);
}
