/**
 * The sweep of Stripe's processed event ids and of subscription starts, driven with a chosen clock (the embedded
 * database ignores TTL indexes, and the period is a month): records just past the period go, those just inside
 * it stay, and a start whose setup is still the customer's latest stays whatever its age, so it is never
 * claimed twice.
 */
import type mongoose from 'mongoose';
import { randomUUID } from 'node:crypto';
import { webhookRecordRetentionMs } from '../src/domain/retention';
import { processedWebhooksCollection, type ProcessedWebhook } from '../src/http/stripe-webhooks';
import { sweepWebhookRecords } from '../src/jobs/webhook-records-sweep';
import { customerModel } from '../src/model/subscription';
import { subscriptionStartClaims, subscriptionStartModel } from '../src/model/subscription-start';
import { useOwnDatabase } from '../../../tools/testing/own-database';

let connection: mongoose.Connection;

useOwnDatabase('webhook_records', (opened) => (connection = opened));

const minute = 60_000;
const day = 24 * 60 * minute;
const now = new Date('2026-11-28T12:00:00Z');
const at = (offset: number) => new Date(now.getTime() + offset);
const cutoff = at(-webhookRecordRetentionMs);

it('deletes the processed event ids older than the period and keeps the younger ones', async () => {
  const processed = connection.db!.collection<ProcessedWebhook>(processedWebhooksCollection);
  const event = (when: Date): ProcessedWebhook => ({
    _id: `evt_${randomUUID()}`,
    type: 'customer.subscription.updated',
    at: when,
  });
  const old = event(new Date(cutoff.getTime() - minute));
  const young = event(new Date(cutoff.getTime() + minute));
  // Processed three days ago: Stripe may still resend it, and it must be answered as a duplicate.
  const inRetryWindow = event(at(-3 * day));
  await processed.insertMany([old, young, inRetryWindow]);

  expect(await sweepWebhookRecords({ connection, customers: customerModel(connection) }, now)).toMatchObject({
    processedWebhooks: 1,
  });
  const left = await processed.find({ _id: { $in: [old._id, young._id, inRetryWindow._id] } }).toArray();
  expect(left.map((entry) => entry._id).sort()).toEqual([young._id, inRetryWindow._id].sort());

  expect(await sweepWebhookRecords({ connection, customers: customerModel(connection) }, at(2 * minute))).toMatchObject(
    {
      processedWebhooks: 1,
    },
  );
  expect(await processed.countDocuments({ _id: inRetryWindow._id })).toBe(1);
});

it('deletes old starts no setup can claim again, and keeps a customer’s latest setup’s start whatever its age', async () => {
  const starts = subscriptionStartModel(connection);
  const customers = customerModel(connection);
  const start = (claimedAt: Date) => ({
    _id: `seti_${randomUUID()}`,
    claimToken: randomUUID(),
    claimedAt,
    startedAt: new Date(claimedAt.getTime() + 1_000),
  });
  const customer = (setupIntentId: string) => ({
    _id: randomUUID(),
    provider: 'stripe',
    customerId: `cus_${randomUUID()}`,
    setupIntentId,
    setupPurpose: 'start',
  });
  const justPast = new Date(cutoff.getTime() - minute);
  // Superseded by a newer setup of the same customer: no path starts from it any more.
  const superseded = start(justPast);
  // The customer was erased with the account.
  const erased = start(justPast);
  // Still the customer's latest setup, its subscription long since ended: it must not start a second one.
  const latest = start(at(-200 * day));
  // Superseded, but inside the period.
  const young = start(new Date(cutoff.getTime() + minute));
  await starts.insertMany([superseded, erased, latest, young]);
  await customers.insertMany([customer(`seti_${randomUUID()}`), customer(latest._id)]);

  expect(await sweepWebhookRecords({ connection, customers }, now)).toMatchObject({ subscriptionStarts: 2 });
  const left = await starts.find({ _id: { $in: [superseded._id, erased._id, latest._id, young._id] } }).lean();
  expect(left.map((entry) => entry._id).sort()).toEqual([latest._id, young._id].sort());

  // The latest setup's start still answers "started": neither the browser nor Stripe's webhook claims it again.
  expect(await subscriptionStartClaims(connection).claim(latest._id)).toEqual({ mine: false, started: true });

  expect(await sweepWebhookRecords({ connection, customers }, at(2 * minute))).toMatchObject({ subscriptionStarts: 1 });
  expect(await sweepWebhookRecords({ connection, customers }, at(2 * minute))).toMatchObject({ subscriptionStarts: 0 });
  expect(await starts.countDocuments({ _id: latest._id })).toBe(1);
});
