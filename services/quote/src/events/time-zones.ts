import { topicOf } from '@haven/proto';
import { recordById, type ConsumerSpec } from '@haven/platform';
import type { Model } from 'mongoose';
import type { TimeZoneRecord } from '../model/time-zone';

/** Keeps each user's time zone from the user service's events (one user's events arrive in order). */
export function timeZoneConsumer(timeZones: Model<TimeZoneRecord>): ConsumerSpec {
  const keep = async ({ userId, timeZone }: { userId: string; timeZone: string }) => {
    // Events from before time zones were recorded carry none: the user's zone stays UTC.
    if (!timeZone) return;
    await timeZones.updateOne({ _id: userId }, { $set: { timeZone } }, { upsert: true });
  };
  return {
    groupId: 'quote-time-zones',
    topics: [topicOf('user')],
    handlers: { 'user.registered': keep, 'user.profile_updated': keep },
  };
}

/** The user's IANA time zone for every date rule: UTC until the user service has said otherwise. */
export async function timeZoneOf(timeZones: Model<TimeZoneRecord>, userId: string): Promise<string> {
  return (await recordById(timeZones, userId))?.timeZone ?? 'UTC';
}
