/**
 * The privacy controls the help text promises ("adjust what is stored, opt out of analysis") and the quote
 * service's part of the data export (`User.quoteExport`: the file's checkIns, quotes, favorites, insights, progress
 * and privacySettings). Never premium: a user whose trial ended still controls and takes their data.
 */
import {
  badInput,
  dataExportPart,
  recordById,
  requireMayReadUser,
  requireSession,
  type PersonKeyring,
  type RequestContext,
} from '@haven/platform';
import type { Model } from 'mongoose';
import { insightsFrom } from '../domain/insights';
import { dayNumber } from '../domain/progress';
import { timeZoneOf } from '../events/time-zones';
import { insightSamplesOf, ratingsOfCheckIn, type CheckInRecord } from '../model/check-in';
import { privacySettingsOf, type PrivacySettingsRecord } from '../model/privacy-settings';
import { averageMoodOf, entriesOf, streaksOfRecord, type ProgressRecord } from '../model/progress';
import { emotionalStateOfQuote, type QuoteRecord } from '../model/quote';
import type { TimeZoneRecord } from '../model/time-zone';
import type { Resolvers } from './types.generated';

export interface PrivacyDeps {
  quotes: Model<QuoteRecord>;
  checkIns: Model<CheckInRecord>;
  progress: Model<ProgressRecord>;
  timeZones: Model<TimeZoneRecord>;
  privacySettings: Model<PrivacySettingsRecord>;
  meterDataExport(userId: string): Promise<void>;
  personKeyring: PersonKeyring;
}

export const privacyMessages = {
  nothingToChange: 'Choose a setting to change: allowInsights or keepNotes.',
} as const;

export function privacyResolvers(deps: PrivacyDeps): Pick<Resolvers, 'User' | 'Mutation'> {
  const { privacySettings } = deps;

  /** The user's recent insights, or none when they opted out of analysis. */
  async function insightsOf(userId: string, now: Date) {
    const { allowInsights } = await privacySettingsOf(privacySettings, userId);
    if (!allowInsights) return [];
    return insightsFrom(
      await insightSamplesOf(deps.checkIns, deps.personKeyring, userId, now),
      now,
      await timeZoneOf(deps.timeZones, userId),
    ).map((insight) => ({ ...insight, createdAt: insight.createdAt.toISOString() }));
  }

  return {
    User: {
      privacySettings: async ({ id }) => privacySettingsOf(privacySettings, id),

      quoteExport: async ({ id }, _args, context: RequestContext) => {
        await requireMayReadUser(context, id);
        // All of a user's history: metered like the export downloads, whoever asks but Haven's own services.
        if (!context.caller.service) await deps.meterDataExport(id);
        const now = new Date();
        const [checkIns, quotes, kept, timeZone, settings, insights] = await Promise.all([
          deps.checkIns.find({ userId: id }).sort({ createdAt: 1 }).lean<CheckInRecord[]>(),
          deps.quotes.find({ userId: id }, { outbox: 0 }).sort({ createdAt: 1 }).lean<QuoteRecord[]>(),
          recordById(deps.progress, id),
          timeZoneOf(deps.timeZones, id),
          privacySettingsOf(privacySettings, id),
          insightsOf(id, now),
        ]);
        const streaks = streaksOfRecord(kept, dayNumber(now, timeZone));
        const opened = (stored: string | null) => deps.personKeyring.open(id, stored);
        return dataExportPart({
          checkIns: await Promise.all(
            checkIns.map(async (checkIn) => ({
              id: checkIn._id,
              createdAt: checkIn.createdAt.toISOString(),
              timeOfDay: checkIn.timeOfDay,
              notes: await opened(checkIn.notes),
              ratings: await ratingsOfCheckIn(deps.personKeyring, checkIn),
            })),
          ),
          quotes: await Promise.all(
            quotes.map(async (quote) => ({
              id: quote._id,
              checkInId: quote.checkInId,
              text: (await opened(quote.text)) ?? '',
              createdAt: quote.createdAt.toISOString(),
              timeOfDay: quote.timeOfDay,
              // The ratings the progress page shows beside the quote, as kept with it.
              emotionalState: await emotionalStateOfQuote(deps.personKeyring, quote),
              isFavorite: quote.isFavorite,
              editedAt: quote.editedAt?.toISOString() ?? null,
            })),
          ),
          favorites: quotes.filter((quote) => quote.isFavorite).map((quote) => quote._id),
          insights,
          progress: {
            entries: entriesOf(kept),
            averageMood: averageMoodOf(kept),
            currentStreak: streaks.current,
            longestStreak: streaks.longest,
          },
          privacySettings: settings,
        });
      },
    },

    Mutation: {
      updatePrivacySettings: async (_parent, { input }, context) => {
        const session = requireSession(context);
        const changes: Partial<Record<'allowInsights' | 'keepNotes', boolean>> = {};
        if (input.allowInsights != null) changes.allowInsights = input.allowInsights;
        if (input.keepNotes != null) changes.keepNotes = input.keepNotes;
        if (Object.keys(changes).length === 0) throw badInput('allowInsights', privacyMessages.nothingToChange);
        const current = await privacySettingsOf(privacySettings, session.userId);
        const next = { ...current, ...changes };
        await privacySettings.updateOne(
          { _id: session.userId },
          { $set: { ...next, updatedAt: new Date() } },
          { upsert: true },
        );
        context.log.info({ ...changes }, 'privacy settings changed');
        return next;
      },
    },
  };
}
