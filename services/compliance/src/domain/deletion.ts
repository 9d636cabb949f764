/**
 * Pure rules of the account-deletion saga and of the admin's delete operations (see
 * docs/decisions/privacy-and-erasure/erasure-saga.md). No I/O: the saga's state in, what to do next out.
 */
import { isHavenId } from '@haven/platform';
import { producerServices, type ProducerService } from '@haven/proto';

/** Every service that holds a user's data erases it and confirms; compliance itself too (consents). */
export const erasingServices: readonly ProducerService[] = producerServices;

/**
 * - opening: recorded, the synchronous steps (payments, the account) in progress; the request is not out yet.
 * - pending: `account.deletion_requested` is out; waiting for every service's `<service>.user_data_purged`.
 * - completed: every service confirmed; the clear user id is gone from the record.
 */
export type DeletionState = 'opening' | 'pending' | 'completed';

export interface DeletionProgress {
  state: DeletionState;
  purgedAt: Partial<Record<ProducerService, Date | null>>;
  createdAt: Date;
  lastRequestedAt: Date | null;
}

export function pendingServices(progress: Pick<DeletionProgress, 'purgedAt'>): ProducerService[] {
  return erasingServices.filter((service) => !progress.purgedAt[service]);
}

export function isFullyPurged(progress: Pick<DeletionProgress, 'purgedAt'>): boolean {
  return pendingServices(progress).length === 0;
}

export interface RetryTimings {
  /** A request still opening after this long was interrupted (a crash mid-way): it is sent on. */
  openingGraceMs: number;
  /** A pending request is asked again of the services that have not confirmed after this long. */
  retryAfterMs: number;
}

export type RetryStep = { kind: 'send' } | { kind: 'ask-again'; services: ProducerService[] } | null;

/** What the retry sweep owes one request now. */
export function retryStep(progress: DeletionProgress, now: Date, timings: RetryTimings): RetryStep {
  if (progress.state === 'opening') {
    return now.getTime() - progress.createdAt.getTime() >= timings.openingGraceMs ? { kind: 'send' } : null;
  }
  if (progress.state !== 'pending') return null;
  const services = pendingServices(progress);
  if (services.length === 0) return null;
  const since = progress.lastRequestedAt ?? progress.createdAt;
  return now.getTime() - since.getTime() >= timings.retryAfterMs ? { kind: 'ask-again', services } : null;
}

/** The most accounts one bulk delete may name. */
export const bulkDeleteMax = 100;

export const deletionMessages = {
  selfDeleted: 'Your account is closed, and your data is being erased from every part of Haven.',
  notSelfHere: 'You cannot delete your own account here. Use Delete account in Settings instead.',
  notFound: 'There is no user with this id. They may have been deleted already.',
  badId: 'id must be a user id',
  userIdsList: 'userIds must be a list of user ids',
  userIdsEmpty: 'userIds must name at least one user',
  userIdsTooMany: `userIds can name at most ${bulkDeleteMax} users at once`,
  userIdsStrings: 'userIds must contain only user ids (text)',
  userIdsMalformed: 'userIds must contain only user ids',
  userIdsSelf: 'userIds includes your own account. You cannot delete it here; use Delete account in Settings.',
  subscriptionCancelled: 'Their subscription was cancelled and their payment details removed from the card provider.',
  noSubscription: 'They had no subscription to cancel.',
  failed: 'We could not delete this account just now. Nothing was deleted; please try again.',
} as const;

export type Checked<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/** One id of the admin's single delete: a user id, not the admin's own. */
export function checkUserId(value: unknown, adminId: string): Checked<string> {
  if (!isHavenId(value)) return { ok: false, field: 'id', message: deletionMessages.badId };
  if (value.toLowerCase() === adminId.toLowerCase())
    return { ok: false, field: 'id', message: deletionMessages.notSelfHere };
  return { ok: true, value: value.toLowerCase() };
}

/** The admin's bulk delete: a list of 1–100 user ids (duplicates count once), none the admin's own. */
export function checkUserIds(value: unknown, adminId: string): Checked<string[]> {
  const problem = (message: string): Checked<string[]> => ({ ok: false, field: 'userIds', message });
  if (!Array.isArray(value)) return problem(deletionMessages.userIdsList);
  if (value.length === 0) return problem(deletionMessages.userIdsEmpty);
  if (value.length > bulkDeleteMax) return problem(deletionMessages.userIdsTooMany);
  if (value.some((id) => typeof id !== 'string')) return problem(deletionMessages.userIdsStrings);
  if (!value.every(isHavenId)) return problem(deletionMessages.userIdsMalformed);
  const ids = [...new Set((value as string[]).map((id) => id.toLowerCase()))];
  if (ids.includes(adminId.toLowerCase())) return problem(deletionMessages.userIdsSelf);
  return { ok: true, value: ids };
}

/** What the admin's page shows after "User has been permanently deleted.". */
export function paymentCleanupMessage(cancelled: boolean): string {
  return cancelled ? deletionMessages.subscriptionCancelled : deletionMessages.noSubscription;
}
