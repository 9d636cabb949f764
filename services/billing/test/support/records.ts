/**
 * What billing's tests read back: the status a person is shown, and what billing (and the quote service's copy of
 * the person's access) stored, straight from the test Haven's databases.
 */
import type { TestHaven } from '../../../../tools/testing/haven';
import type { ApiClient } from '../../../../tools/testing/http';

/** What GET /api/subscription-status answers the signed-in person. */
export const subscriptionStatus = async (client: ApiClient) =>
  (await client.get<Record<string, unknown>>('/api/subscription-status')).body;

/** Billing's record of the user's subscription, or null when there is none. */
export const storedSubscription = async (haven: TestHaven, userId: string) =>
  (await haven.collection('billing', 'subscriptions')).findOne({ _id: userId });

/** The changes billing recorded for the user, oldest first (each change's event type). */
export const eventTypes = async (haven: TestHaven, userId: string) =>
  (
    await (await haven.collection('billing', 'subscription_history')).find({ userId }).sort({ revision: 1 }).toArray()
  ).map((entry) => entry.event as string);

/** The quote service's copy of the user's access, which its paid operations decide on. */
export const entitlementCopy = async (haven: TestHaven, userId: string) =>
  (await haven.collection('quote', 'entitlements')).findOne({ _id: userId });
