/**
 * Account deletion: the user's own (`deleteAccount`, DELETE /api/user/delete-account), the admin's
 * (`adminDeleteUser`, `adminBulkDeleteUsers`; /api/admin/users), and a deletion's progress
 * (`accountDeletion`). Each deletion is the same saga (events/deletion-saga.ts). Never premium.
 */
import { badInput, isHavenId, notFound, requireAdmin, requireRecentSignIn, type RequestContext } from '@haven/platform';
import { GraphQLError } from 'graphql';
import type { Model } from 'mongoose';
import {
  checkUserId,
  checkUserIds,
  deletionMessages,
  erasingServices,
  paymentCleanupMessage,
} from '../domain/deletion';
import type { DeletionSaga } from '../events/deletion-saga';
import type { AccountDeletionRecord } from '../model/account-deletion';
import type { Resolvers } from './types.generated';

/** How many deletions of one bulk request run at once. */
const bulkConcurrency = 4;

/** Runs `work` over the items, `size` at a time, keeping their order in the answer. */
async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map(work))));
  }
  return results;
}

function progressOf(record: AccountDeletionRecord) {
  return {
    requestId: record._id,
    // "opening" is the moment before the request goes out: still pending to whoever asks.
    status: record.state === 'completed' ? 'completed' : 'pending',
    requestedAt: record.createdAt.toISOString(),
    completedAt: record.completedAt?.toISOString() ?? null,
    services: erasingServices.map((service) => ({
      service,
      erased: Boolean(record.purgedAt?.[service]),
      erasedAt: record.purgedAt?.[service]?.toISOString() ?? null,
    })),
  };
}

export function deletionResolvers(deps: {
  saga: DeletionSaga;
  deletions: Model<AccountDeletionRecord>;
  /** How recent the sign-in behind a deletion must be (REAUTH_MAX_AGE_MS). */
  reauthMaxAgeMs: number;
}): Pick<Resolvers, 'Query' | 'Mutation'> {
  const { saga } = deps;
  /** Deleting erases for good: the one asking signed in a moment ago, not with a cookie left on a screen. */
  const recentSignIn = (context: RequestContext) => requireRecentSignIn(context, deps.reauthMaxAgeMs);

  const startFor = (userId: string, requestedBy: 'self' | 'admin', context: RequestContext) =>
    saga.start({
      userId,
      requestedBy,
      sessionToken: context.sessionToken ?? '',
      correlationId: context.correlationId,
      log: context.log,
    });

  /** The admin's delete of one account that exists; its sessions end everywhere at once. */
  async function adminDelete(userId: string, context: RequestContext) {
    const started = await startFor(userId, 'admin', context);
    context.endSessionsOf([userId]);
    return started;
  }

  return {
    Query: {
      // The id is the capability: it comes only with the answer to a deletion, and the progress names nobody.
      accountDeletion: async (_parent, { requestId }) => {
        if (!isHavenId(requestId)) throw badInput('requestId', 'requestId must be a deletion request id');
        const record = await deps.deletions.findById(requestId).lean<AccountDeletionRecord>();
        return record ? progressOf(record) : null;
      },
      pendingAccountDeletions: async (_parent, _args, context) => {
        await requireAdmin(context);
        const open = await deps.deletions
          .find({ state: { $in: ['opening', 'pending'] } })
          .sort({ createdAt: 1 })
          .limit(200)
          .lean<AccountDeletionRecord[]>();
        return open.map(progressOf);
      },
    },

    Mutation: {
      deleteAccount: async (_parent, _args, context) => {
        const session = recentSignIn(context);
        const started = await startFor(session.userId, 'self', context);
        // This browser's cookie goes, and every other session of the account is refused at once.
        context.setSessionToken(null);
        context.endSessionsOf([session.userId]);
        return { message: deletionMessages.selfDeleted, requestId: started.requestId, status: 'pending' };
      },

      adminDeleteUser: async (_parent, { id }, context) => {
        const admin = await requireAdmin(context);
        recentSignIn(context);
        const checked = checkUserId(id, admin.userId);
        if (!checked.ok) throw badInput(checked.field, checked.message);
        const existing = await saga.existingAccounts(
          [checked.value],
          context.sessionToken ?? '',
          context.correlationId,
        );
        if (!existing.has(checked.value)) throw notFound(deletionMessages.notFound);
        const started = await adminDelete(checked.value, context);
        return {
          stripeCleanup: started.payment.cancelled,
          message: paymentCleanupMessage(started.payment.cancelled),
          requestId: started.requestId,
        };
      },

      adminBulkDeleteUsers: async (_parent, { userIds }, context) => {
        const admin = await requireAdmin(context);
        recentSignIn(context);
        const checked = checkUserIds(userIds, admin.userId);
        if (!checked.ok) throw badInput(checked.field, checked.message);
        const existing = await saga.existingAccounts(checked.value, context.sessionToken ?? '', context.correlationId);
        // A few at a time (each is a whole saga start), so a long list answers within the gateway's time; a
        // failure stops nobody else's deletion.
        const results = await inBatches(checked.value, bulkConcurrency, async (userId) => {
          if (!existing.has(userId)) {
            return {
              userId,
              outcome: 'not_found',
              message: deletionMessages.notFound,
              requestId: null,
              cancelled: false,
            };
          }
          try {
            const started = await adminDelete(userId, context);
            return {
              userId,
              outcome: 'deleted',
              message: paymentCleanupMessage(started.payment.cancelled),
              requestId: started.requestId,
              cancelled: started.payment.cancelled,
            };
          } catch (error) {
            context.log.error({ err: error, userId }, 'bulk delete: one account failed');
            const message = error instanceof GraphQLError ? error.message : deletionMessages.failed;
            return { userId, outcome: 'failed', message, requestId: null, cancelled: false };
          }
        });
        const deleted = results.filter((result) => result.outcome === 'deleted').length;
        const stripeCleanup = results.filter((result) => result.cancelled).length;
        return { deleted, stripeCleanup, results };
      },
    },
  };
}
