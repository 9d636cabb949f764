/**
 * Cookie consent: the caller's choice (account or browser), saving it, the account's own (`User.cookieConsent`)
 * and compliance's part of the data export (`User.complianceExport`: the file's `consents`). A visitor's choice
 * moves to the account the first time the signed-in browser asks about consent (the banner asks on every page
 * load): the newer of the two wins, the visitor record is removed and the gateway clears the visitor cookie.
 * docs/decisions/privacy-and-erasure/cookie-consent.md.
 */
import {
  badInput,
  byIds,
  dataExportPart,
  isDuplicateKeyError,
  isVisitorId,
  mayReadUser,
  requestLoader,
  type RequestContext,
} from '@haven/platform';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { choiceProblem, newerChoice, type CookieChoice } from '../domain/consent';
import type { ConsentRecord } from '../model/consent';
import type { CookieConsent, Resolvers } from './types.generated';

export interface ConsentDeps {
  userConsents: Model<ConsentRecord>;
  visitorConsents: Model<ConsentRecord>;
  /** COOKIE_POLICY_VERSION: a choice made under another version no longer counts for the banner. */
  policyVersion: string;
}

function viewOf(record: ConsentRecord): CookieConsent {
  return {
    necessary: record.necessary,
    analytics: record.analytics,
    marketing: record.marketing,
    preferences: record.preferences,
    consentGivenAt: record.consentGivenAt.toISOString(),
    policyVersion: record.policyVersion,
  };
}

const choiceFields = (record: ConsentRecord) => ({
  necessary: record.necessary,
  analytics: record.analytics,
  marketing: record.marketing,
  preferences: record.preferences,
  consentGivenAt: record.consentGivenAt,
  policyVersion: record.policyVersion,
  updatedAt: new Date(),
});

export function consentResolvers(deps: ConsentDeps): Pick<Resolvers, 'Query' | 'Mutation' | 'User'> {
  const { userConsents, visitorConsents } = deps;

  /**
   * Writes `record` as the account's choice unless the account has a newer (or the same) one by now: the rule
   * was decided on what was read; the condition keeps it true against a save racing this one.
   */
  async function keepNewer(userId: string, record: ConsentRecord): Promise<void> {
    const fields = choiceFields(record);
    const updated = await userConsents.updateOne(
      { _id: userId, consentGivenAt: { $lt: record.consentGivenAt } },
      { $set: fields },
    );
    if (updated.matchedCount > 0) return;
    try {
      await userConsents.create({ _id: userId, ...fields });
    } catch (error) {
      // The account's own choice is at least as new: it stays.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /**
   * A signed-in browser that still carries a visitor cookie: the visitor's choice joins the account (newest
   * wins, domain/consent.ts `newerChoice`), then the visitor record and cookie go. Safe to repeat after a crash.
   */
  async function adoptVisitorChoice(context: RequestContext, userId: string): Promise<void> {
    const visitorId = context.visitorId;
    if (!visitorId) return;
    if (isVisitorId(visitorId)) {
      const visitor = await visitorConsents.findById(visitorId).lean<ConsentRecord>();
      if (visitor) {
        const account = await userConsents.findById(userId).lean<ConsentRecord>();
        if (newerChoice(account, visitor) === visitor) await keepNewer(userId, visitor);
        await visitorConsents.deleteOne({ _id: visitorId });
        context.log.info({ userId }, "a visitor's cookie choice moved to the account");
      }
    }
    context.setVisitorCookie(null);
  }

  async function callerChoice(context: RequestContext): Promise<ConsentRecord | null> {
    if (context.session) {
      await adoptVisitorChoice(context, context.session.userId);
      return userConsents.findById(context.session.userId).lean<ConsentRecord>();
    }
    if (!isVisitorId(context.visitorId)) return null;
    return visitorConsents.findById(context.visitorId).lean<ConsentRecord>();
  }

  /** The account's stored choice, whatever policy it answered (the caller's own adopts this browser's first). */
  async function accountChoice(context: RequestContext, userId: string): Promise<CookieConsent | null> {
    if (context.session?.userId === userId) await adoptVisitorChoice(context, userId);
    const record = await requestLoader(context, 'cookieConsents', (ids) =>
      byIds((filter) => userConsents.find(filter).lean<ConsentRecord[]>(), ids),
    ).load(userId);
    return record ? viewOf(record) : null;
  }

  return {
    Query: {
      cookieConsent: async (_parent, _args, context) => {
        const record = await callerChoice(context);
        return record && record.policyVersion === deps.policyVersion ? viewOf(record) : null;
      },
    },
    Mutation: {
      saveCookieConsent: async (_parent, { input }, context) => {
        const choice: CookieChoice = input;
        const problem = choiceProblem(choice);
        if (problem) throw badInput(problem.field, problem.message);
        const now = new Date();
        const record: ConsentRecord = {
          _id: '',
          necessary: true,
          analytics: choice.analytics,
          marketing: choice.marketing,
          preferences: choice.preferences,
          consentGivenAt: now,
          policyVersion: deps.policyVersion,
          updatedAt: now,
        };
        if (context.session) {
          const userId = context.session.userId;
          // This choice is the newest: any visitor choice in this browser is replaced by it, not adopted.
          if (isVisitorId(context.visitorId)) await visitorConsents.deleteOne({ _id: context.visitorId });
          if (context.visitorId) context.setVisitorCookie(null);
          await userConsents.updateOne({ _id: userId }, { $set: choiceFields(record) }, { upsert: true });
          return viewOf(record);
        }
        const visitorId = isVisitorId(context.visitorId) ? context.visitorId : randomUUID();
        await visitorConsents.updateOne({ _id: visitorId }, { $set: choiceFields(record) }, { upsert: true });
        // Set on every save, so the cookie's year counts from the latest choice.
        context.setVisitorCookie(visitorId);
        return viewOf(record);
      },
    },
    User: {
      // A user's cookie choice is the owner's or an admin's to read.
      __resolveReference: async (reference, context) =>
        (await mayReadUser(context, reference.id)) ? { id: reference.id } : null,
      cookieConsent: async ({ id }, _args, context) => accountChoice(context, id),
      complianceExport: async ({ id }, _args, context) =>
        dataExportPart({ consents: { cookies: await accountChoice(context, id) } }),
    },
  };
}
