import {
  appendEvents,
  badInput,
  conflict,
  deleteKeepingEvents,
  insertWithEvents,
  isDuplicateKeyError,
  notFound,
  recordById,
  rejectInput,
  requestLoader,
  requireEntitlement,
  requireMayReadUser,
  requireSession,
  mayReadUser,
  isHavenId,
  type CallerSecrets,
  type PersonKeyring,
  type RequestContext,
  type WithOutbox,
} from '@haven/platform';
import {
  supportResourcesFor,
  allSupportResources,
  countryOfTimeZone,
  countryProblem,
  entryEditableDays,
  isEditable,
} from '@haven/domain';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  validateAssessment,
  validateEntryEdit,
  type Assessment,
  type FieldProblem,
  type Validated,
} from '../domain/assessment';
import { compose, crisisMessageId, noRepeatWindow, showsCrisis } from '../domain/composer';
import { brokenReplyRule } from '../domain/reply-check';
import { keyedCheckInId, validateIdempotencyKey } from '../domain/idempotency';
import { checkInDaysOf, monthWindow, moodsByDay, yearWindow } from '../domain/calendar';
import { insightsFrom } from '../domain/insights';
import {
  dayNumber,
  dotColour,
  emotionalStateOf,
  localDate,
  moodColour,
  moodOf,
  quoteScore,
  trendOf,
  weeklyGoal,
  type EmotionalState,
} from '../domain/progress';
import { scrubNotes } from '../domain/scrub';
import { entryDeletedEvent, entryEditedEvent, quoteGeneratedEvent } from '../events/publish';
import {
  analyticsCheckInsOf,
  checkInRatingsUpdate,
  insertCheckIn,
  ratingsOfCheckIn,
  sealCheckInRatings,
  type CheckInRecord,
} from '../model/check-in';
import {
  averageMoodOf,
  entriesOf,
  forgetProgress,
  recordMissingProgress,
  recordProgress,
  reviseProgress,
  streaksOfRecord,
  type ProgressRecord,
} from '../model/progress';
import { emotionalStateOfQuote, sealEmotionalState, type QuoteRecord } from '../model/quote';
import { countFavorites, countStatsByUserIds } from '../model/stats';
import { timeZoneOf } from '../events/time-zones';
import type { TimeZoneRecord } from '../model/time-zone';
import { privacySettingsOf, type PrivacySettingsRecord } from '../model/privacy-settings';
import { callerIdentity } from '../providers/user-service';
import { privacyResolvers } from './privacy';
import type { AiWriter } from '../providers/ai-writer';
import type { Resolvers } from './types.generated';
import type { QuoteReply, QuoteView } from './quote-view';

export interface QuoteServiceDeps {
  quotes: Model<QuoteRecord>;
  checkIns: Model<CheckInRecord>;
  progress: Model<ProgressRecord>;
  /** Each user's time zone, kept from the user service's events (events/time-zones.ts). */
  timeZones: Model<TimeZoneRecord>;
  /** What the user lets Haven keep and work out (resolvers/privacy.ts). */
  privacySettings: Model<PrivacySettingsRecord>;
  /** Null: the offline composer writes every quote. */
  ai: AiWriter | null;
  publishSoon(): void;
  userServiceUrl: string;
  /** The service's secrets, sent with its calls to the user service. */
  credentials: CallerSecrets;
  /** Seals notes and messages under their writer's own key, and opens them (platform person-keys.ts). */
  personKeyring: PersonKeyring;
  /** Counts one data export of a user (`dataExportMeter`); throws TOO_MANY_REQUESTS over the budget. */
  meterDataExport(userId: string): Promise<void>;
}

/** The most quotes one page asks for: the recent list and the progress journey. */
export const recentLimitMax = 100;
/** Favourites are a hand-kept collection; one reply carries at most this many, newest first. */
export const favoritesLimit = 200;
/** How many of the latest check-ins the mood history carries (the page draws the first 10). */
export const moodHistoryLength = 30;
const dayMs = 24 * 60 * 60 * 1000;

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/** How long a repeat waits for the quote of a check-in another request has just stored, and how often it looks. */
const quoteFollowsCheckInMs = 5_000;
const quotePollMs = 25;

const problemsOf = (validated: Validated<unknown>): FieldProblem[] => (validated.ok ? [] : validated.problems);

/** A quote as the API shows it, with the emotional state its record holds (opened: `emotionalStateOfQuote`). */
export function toQuote(
  record: Omit<QuoteRecord, keyof WithOutbox | 'emotionalState'> & { _id: string },
  state: EmotionalState,
): QuoteView {
  return {
    id: record._id,
    userId: record.userId,
    checkInId: record.checkInId,
    text: record.text,
    createdAt: record.createdAt.toISOString(),
    isFavorite: record.isFavorite,
    timeOfDay: record.timeOfDay,
    editedAt: record.editedAt?.toISOString() ?? null,
    score: quoteScore(state),
    dotColour: dotColour(quoteScore(state)),
    emotionalState: emotionalStateOf(state),
  };
}

const quoteFields = { outbox: 0 } as const;
/** The kept progress as the pages read it: the latest folds' ids are for a repeat's check alone. */
const progressFields = { folded: 0 } as const;

export function quoteResolvers(deps: QuoteServiceDeps): Resolvers {
  const { quotes, checkIns, progress, personKeyring } = deps;
  const privacy = privacyResolvers(deps);

  /** Stored quotes as the API shows them, each one's emotional state opened in memory. */
  const quoteViews = (records: QuoteRecord[]): Promise<QuoteView[]> =>
    Promise.all(records.map(async (record) => toQuote(record, await emotionalStateOfQuote(personKeyring, record))));

  const statsOf = (context: RequestContext, id: string) =>
    requestLoader(context, 'stats', (ids) => countStatsByUserIds(quotes, checkIns, ids)).load(id);

  /** The kept check-ins (ratings and notes), one read for every quote a request shows. */
  const checkInOf = (context: RequestContext, checkInId: string) =>
    requestLoader(context, 'check-ins', async (ids) => {
      const records = await checkIns.find({ _id: { $in: [...ids] } }).lean<CheckInRecord[]>();
      return new Map(records.map((record) => [record._id, record]));
    }).load(checkInId);

  /** The quote's check-in when the caller wrote it: a person's own words and ratings stay theirs. */
  const ownCheckIn = async (quote: QuoteView, context: RequestContext) =>
    context.session?.userId === quote.userId ? ((await checkInOf(context, quote.checkInId)) ?? null) : null;

  /** Owner (or admin) and entitled: the premium reads. */
  async function premiumRead(context: RequestContext, userId: string): Promise<void> {
    await requireMayReadUser(context, userId);
    await requireEntitlement(context);
  }

  /**
   * The words of a quote: the crisis reply, the AI provider's, or the composer's (also when the provider fails).
   * `ownWords` are the notes as received, read only for crisis signals, also when they are not kept; the
   * assessment's notes are what may be stored and, scrubbed, sent to the provider.
   */
  async function write(
    assessment: Assessment,
    ownWords: string | null,
    country: string | null,
    userId: string,
    context: RequestContext,
  ) {
    const recentMessageIds = async () =>
      (
        await quotes
          .find({ userId }, { messageId: 1 })
          .sort({ createdAt: -1 })
          .limit(noRepeatWindow)
          .lean<Array<{ messageId: string }>>()
      ).map((quote) => quote.messageId);
    const checkIn = { ratings: assessment.ratings, timeOfDay: assessment.timeOfDay, notes: ownWords, country };
    const offline = async () => compose({ ...checkIn, recentMessageIds: await recentMessageIds() });

    // A crisis check-in is answered with people first and never reaches the provider.
    if (showsCrisis(checkIn)) return compose({ ...checkIn, recentMessageIds: [] });
    if (!deps.ai) return offline();
    try {
      let notes = assessment.notes;
      if (notes) {
        const identity = await callerIdentity(
          { USER_SERVICE_URL: deps.userServiceUrl, ...deps.credentials },
          context.sessionToken ?? '',
        );
        notes = scrubNotes(notes, [identity.firstName, identity.lastName, identity.email]);
      }
      const text = await deps.ai.write({ ratings: assessment.ratings, timeOfDay: assessment.timeOfDay, notes });
      // Checked against the voice guide's "never" list before anyone sees it; counted by rule, never with the text.
      const broken = brokenReplyRule(text);
      if (broken) {
        context.log.warn(
          { aiReplyRefused: broken },
          'AI reply refused by the voice check; the composer wrote the quote',
        );
        return offline();
      }
      return { text, messageId: 'ai', crisis: false };
    } catch (error) {
      context.log.warn({ err: error }, 'AI provider failed; the offline composer wrote the quote');
      return offline();
    }
  }

  /**
   * The reply a stored check-in was given (a repeat of its key). Its quote follows the check-in within moments,
   * so one another request has just stored is waited for, bounded; past that that request failed and deletes
   * its check-in.
   */
  async function replyOfStored(
    checkInId: string,
    userId: string,
    country: string | null,
    timeZone: string,
    createdAt?: Date,
  ): Promise<QuoteReply> {
    const storedAt =
      createdAt ?? (await checkIns.findOne({ _id: checkInId, userId }, { createdAt: 1 }).lean())?.createdAt;
    const deadline = Date.now() + quoteFollowsCheckInMs;
    while (storedAt) {
      // The quote shares the check-in's instant, so the user's quote index finds it.
      const stored = await quotes.findOne({ userId, createdAt: storedAt, checkInId }, quoteFields).lean<QuoteRecord>();
      if (stored) {
        const state = await emotionalStateOfQuote(personKeyring, stored);
        // The first request may have failed after storing both, before its progress: the repeat finishes it.
        await recordMissingProgress(progress, checkIns, userId, {
          id: checkInId,
          mood: moodOf(state),
          day: dayNumber(storedAt, timeZone),
          createdAt: storedAt,
        });
        return {
          quote: toQuote(stored, state),
          supportResources: stored.messageId === crisisMessageId ? supportResourcesFor(country) : null,
        };
      }
      if (Date.now() >= deadline) break;
      await sleep(quotePollMs);
    }
    throw conflict('This check-in is still being saved. Please try again in a moment.');
  }

  return {
    Query: {
      // The gateway forwards only a live session's token (its session check), so the token's claims are enough.
      me: (_parent, _args, context) => (context.session ? { id: context.session.userId } : null),
      // Public on purpose: help is never behind sign-in or the paywall.
      supportResources: (_parent, { country }) => {
        const problem = countryProblem(country);
        if (problem) throw badInput('country', problem);
        return allSupportResources(country);
      },

      checkInDays: async (_parent, { month }, context) => {
        const { userId } = await requireEntitlement(context);
        const window = monthWindow(month);
        if (!window) throw badInput('month', 'month must be a month written yyyy-mm, for example 2026-11');
        const timeZone = await timeZoneOf(deps.timeZones, userId);
        const found = await checkIns
          .find({ userId, createdAt: { $gte: window.from, $lt: window.to } }, { createdAt: 1 })
          .lean<Array<{ createdAt: Date }>>();
        return checkInDaysOf(
          found.map((checkIn) => checkIn.createdAt),
          month,
          timeZone,
        );
      },

      yearInMoods: async (_parent, { year }, context) => {
        const { userId } = await requireEntitlement(context);
        const window = yearWindow(year);
        if (!window) throw badInput('year', 'year must be a year written yyyy, for example 2026');
        const timeZone = await timeZoneOf(deps.timeZones, userId);
        const found = await quotes
          .find(
            { userId, createdAt: { $gte: window.from, $lt: window.to } },
            { userId: 1, emotionalState: 1, createdAt: 1 },
          )
          .lean<Array<Pick<QuoteRecord, 'userId' | 'emotionalState' | 'createdAt'>>>();
        const samples = await Promise.all(
          found.map(async (quote) => ({
            at: quote.createdAt,
            mood: moodOf(await emotionalStateOfQuote(personKeyring, quote)),
          })),
        );
        return moodsByDay(samples, year, timeZone).map((day) => ({ ...day, colour: moodColour(day.mood) }));
      },
    },
    User: {
      ...privacy.User,
      // A user's check-ins and quotes are the owner's or an admin's to read.
      __resolveReference: async (reference, context) =>
        (await mayReadUser(context, reference.id)) ? { id: reference.id } : null,
      // Open to a signed-in user who still needs setup: settings shows these counts.
      stats: async ({ id }, _args, context) => (await statsOf(context, id))!,

      recentQuotes: async ({ id }, { limit, date, before }, context) => {
        await premiumRead(context, id);
        const count = limit ?? 20;
        if (!Number.isInteger(count) || count < 1 || count > recentLimitMax) {
          throw badInput('limit', `limit must be a whole number from 1 to ${recentLimitMax}`);
        }
        const paged = before !== null && before !== undefined;
        if (date === null || date === undefined) {
          const cursor =
            paged && isHavenId(before)
              ? await quotes.findOne({ _id: before, userId: id }, { createdAt: 1 }).lean()
              : null;
          if (paged && !cursor) throw badInput('before', 'before must be the id of one of your quotes');
          // Newest first, ties by id: a page after `before` goes on exactly where the one before it stopped.
          const olderThanCursor = cursor
            ? {
                $or: [
                  { createdAt: { $lt: cursor.createdAt } },
                  { createdAt: cursor.createdAt, _id: { $lt: cursor._id } },
                ],
              }
            : {};
          const records = await quotes
            .find({ userId: id, ...olderThanCursor }, quoteFields)
            .sort({ createdAt: -1, _id: -1 })
            .limit(count)
            .lean<QuoteRecord[]>();
          return quoteViews(records);
        }
        if (paged) throw badInput('before', 'before pages the whole journey, not a day');
        const day = datePattern.test(date) ? new Date(`${date}T00:00:00Z`) : null;
        if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) {
          throw badInput('date', 'date must be a day written yyyy-mm-dd');
        }
        // A day in any time zone lies within a day either side of the same date in UTC.
        const timeZone = await timeZoneOf(deps.timeZones, id);
        const records = await quotes
          .find(
            {
              userId: id,
              createdAt: { $gte: new Date(day.getTime() - dayMs), $lt: new Date(day.getTime() + 2 * dayMs) },
            },
            quoteFields,
          )
          .sort({ createdAt: -1 })
          .lean<QuoteRecord[]>();
        return quoteViews(records.filter((record) => localDate(record.createdAt, timeZone) === date).slice(0, count));
      },

      favoriteQuotes: async ({ id }, _args, context) => {
        await premiumRead(context, id);
        const records = await quotes
          .find({ userId: id, isFavorite: true }, quoteFields)
          .sort({ createdAt: -1 })
          .limit(favoritesLimit)
          .lean<QuoteRecord[]>();
        return quoteViews(records);
      },

      progress: async ({ id }, _args, context) => {
        const now = new Date();
        // Every read at once: the access check's and the page's (nothing is answered before the check passes).
        const [, timeZone, kept, thisWeek] = await Promise.all([
          premiumRead(context, id),
          timeZoneOf(deps.timeZones, id),
          recordById(progress, id, progressFields),
          // Sunday is at most 6 days back; a day's margin either side for time zones.
          quotes
            .find({ userId: id, createdAt: { $gte: new Date(now.getTime() - 8 * dayMs) } }, { createdAt: 1 })
            .lean(),
        ]);
        return {
          weeklyGoal: weeklyGoal(
            thisWeek.map((quote) => quote.createdAt),
            now,
            timeZone,
          ),
          totalEntries: entriesOf(kept),
          averageMood: averageMoodOf(kept),
          dayStreak: streaksOfRecord(kept, dayNumber(now, timeZone)).current,
        };
      },

      analytics: async ({ id }, _args, context) => {
        const now = new Date();
        // Every read at once: the access check's and the page's (nothing is answered before the check passes).
        const [, timeZone, favoriteQuotes, kept, { latest, samples }, settings] = await Promise.all([
          premiumRead(context, id),
          timeZoneOf(deps.timeZones, id),
          countFavorites(quotes, id),
          recordById(progress, id, progressFields),
          // A check-in carries the ratings its quote's mood is worked out from: one read for both lists.
          analyticsCheckInsOf(checkIns, personKeyring, id, now, moodHistoryLength),
          privacySettingsOf(deps.privacySettings, id),
        ]);
        const averageMood = averageMoodOf(kept);
        const totalEntries = entriesOf(kept);
        const moodHistory = latest.map((sample) => Math.round(moodOf(sample.ratings) * 100) / 100);
        const today = dayNumber(now, timeZone);
        const streaks = streaksOfRecord(kept, today);
        return {
          totalQuotes: totalEntries,
          favoriteQuotes,
          totalEntries,
          moodTrends: {
            averageMood,
            colour: moodColour(averageMood),
            moodHistory,
            recentEntries: samples.filter((sample) => today - dayNumber(sample.createdAt, timeZone) < 7).length,
            trend: trendOf(moodHistory),
          },
          streaks: {
            currentStreak: streaks.current,
            longestStreak: streaks.longest,
            totalQuotesGenerated: totalEntries,
          },
          // Opted out of analysis: none worked out (none are ever stored).
          recentInsights: settings.allowInsights
            ? insightsFrom(samples, now, timeZone).map((insight) => ({
                ...insight,
                createdAt: insight.createdAt.toISOString(),
              }))
            : [],
        };
      },
    },

    Quote: {
      // An admin reading the account sees the quotes, never the notes or the ratings the progress page does not show.
      text: async (quote) => (await personKeyring.open(quote.userId, quote.text)) ?? '',
      notes: async (quote, _args, context) =>
        personKeyring.open(quote.userId, (await ownCheckIn(quote, context))?.notes),
      ratings: async (quote, _args, context) => {
        const checkIn = await ownCheckIn(quote, context);
        return checkIn ? ratingsOfCheckIn(personKeyring, checkIn) : null;
      },
    },

    Mutation: {
      ...privacy.Mutation,
      generateQuote: async (_parent, { input }, context) => {
        const { userId } = await requireEntitlement(context);
        const validated = validateAssessment({ ...input });
        const key = validateIdempotencyKey(input.idempotencyKey);
        const countryIssue = countryProblem(input.country);
        if (!validated.ok || !key.ok || countryIssue) {
          rejectInput([
            ...problemsOf(validated),
            ...problemsOf(key),
            ...(countryIssue ? [{ field: 'country', message: countryIssue }] : []),
          ]);
        }
        // One check-in per user and key: its id is named by the key, so a repeat finds it, and a race loses on `_id`.
        const checkInId = key.value === null ? randomUUID() : keyedCheckInId(userId, key.value);
        // The reads a check-in needs, at once: the person's time zone and privacy settings, and a repeat's earlier one.
        const [timeZone, { keepNotes }, earlier] = await Promise.all([
          timeZoneOf(deps.timeZones, userId),
          privacySettingsOf(deps.privacySettings, userId),
          key.value === null ? null : checkIns.findOne({ _id: checkInId, userId }, { createdAt: 1 }).lean(),
        ]);
        // Where the person is, for a crisis reply's lines: as the app sent it, else their time zone's country.
        const country = input.country?.trim().toUpperCase() || countryOfTimeZone(timeZone);
        if (earlier) return replyOfStored(checkInId, userId, country, timeZone, earlier.createdAt);
        // Notes kept off the server: neither stored nor sent to the AI provider, whatever the client sent;
        // they are still read once, in memory, for crisis signals.
        const assessment = keepNotes ? validated.value : { ...validated.value, notes: null };
        const written = await write(assessment, validated.value.notes, country, userId, context);

        const now = new Date();
        const checkIn: CheckInRecord = {
          _id: checkInId,
          userId,
          ratings: await sealCheckInRatings(personKeyring, userId, assessment.ratings),
          timeOfDay: assessment.timeOfDay,
          notes: assessment.notes && (await personKeyring.seal(userId, assessment.notes)),
          createdAt: now,
        };
        try {
          await insertCheckIn(checkIns, checkIn);
        } catch (error) {
          // The same key sent twice at once: the other request stored the check-in; its reply is this one's.
          if (key.value === null || !isDuplicateKeyError(error)) throw error;
          return replyOfStored(checkInId, userId, country, timeZone);
        }
        const mood = moodOf(assessment.ratings);
        const state = emotionalStateOf(assessment.ratings);
        const quote = {
          _id: randomUUID(),
          userId,
          checkInId,
          text: await personKeyring.seal(userId, written.text),
          messageId: written.messageId,
          timeOfDay: assessment.timeOfDay,
          emotionalState: await sealEmotionalState(personKeyring, userId, state),
          isFavorite: false,
          createdAt: now,
        } satisfies Omit<QuoteRecord, keyof WithOutbox> & { _id: string };
        try {
          await insertWithEvents(quotes, quote, [
            quoteGeneratedEvent(quote, assessment.ratings, mood, context.correlationId),
          ]);
        } catch (error) {
          // A check-in without its quote would answer its key with nothing: gone, a retry stores both.
          await checkIns.deleteOne({ _id: checkInId }).catch(() => undefined);
          throw error;
        }
        deps.publishSoon();
        await recordProgress(progress, userId, { id: checkInId, mood, day: dayNumber(now, timeZone) });
        return {
          quote: toQuote(quote, state),
          supportResources: written.crisis ? supportResourcesFor(country) : null,
        };
      },

      deleteEntry: async (_parent, { quoteId }, context) => {
        const { userId } = await requireSession(context);
        if (!isHavenId(quoteId)) throw badInput('quoteId', 'quoteId is not the id of an entry');
        const entry = await quotes
          .findOne({ _id: quoteId, userId }, { checkInId: 1, createdAt: 1, emotionalState: 1 })
          .lean<Pick<QuoteRecord, '_id' | 'userId' | 'checkInId' | 'createdAt' | 'emotionalState'>>();
        // Someone else's entry is as unknown as one that never existed.
        if (!entry) throw notFound('Entry not found');
        const mood = moodOf(await emotionalStateOfQuote(personKeyring, { ...entry, userId }));
        // The check-in (with the notes) goes first: should the rest fail, deleting again finishes the work.
        await checkIns.deleteOne({ _id: entry.checkInId, userId });
        // The quote leaves every read at once, its words and ratings with it; it is gone for good once its events,
        // this deletion's included, are published. Of two deletions at once, one wins.
        const deleted = await deleteKeepingEvents(
          quotes,
          quoteId,
          entryDeletedEvent({ ...entry, userId }, mood, context.correlationId),
          // Not a favourite any more either: the favourites' count reads the index alone (model/stats.ts).
          ['text', 'emotionalState', 'messageId', 'timeOfDay', 'isFavorite'],
        );
        if (!deleted) throw notFound('Entry not found');
        deps.publishSoon();
        const timeZone = await timeZoneOf(deps.timeZones, userId);
        const day = dayNumber(entry.createdAt, timeZone);
        // A local day lies within a day either side of the instant.
        const around = await quotes
          .find(
            {
              userId,
              createdAt: {
                $gte: new Date(entry.createdAt.getTime() - dayMs),
                $lt: new Date(entry.createdAt.getTime() + dayMs),
              },
            },
            { createdAt: 1 },
          )
          .lean<Array<{ createdAt: Date }>>();
        const dayKeepsOthers = around.some((other) => dayNumber(other.createdAt, timeZone) === day);
        await forgetProgress(progress, userId, { id: entry.checkInId, mood, day, dayKeepsOthers });
        return { quoteId };
      },

      editEntry: async (_parent, { quoteId, input }, context) => {
        const { userId } = await requireSession(context);
        if (!isHavenId(quoteId)) throw badInput('quoteId', 'quoteId is not the id of an entry');
        const entry = await quotes.findOne({ _id: quoteId, userId }, quoteFields).lean<QuoteRecord>();
        const checkIn = entry && (await checkIns.findOne({ _id: entry.checkInId, userId }).lean<CheckInRecord>());
        // Someone else's entry is as unknown as one that never existed; one being deleted is gone.
        if (!entry || !checkIn) throw notFound('Entry not found');
        const { country: countryGiven, ...changes } = input;
        const edited = validateEntryEdit(
          {
            ratings: await ratingsOfCheckIn(personKeyring, checkIn),
            timeOfDay: checkIn.timeOfDay,
            notes: await personKeyring.open(userId, checkIn.notes),
          },
          changes,
        );
        const countryIssue = countryProblem(countryGiven);
        if (!edited.ok || countryIssue) {
          rejectInput([...problemsOf(edited), ...(countryIssue ? [{ field: 'country', message: countryIssue }] : [])]);
        }
        const now = new Date();
        if (!isEditable(entry.createdAt, now)) {
          throw badInput(
            'quoteId',
            `An entry can be changed for ${entryEditableDays} days after it is made; this one is older`,
          );
        }
        const timeZone = await timeZoneOf(deps.timeZones, userId);
        const country = countryGiven?.trim().toUpperCase() || countryOfTimeZone(timeZone);
        // Notes given while the person keeps none are read for crisis signals, then not kept.
        const { keepNotes } = await privacySettingsOf(deps.privacySettings, userId);
        const notesDropped = changes.notes !== undefined && !keepNotes;
        const ratings = edited.value.ratings;
        // The message answered what the person shared then, and stays; crisis signals now get the crisis reply.
        const crisis = showsCrisis({ ratings, notes: edited.value.notes });
        const reply = crisis ? compose({ ...edited.value, country, recentMessageIds: [] }) : null;
        const emotionalState = await sealEmotionalState(personKeyring, userId, ratings);
        const previousMood = moodOf(await emotionalStateOfQuote(personKeyring, entry));
        const mood = moodOf(ratings);
        // Compare-and-set on the entry's version: of two edits at once one lands, and the mood it replaced is exact.
        const landed = await appendEvents(
          quotes,
          { _id: quoteId, userId, outboxVersion: entry.outboxVersion },
          [
            entryEditedEvent(
              { ...entry, timeOfDay: edited.value.timeOfDay },
              ratings,
              { previous: previousMood, now: mood },
              context.correlationId,
            ),
          ],
          {
            $set: {
              emotionalState,
              timeOfDay: edited.value.timeOfDay,
              editedAt: now,
              ...(reply ? { text: await personKeyring.seal(userId, reply.text), messageId: reply.messageId } : {}),
            },
          },
        );
        if (!landed) throw conflict('This entry changed a moment ago. Please look again and try once more.');
        deps.publishSoon();
        await reviseProgress(progress, userId, { previousMood, mood });
        // An entry stored before the ratings were sealed has them sealed now, its clear fields gone.
        const sealedRatings = await checkInRatingsUpdate(personKeyring, userId, ratings);
        await checkIns.updateOne(
          { _id: checkIn._id, userId },
          {
            $set: {
              ...sealedRatings.$set,
              timeOfDay: edited.value.timeOfDay,
              notes: notesDropped || !edited.value.notes ? null : await personKeyring.seal(userId, edited.value.notes),
            },
            $unset: sealedRatings.$unset,
          },
        );
        const updated = await quotes.findOne({ _id: quoteId, userId }, quoteFields).lean<QuoteRecord>();
        if (!updated) throw notFound('Entry not found');
        return {
          quote: toQuote(updated, await emotionalStateOfQuote(personKeyring, updated)),
          supportResources: crisis ? supportResourcesFor(country) : null,
        };
      },

      setQuoteFavorite: async (_parent, { id, isFavorite }, context) => {
        const { userId } = await requireEntitlement(context);
        if (!isHavenId(id)) throw badInput('id', 'id is not a quote id');
        const updated = await quotes
          .findOneAndUpdate({ _id: id, userId }, { $set: { isFavorite } }, { new: true, projection: quoteFields })
          .lean<QuoteRecord>();
        // Someone else's quote is as unknown as one that never existed.
        if (!updated) throw notFound('Quote not found');
        return toQuote(updated, await emotionalStateOfQuote(personKeyring, updated));
      },
    },
  };
}
