import { topicOf } from '@haven/proto';
import { countryOfTimeZone, knownCountry, type ConsumerSpec } from '@haven/platform';
import type { Model } from 'mongoose';
import type { TimeZoneRecord } from '../model/time-zone';

/**
 * Keeps each user's time zone and chosen country from the user service's events (one user's events arrive
 * in order). A profile update carries both; an empty country is "not chosen".
 */
export function timeZoneConsumer(timeZones: Model<TimeZoneRecord>): ConsumerSpec {
  const keep = async ({ userId, timeZone, country }: { userId: string; timeZone: string; country?: string }) => {
    // Events from before time zones were recorded carry none: the user's zone stays UTC.
    if (!timeZone) return;
    const chosen = country === undefined ? {} : { country: knownCountry(country) };
    await timeZones.updateOne({ _id: userId }, { $set: { timeZone, ...chosen } }, { upsert: true });
  };
  return {
    groupId: 'quote-time-zones',
    topics: [topicOf('user')],
    handlers: { 'user.registered': keep, 'user.profile_updated': keep },
  };
}

/** The user's IANA time zone for every date rule: UTC until the user service has said otherwise. */
export async function timeZoneOf(timeZones: Model<TimeZoneRecord>, userId: string): Promise<string> {
  return (await timeZones.findById(userId).lean())?.timeZone ?? 'UTC';
}

/**
 * The country whose crisis lines the user sees: the one they chose, else the one their time zone suggests,
 * else null (the directory and "your local emergency number"; never another country's lines).
 */
export async function crisisCountryOf(timeZones: Model<TimeZoneRecord>, userId: string): Promise<string | null> {
  const place = await timeZones.findById(userId).lean();
  return place?.country ?? (place ? countryOfTimeZone(place.timeZone) : null);
}
