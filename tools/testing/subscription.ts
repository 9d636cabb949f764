/**
 * Test helper: makes the signed-in user of `client` a trialing subscriber, so premium operations answer.
 *
 * TEMPORARY (issue 10): writes the trialing subscription straight into billing's collection through its
 * own model, for the test Haven named by `useHavenForTrials`. Issue 9 replaces this with the real flow
 * (setup intent and stripe-mock) behind the same name and signature: `startTrial(client)`.
 */
import mongoose from 'mongoose';
import { subscriptionModel } from '../../services/billing/src/model/subscription';
import type { TestHaven } from './haven';
import type { ApiClient } from './http';
import { testInfra } from './test-env';

/** Where billing's database is: a test Haven, or the apps of a browser test (`haven_billing`). */
type TrialTarget = Pick<TestHaven, 'dbName'>;

let current: TrialTarget | null = null;

/** Which Haven `startTrial` writes into (call once after starting it). */
export function useHavenForTrials(haven: TrialTarget): void {
  current = haven;
}

export async function startTrial(client: ApiClient): Promise<void> {
  if (!current) throw new Error('startTrial: call useHavenForTrials(haven) first');
  const me = await client.get<{ id: string }>('/api/user');
  if (me.status !== 200) throw new Error(`startTrial: not signed in (${me.status})`);
  const connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: current.dbName('billing') })
    .asPromise();
  try {
    const subscriptions = subscriptionModel(connection);
    const now = Date.now();
    await subscriptions.updateOne(
      { _id: me.body.id },
      { $set: { status: 'trialing', trialEnd: new Date(now + 3 * 24 * 60 * 60 * 1000), cancelAtPeriodEnd: false } },
      { upsert: true },
    );
  } finally {
    await connection.close();
  }
}
