/**
 * The admin's user management reads: the list (search, status filter, paging) and the four counts. Admin
 * only (`requireAdmin`, FORBIDDEN for anyone else, UNAUTHENTICATED when signed out); the billing columns come
 * from the copy of billing's events kept on each user (`subscriptionStatus`, `trialEndsAt`; main.ts), never
 * from billing's database. docs/decisions/admin/admin-user-list.md.
 */
import { badInput, requireAdmin, serviceUnavailable, type SubscriptionFacts } from '@haven/platform';
import type { Model } from 'mongoose';
import {
  adminUserFilter,
  isWholeList,
  noSubscription,
  parseAdminUserQuery,
  subscriptionStatusOfFilter,
  totalGivenByPage,
} from '../domain/admin-users';
import type { UserRecord } from '../model/user';
import type { AdminUser, Resolvers } from './types.generated';

/**
 * A search is a pass over the users (an infix, case-insensitive match cannot use an index). It is bounded:
 * at most 100 characters and 5 literal words (escaped, so no pattern can backtrack), one pass for the page and
 * one for the count (none when the page is the last one), and MongoDB stops the two after this long in all (the
 * embedded development server ignores the limit; its pass is bounded by the collection's size).
 */
export const adminQueryTimeLimitMs = 5_000;

/** MongoDB's MaxTimeMSExpired: the search was stopped at its limit. */
const timeLimitExceeded = 50;

async function withinTimeLimit<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (error) {
    if ((error as { code?: unknown }).code === timeLimitExceeded) {
      throw serviceUnavailable('That search took too long. Please try a longer or more specific search.');
    }
    throw error;
  }
}

const rowFields = {
  email: 1,
  firstName: 1,
  lastName: 1,
  authProvider: 1,
  emailVerifiedAt: 1,
  subscriptionStatus: 1,
  createdAt: 1,
  trialEndsAt: 1,
} as const;

type RowRecord = Pick<UserRecord, '_id' | keyof typeof rowFields>;

function rowOf(user: RowRecord): AdminUser {
  return {
    id: user._id,
    email: user.email,
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    authProvider: user.authProvider,
    emailVerifiedAt: user.emailVerifiedAt ? user.emailVerifiedAt.toISOString() : null,
    subscriptionStatus: user.subscriptionStatus ?? noSubscription,
    createdAt: user.createdAt.toISOString(),
    trialEndsAt: user.trialEndsAt ? user.trialEndsAt.toISOString() : null,
  };
}

export function adminUserResolvers(users: Model<UserRecord>): Pick<Resolvers, 'Query'> {
  return {
    Query: {
      adminUsers: async (_parent, { input }, context) => {
        await requireAdmin(context);
        const parsed = parseAdminUserQuery(input ?? {});
        if (!parsed.ok) {
          const [first] = parsed.problems as [(typeof parsed.problems)[number]];
          throw badInput(first.field, first.message, parsed.problems);
        }
        const { page, pageSize } = parsed.value;
        const filter = adminUserFilter(parsed.value);
        const started = Date.now();
        const pageQuery = users
          .find(filter, rowFields)
          .sort({ createdAt: -1, _id: -1 })
          .skip((page - 1) * pageSize)
          .limit(pageSize)
          .maxTimeMS(adminQueryTimeLimitMs)
          .lean<RowRecord[]>();
        if (isWholeList(parsed.value)) {
          const [rows, total] = await withinTimeLimit(Promise.all([pageQuery, users.estimatedDocumentCount()]));
          return { users: rows.map(rowOf), total, page, pageSize };
        }
        // The page first: a last page gives the total, and a search that fits one page (finding one person)
        // then costs one pass over the users instead of two. The count gets what is left of the time limit.
        const rows = await withinTimeLimit(pageQuery.exec());
        const total =
          totalGivenByPage(page, pageSize, rows.length) ??
          (await withinTimeLimit(
            users
              .countDocuments(filter)
              .maxTimeMS(Math.max(1, adminQueryTimeLimitMs - (Date.now() - started)))
              .exec(),
          ));
        return { users: rows.map(rowOf), total, page, pageSize };
      },

      adminUserStats: async (_parent, _args, context) => {
        await requireAdmin(context);
        const [totalUsers, verifiedUsers, activeSubscriptions, trialUsers] = await Promise.all([
          users.estimatedDocumentCount(),
          users.countDocuments({ emailVerifiedAt: { $ne: null } }),
          users.countDocuments({ subscriptionStatus: subscriptionStatusOfFilter.active }),
          users.countDocuments({ subscriptionStatus: subscriptionStatusOfFilter.trial }),
        ]);
        return { totalUsers, verifiedUsers, activeSubscriptions, trialUsers };
      },
    },
  };
}

/**
 * Keeps billing's status and trial end on the user (the admin list's columns and filters), from every
 * billing event the entitlement projection consumes. Newest wins: a repeated or late event finds a revision
 * at least as new and changes nothing; an event for an account that is gone changes nothing either.
 */
export function keepSubscriptionOnUser(users: Model<UserRecord>) {
  return async (facts: SubscriptionFacts): Promise<void> => {
    await users.updateOne(
      {
        _id: facts.userId,
        $or: [{ subscriptionRevision: null }, { subscriptionRevision: { $lt: facts.revision } }],
      },
      {
        $set: {
          subscriptionStatus: facts.status,
          trialEndsAt: facts.trialEnd,
          subscriptionRevision: facts.revision,
        },
      },
      // The account itself did not change: its updatedAt stays the user's own.
      { timestamps: false },
    );
  };
}
