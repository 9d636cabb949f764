/**
 * Subscriber documents as the service stores them, for tests that write a list straight into its database
 * (the list as a send finds it). Not a test file itself.
 */
import { randomUUID } from 'node:crypto';

export type SeededStatus = 'active' | 'pending' | 'unsubscribed';

export function subscriberDocument(
  email: string,
  status: SeededStatus,
  options: { id?: string; at?: Date } = {},
): Record<string, unknown> {
  const at = options.at ?? new Date();
  return {
    _id: options.id ?? randomUUID(),
    email,
    status,
    userId: null,
    source: 'test',
    confirmTokenHash: null,
    confirmExpiresAt: null,
    createdAt: at,
    confirmedAt: status === 'active' ? at : null,
    unsubscribedAt: status === 'unsubscribed' ? at : null,
    outbox: [],
    outboxVersion: 0,
  };
}
