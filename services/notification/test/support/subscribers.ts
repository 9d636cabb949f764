/**
 * Subscriber documents as the service stores them, for tests that write a list straight into its database
 * (the list as a send finds it). Not a test file itself.
 */
import { randomUUID } from 'node:crypto';
import { eventually } from '../../../../tools/testing/eventually';
import type { TestHaven } from '../../../../tools/testing/haven';
import { ApiClient } from '../../../../tools/testing/http';

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

/** `count` subscribers of one status, written straight into the notification service's database; their addresses. */
export async function seedSubscribers(
  haven: TestHaven,
  count: number,
  status: SeededStatus,
  run: string,
): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, index) => `${status}-${index}-${run}@example.com`);
  const collection = await haven.collection('notification', 'newsletter_subscribers');
  await collection.insertMany(emails.map((email) => subscriberDocument(email, status) as never));
  return emails;
}

/** The admin (the Haven's ADMIN_EMAIL), registered, verified in the database and signed in afresh. */
export async function signedInAdmin(haven: TestHaven, adminEmail: string): Promise<ApiClient> {
  const admin = new ApiClient(haven.gatewayUrl);
  const password = 'correct horse battery';
  const registered = await admin.post('/api/auth/register', { email: adminEmail, password });
  if (registered.status !== 201) throw new Error(`registering the admin answered ${registered.status}`);
  // Its verification e-mail went to the test's SMTP server; the address is marked verified directly.
  await (
    await haven.collection('user', 'users')
  ).updateOne({ email: adminEmail }, { $set: { emailVerifiedAt: new Date() } });
  // Only a session opened after verification is an admin's.
  const signedIn = await admin.post('/api/auth/login', { email: adminEmail, password });
  if (signedIn.status !== 200) throw new Error(`signing the admin in answered ${signedIn.status}`);
  return admin;
}

/** Waits until the send's `count` copies are in the delivery log as sent, none still under way or to try again. */
export async function deliveryLogSettled(haven: TestHaven, count: number): Promise<void> {
  const deliveries = await haven.collection('notification', 'deliveries');
  await eventually('the delivery log settled', async () => {
    const [sentCount, inFlight] = await Promise.all([
      deliveries.countDocuments({ kind: 'newsletter', status: 'sent' }),
      deliveries.countDocuments({ kind: 'newsletter', status: { $in: ['sending', 'retryable'] } }),
    ]);
    return sentCount === count && inFlight === 0;
  });
}
