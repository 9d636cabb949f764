/**
 * What the quote service erases when an account is deleted (see docs/decisions/privacy-and-erasure/erasure-saga.md):
 * every check-in (with its notes), every quote with the events it still holds, the progress summary, the time zone and
 * the privacy settings. Nothing is kept.
 */
import { eraseOutboxed, type DataMap, type PersonKeyring, type ServiceErasure } from '@haven/platform';
import type { Model } from 'mongoose';
import type { CheckInRecord } from '../model/check-in';
import type { PrivacySettingsRecord } from '../model/privacy-settings';
import type { ProgressRecord } from '../model/progress';
import type { QuoteRecord } from '../model/quote';
import type { TimeZoneRecord } from '../model/time-zone';

export function quoteErasure(deps: {
  quotes: Model<QuoteRecord>;
  checkIns: Model<CheckInRecord>;
  progress: Model<ProgressRecord>;
  timeZones: Model<TimeZoneRecord>;
  privacySettings: Model<PrivacySettingsRecord>;
  personKeyring: PersonKeyring;
}): ServiceErasure {
  return {
    erase: async (userId) => {
      deps.personKeyring.forget(userId);
      const quotes = await eraseOutboxed(deps.quotes, { userId });
      const counts = await Promise.all([
        deps.checkIns.deleteMany({ userId }),
        deps.progress.deleteOne({ _id: userId }),
        deps.timeZones.deleteOne({ _id: userId }),
        deps.privacySettings.deleteOne({ _id: userId }),
      ]);
      return { records: quotes + counts.reduce((total, result) => total + result.deletedCount, 0) };
    },
  };
}

/** The quote service's collections and where each stands in the data export. */
export const quoteDataMap: DataMap = {
  check_ins: {
    exported: 'checkIns',
    leftOut: { userId: 'the account’s id, said once as account.id' },
  },
  quotes: {
    exported: 'quotes',
    leftOut: {
      userId: 'the account’s id, said once as account.id',
      messageId: 'which of the composer’s messages was used, so it is not repeated soon; the words are exported',
    },
  },
  progress: {
    exported: 'progress',
    leftOut: {
      _id: 'the account’s id, said once as account.id',
      moodSum: 'exported as averageMood (the sum over the entries)',
      dayBits: 'the local days with a check-in, exported as the streaks they make and each check-in’s own time',
      days: 'the local days with a check-in as kept before the bits, exported as dayBits are',
      streak: 'the running streak kept before the days were, exported as the streaks',
      folded: 'the ids of the latest check-ins counted, so a repeat is not counted twice; the check-ins are exported',
    },
  },
  user_time_zones: { copyOf: 'account.timeZone', reason: 'the user service’s time zone, copied from its events' },
  privacy_settings: {
    exported: 'privacySettings',
    leftOut: {
      _id: 'the account’s id, said once as account.id',
      updatedAt: 'when a setting last changed (bookkeeping)',
    },
  },
};
