/**
 * The account-deletion saga (docs/decisions/privacy-and-erasure/erasure-saga.md):
 * 1. the request is recorded (state `opening`, with the user id);
 * 2. while the caller waits: billing cancels the provider's subscription and deletes its customer, then the
 *    user service closes the account (every session ends, the address signs nobody in);
 * 3. `account.deletion_requested` goes out (state `pending`); every service erases its own data and
 *    answers `<service>.user_data_purged`; each answer is recorded here;
 * 4. when all five answered: `completed`, the clear user id removed, `account.deletion_completed` out.
 * A sweep sends on a request interrupted in step 2 and asks again the services that have not answered.
 */
import {
  askSubgraph,
  runPeriodically,
  type CallerSecrets,
  type ConsumerSpec,
  type ErasureRuntime,
  type Logger,
} from '@haven/platform';
import { producerServices, timestampFromDate, topicOf, userDataPurgedType, type ProducerService } from '@haven/proto';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { isFullyPurged, retryStep, type RetryTimings } from '../domain/deletion';
import type { AccountDeletionRecord } from '../model/account-deletion';
import { ClosePaymentsForErasureDocument } from '../operations/billing.generated';
import { CloseAccountForErasureDocument, ExistingAccountsDocument } from '../operations/user.generated';

export interface PaymentClosure {
  cancelled: boolean;
  provider: string | null;
}

export interface SagaSettings extends RetryTimings {
  userServiceUrl: string;
  billingServiceUrl: string;
  /** Compliance's secrets: its service credential opens billing's and the user service's erasure steps. */
  credentials: CallerSecrets;
  /** How often the sweep looks for interrupted and unanswered requests. */
  sweepIntervalMs: number;
}

export interface StartedDeletion {
  requestId: string;
  payment: PaymentClosure;
}

export interface DeletionSaga {
  /** Steps 1–3 for one account, on behalf of the caller (the owner, or an admin). */
  start(input: {
    userId: string;
    requestedBy: 'self' | 'admin';
    sessionToken: string;
    correlationId: string;
    log: Logger;
  }): Promise<StartedDeletion>;
  /** Which of these accounts exist (an admin's delete of an unknown id is a 404): one question to the user service. */
  existingAccounts(userIds: readonly string[], sessionToken: string, correlationId: string): Promise<Set<string>>;
  /** The services' answers (group `compliance-saga`). */
  consumer: ConsumerSpec;
  /** One pass of the sweep: what it sent on and what it could not (it is tried again the next pass). */
  sweepOnce(): Promise<DeletionSweepPass>;
  stop(): Promise<void>;
}

/** What one pass of the deletion sweep did. */
export interface DeletionSweepPass {
  /** Requests sent on (interrupted ones) or asked again (of the services that have not answered). */
  sentOn: number;
  /** Requests the pass could not handle (a record it cannot read, a failed write): logged by id, skipped. */
  failed: number;
  /** Their request ids, for an operator to look up. */
  failedIds: string[];
}

/** How many failed request ids the pass's log line names (the count is always whole). */
const loggedIdsMax = 50;

export function deletionSaga(deps: {
  deletions: Model<AccountDeletionRecord>;
  erasure: ErasureRuntime;
  settings: SagaSettings;
  log: Logger;
}): DeletionSaga {
  const { deletions, erasure, settings } = deps;
  const target = (url: string, sessionToken: string, correlationId: string) => ({
    url,
    credentials: settings.credentials,
    sessionToken,
    correlationId,
    timeoutMs: 8_000,
  });

  /** Sends `account.deletion_requested` (to every service, or to the ones named); false when another sweep did. */
  async function send(
    record: AccountDeletionRecord,
    services: ProducerService[],
    correlationId: string,
  ): Promise<boolean> {
    if (!record.userId) return false;
    const now = new Date();
    // Compare-and-set on what was read: of two replicas, one sends.
    const claimed = await deletions.updateOne(
      { _id: record._id, state: record.state, requests: record.requests },
      { $set: { state: 'pending', lastRequestedAt: now }, $inc: { requests: 1 } },
    );
    if (claimed.modifiedCount !== 1) return false;
    await erasure.publish({
      type: 'account.deletion_requested',
      producer: 'compliance',
      subjectId: record.userId,
      correlationId,
      payload: {
        requestId: record._id,
        userId: record.userId,
        services,
        requestedAt: timestampFromDate(record.createdAt),
      },
    });
    return true;
  }

  const confirm =
    (service: ProducerService) =>
    async (event: { requestId: string }, context: { correlationId: string; log: Logger }) => {
      const now = new Date();
      const updated = await deletions
        .findOneAndUpdate(
          { _id: event.requestId },
          { $set: { [`purgedAt.${service}`]: now } },
          { returnDocument: 'after' },
        )
        .lean<AccountDeletionRecord>();
      // Another deployment's request (a shared broker), or one long completed: nothing to record.
      if (!updated || updated.state !== 'pending' || !isFullyPurged(updated)) return;
      const completed = await deletions.updateOne(
        { _id: updated._id, state: 'pending' },
        { $set: { state: 'completed', completedAt: now, userId: null } },
      );
      if (completed.modifiedCount !== 1) return;
      await erasure.publish({
        type: 'account.deletion_completed',
        producer: 'compliance',
        subjectId: updated._id,
        correlationId: context.correlationId,
        payload: { requestId: updated._id, completedAt: timestampFromDate(now) },
      });
      context.log.info({ requestId: updated._id }, 'account deletion completed: every service erased its data');
    };

  const sweepOnce = async (): Promise<DeletionSweepPass> => {
    const now = new Date();
    const open = await deletions
      .find({ state: { $in: ['opening', 'pending'] } })
      .limit(500)
      .lean<AccountDeletionRecord[]>();
    let sentOn = 0;
    const failedIds: string[] = [];
    for (const record of open) {
      // One record that cannot be handled (left malformed by a bug or an older version) never stops the others.
      try {
        const step = retryStep(record, now, settings);
        if (!step) continue;
        const services = step.kind === 'send' ? [] : step.services;
        if (await send(record, services, `deletion-sweep-${record._id}`)) {
          sentOn += 1;
          deps.log.warn({ requestId: record._id, step: step.kind, services }, 'account deletion sent on by the sweep');
        }
      } catch (error) {
        failedIds.push(record._id);
        deps.log.error({ err: error, requestId: record._id }, 'account deletion sweep could not handle a request');
      }
    }
    if (failedIds.length > 0) {
      deps.log.warn(
        { sentOn, failed: failedIds.length, failedIds: failedIds.slice(0, loggedIdsMax) },
        'account deletion sweep skipped requests it could not handle',
      );
    }
    return { sentOn, failed: failedIds.length, failedIds };
  };

  const sweeps = runPeriodically(sweepOnce, {
    intervalMs: settings.sweepIntervalMs,
    log: deps.log,
    what: 'account deletion sweep',
    lease: { db: deletions.db, name: 'account-deletion-sweep' },
  });

  return {
    existingAccounts: async (userIds, sessionToken, correlationId) => {
      // The entity lookup answers null for an id without an account (and for anyone the caller may not read).
      const data = await askSubgraph(
        target(settings.userServiceUrl, sessionToken, correlationId),
        ExistingAccountsDocument,
        { r: userIds.map((id) => ({ __typename: 'User', id })) },
        'user service',
      );
      return new Set(data._entities.flatMap((entity) => (entity ? [entity.id] : [])));
    },

    start: async ({ userId, requestedBy, sessionToken, correlationId, log }) => {
      const requestId = randomUUID();
      const record: AccountDeletionRecord = {
        _id: requestId,
        userId,
        subjectKey: erasure.guard.keyOf(userId),
        requestedBy,
        state: 'opening',
        purgedAt: {},
        requests: 0,
        lastRequestedAt: null,
        createdAt: new Date(),
        completedAt: null,
      };
      await deletions.create(record);
      let payment: PaymentClosure;
      try {
        const data = await askSubgraph(
          target(settings.billingServiceUrl, sessionToken, correlationId),
          ClosePaymentsForErasureDocument,
          { id: userId },
          'billing service',
        );
        payment = data.closePaymentsForErasure;
      } catch (error) {
        // Nothing else happened yet: the deletion did not start, and the caller may try again.
        await deletions.deleteOne({ _id: requestId, state: 'opening' });
        throw error;
      }
      try {
        await askSubgraph(
          target(settings.userServiceUrl, sessionToken, correlationId),
          CloseAccountForErasureDocument,
          { id: userId },
          'user service',
        );
      } catch (error) {
        // The payments are closed and the request is recorded: the saga erases the account all the same.
        log.error({ err: error, requestId }, 'the user service did not close the account; the saga will erase it');
      }
      await send(record, [], correlationId);
      log.info({ requestId, requestedBy, cancelled: payment.cancelled }, 'account deletion started');
      return { requestId, payment };
    },

    consumer: {
      groupId: 'compliance-saga',
      topics: producerServices.map((service) => topicOf(service)),
      handlers: Object.fromEntries(producerServices.map((service) => [userDataPurgedType(service), confirm(service)])),
    },

    sweepOnce: sweeps.runOnce,
    stop: sweeps.stop,
  };
}
