/**
 * The scheduler's sweep among records it cannot move on, written straight into billing's database as a bug or an
 * older version would leave them (no card on file, a status billing never writes, a card whose charge errors),
 * with a dozen good subscriptions due beside them. Every good one moves on; each bad one is set aside, counted and
 * named by its id in the pass's log line; the next pass goes past them again. The passes run here, on billing's
 * database and clock (the service's own timed pass is an hour away and the clock is moved without it), so each
 * pass's answer and log lines can be read.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createMetricsRegistry } from '@haven/platform';
import mongoose from 'mongoose';
import { capturedLog } from '../../../tools/testing/captured-log';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { signedUpPerson, startTrial } from '../../../tools/testing/subscription';
import { metricValue } from '../../../tools/testing/metrics';
import { testInfra } from '../../../tools/testing/test-env';
import { schedulerCounts, setAsideMs, startScheduler, type Scheduler } from '../src/jobs/scheduler';
import { billingClock, type Clock } from '../src/model/clock';
import { subscriptionModel } from '../src/model/subscription';
import { localProvider } from '../src/providers/local';
import { eventTypes, subscriptionStatus } from './support';

const day = 24 * 60 * 60 * 1000;
const hour = 60 * 60 * 1000;
let haven: TestHaven;
let connection: mongoose.Connection;
let clock: Clock;
let scheduler: Scheduler;
const captured = capturedLog();
// The registry billing's /metrics serves, as billing's main makes it.
const metrics = createMetricsRegistry('billing');

beforeAll(async () => {
  haven = await startTestHaven({ env: { BILLING_SCHEDULER_INTERVAL_MS: String(hour) } });
  connection = await mongoose.createConnection(testInfra().mongoUrl, { dbName: haven.dbName('billing') }).asPromise();
  clock = billingClock(connection, true);
  // Wired as billing's main wires it; its timed pass is an hour away too, so each pass is the test's runOnce.
  scheduler = startScheduler({
    subscriptions: subscriptionModel(connection),
    provider: localProvider(connection),
    clock,
    log: captured.log,
    publishSoon: () => undefined,
    intervalMs: hour,
    historyRetentionMs: 365 * day,
    counts: schedulerCounts(metrics),
  });
}, 180_000);

afterAll(async () => {
  await scheduler?.stop();
  await connection?.close();
  await haven?.stop();
});

/** A record as a bug or an older version leaves it: due since an hour ago, and holding a person's details. */
function leftBehind(fields: Record<string, unknown>) {
  const hex = randomBytes(8).toString('hex');
  const anHourAgo = new Date(Date.now() - hour);
  return {
    _id: randomUUID(),
    provider: 'local',
    customerId: `cus_local_${hex}`,
    subscriptionId: `sub_local_${hex}`,
    paymentMethodId: `pm_local_ok_${hex}`,
    email: `left.behind.${hex}@example.com`,
    firstName: 'Wrenna',
    status: 'trialing',
    trialEnd: anHourAgo,
    currentPeriodEnd: anHourAgo,
    cancelAtPeriodEnd: false,
    trialReminderSent: true,
    revision: 1,
    trialUsed: true,
    providerEventAt: null,
    setAsideUntil: null,
    createdAt: anHourAgo,
    updatedAt: anHourAgo,
    ...fields,
  };
}

async function subscribedPeople(name: string, count: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, n) => {
      const person = await signedUpPerson(haven.gatewayUrl, `${name}${n}`);
      await startTrial(person.client);
      return person;
    }),
  );
}

it('sets aside a subscription with no card, an unknown status or a failing charge, counts and names each, and moves every other one on, pass after pass', async () => {
  // Written first, with the earliest dates: the sweep meets them before the good ones.
  const bad = { noCard: randomUUID(), unknownStatus: randomUUID(), chargeErrors: randomUUID() };
  const badIds = Object.values(bad).sort();
  const noCard: Record<string, unknown> = leftBehind({ _id: bad.noCard });
  delete noCard.paymentMethodId; // not even an empty one
  const subscriptions = await haven.collection('billing', 'subscriptions');
  await subscriptions.insertMany([
    noCard as { _id: string },
    leftBehind({ _id: bad.unknownStatus, status: 'past_due', trialEnd: null }),
    leftBehind({
      _id: bad.chargeErrors,
      status: 'active',
      trialEnd: null,
      paymentMethodId: `pm_local_processing_error_${randomBytes(8).toString('hex')}`,
    }),
  ]);

  // Four trials, charged as they end: a month on, their renewal is due.
  const renewing = await subscribedPeople('renewing', 4);
  await clock.advance(3 * day + 60_000);
  const first = await scheduler.runOnce();
  expect({ ...first, setAsideIds: [...first.setAsideIds].sort() }).toEqual({
    movedOn: 4,
    setAside: 3,
    setAsideIds: badIds,
  });

  // Eight trials that will have ended by then: four cancelled (they expire), four to be charged.
  const expiring = await subscribedPeople('expiring', 4);
  for (const person of expiring) expect((await person.client.post('/api/subscription/cancel')).status).toBe(200);
  const converting = await subscribedPeople('converting', 4);

  await clock.advance(32 * day);
  const linesBefore = captured.lines.length;
  const passStarted = await clock.now();
  const second = await scheduler.runOnce();
  const passEnded = await clock.now();
  expect({ ...second, setAsideIds: [...second.setAsideIds].sort() }).toEqual({
    movedOn: 12,
    setAside: 3,
    setAsideIds: badIds,
  });

  // What each person sees.
  for (const person of renewing) {
    expect(await subscriptionStatus(person.client)).toMatchObject({ status: 'active', planType: 'premium' });
    expect(await eventTypes(haven, person.userId)).toEqual([
      'billing.trial_started',
      'billing.activated',
      'billing.renewed',
    ]);
  }
  for (const person of expiring) {
    expect(await subscriptionStatus(person.client)).toMatchObject({ status: 'trial_expired', planType: 'free' });
    expect((await eventTypes(haven, person.userId)).at(-1)).toBe('billing.trial_expired');
  }
  for (const person of converting) {
    expect(await subscriptionStatus(person.client)).toMatchObject({ status: 'active', planType: 'premium' });
    expect(await eventTypes(haven, person.userId)).toContain('billing.activated');
  }

  // Each bad record as it was, waiting to be tried again, where an operator finds it; no change was recorded.
  for (const id of badIds) {
    const record = await subscriptions.findOne({ _id: id });
    expect(record!.revision).toBe(1);
    expect(record!.setAsideUntil.getTime()).toBeGreaterThanOrEqual(passStarted.getTime() + setAsideMs);
    expect(record!.setAsideUntil.getTime()).toBeLessThanOrEqual(passEnded.getTime() + setAsideMs);
    expect(await eventTypes(haven, id)).toEqual([]);
  }
  expect((await subscriptions.findOne({ _id: bad.unknownStatus }))!.status).toBe('past_due');
  expect((await subscriptions.findOne({ _id: bad.noCard }))!.status).toBe('trialing');
  expect((await subscriptions.findOne({ _id: bad.chargeErrors }))!.status).toBe('active');

  // What the operator reads: one line per record set aside, by id, with its defect or the provider's error, and
  // the pass's count; never a person's address or name.
  const linesOfPass = captured.lines.slice(linesBefore);
  const withMessage = (msg: string) => linesOfPass.filter((line) => line.msg === msg);
  const setAsideLines = withMessage('billing scheduler set a subscription aside');
  const lineOf = (id: string) => setAsideLines.find((line) => line.subscriptionId === id);
  expect(setAsideLines).toHaveLength(3);
  expect(lineOf(bad.noCard)).toMatchObject({ defect: 'no_payment_method' });
  expect(lineOf(bad.unknownStatus)).toMatchObject({ defect: 'unknown_status' });
  expect(lineOf(bad.chargeErrors)).toMatchObject({
    err: expect.objectContaining({ message: 'the test-mode provider could not process the charge' }),
  });
  const [summary, ...more] = withMessage('billing scheduler sweep moved subscriptions on and set some aside');
  expect(more).toEqual([]);
  expect(summary).toMatchObject({ movedOn: 12, setAside: 3 });
  expect([...(summary!.setAsideIds as string[])].sort()).toEqual(badIds);
  expect(captured.text()).not.toMatch(/left\.behind|Wrenna/);

  // A month on: every active subscription renews again, and the bad ones, due once more, are set aside again.
  await clock.advance(32 * day);
  const third = await scheduler.runOnce();
  expect({ ...third, setAsideIds: [...third.setAsideIds].sort() }).toEqual({
    movedOn: 8,
    setAside: 3,
    setAsideIds: badIds,
  });
  for (const person of [...renewing, ...converting]) {
    expect(await subscriptionStatus(person.client)).toMatchObject({ status: 'active', planType: 'premium' });
    expect((await eventTypes(haven, person.userId)).at(-1)).toBe('billing.renewed');
  }
  for (const id of badIds) {
    expect((await subscriptions.findOne({ _id: id }))!.setAsideUntil.getTime()).toBeGreaterThan(
      passEnded.getTime() + setAsideMs,
    );
  }

  // What /metrics says after the three passes: each bad record set aside three times, under its reason.
  const scraped = await metrics.metrics();
  const setAside = (reason: string) =>
    metricValue(scraped, 'haven_billing_subscriptions_set_aside_total', { reason, service: 'billing' });
  expect(setAside('no_payment_method')).toBe(3);
  expect(setAside('unknown_status')).toBe(3);
  expect(setAside('error')).toBe(3);
  expect(metricValue(scraped, 'haven_billing_subscriptions_moved_on_total', { service: 'billing' })).toBe(4 + 12 + 8);
}, 180_000);
