/**
 * The account-deletion sweep past a record it cannot handle: a request an older version left without its times,
 * met first, among interrupted and unanswered requests. Every one of those is sent on (its
 * `account.deletion_requested` recorded for the relay); the bad one is logged by its request id, counted, and
 * met again by the next pass, which goes past it as well. The saga runs here on its own database, so each pass's
 * answer and log lines can be read.
 */
import { erasureGuard, recordStandaloneEvent, standaloneEventModel, erasureCollections } from '@haven/platform';
import { decodeEvent, producerServices, type EventPayload } from '@haven/proto';
import type mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { capturedLog } from '../../../tools/testing/captured-log';
import { useOwnDatabase } from '../../../tools/testing/own-database';
import { deletionSaga, type DeletionSaga } from '../src/events/deletion-saga';
import { accountDeletionModel, type AccountDeletionRecord } from '../src/model/account-deletion';

let connection: mongoose.Connection;
useOwnDatabase('deletion_sweep', (opened) => (connection = opened));

const minute = 60_000;
const captured = capturedLog();
let saga: DeletionSaga;

afterAll(async () => {
  await saga?.stop();
});

function deletion(fields: Partial<AccountDeletionRecord>): AccountDeletionRecord {
  return {
    _id: randomUUID(),
    userId: randomUUID(),
    subjectKey: randomBytes(32).toString('hex'),
    requestedBy: 'self',
    state: 'opening',
    purgedAt: {},
    requests: 0,
    lastRequestedAt: null,
    createdAt: new Date(Date.now() - 5 * minute),
    completedAt: null,
    ...fields,
  };
}

/** The `account.deletion_requested` events recorded for the relay, by request id: the services each names. */
async function requestedEvents(): Promise<Map<string, string[]>> {
  const carriers = await connection.collection(erasureCollections.standaloneEvents).find({}).toArray();
  const requested = new Map<string, string[]>();
  for (const entry of carriers.flatMap((carrier) => carrier.outbox as Array<{ value: mongoose.mongo.Binary }>)) {
    const event = decodeEvent(entry.value.value());
    expect(event.type).toBe('account.deletion_requested');
    const payload = event.payload as EventPayload<'account.deletion_requested'>;
    requested.set(payload.requestId, [...payload.services]);
  }
  return requested;
}

it('sends on every deletion it owes past one it cannot handle, and counts and names that one, pass after pass', async () => {
  const deletions = accountDeletionModel(connection);
  const standaloneEvents = standaloneEventModel(connection);
  saga = deletionSaga({
    deletions,
    erasure: {
      guard: erasureGuard(connection, randomBytes(32)),
      publish: async (event) => {
        await recordStandaloneEvent(standaloneEvents, event);
      },
    },
    log: captured.log,
    settings: {
      userServiceUrl: 'http://127.0.0.1:9',
      billingServiceUrl: 'http://127.0.0.1:9',
      credentials: {},
      sweepIntervalMs: 60 * minute,
      retryAfterMs: 15 * minute,
      openingGraceMs: 2 * minute,
    },
  });

  // An older version's record: pending, its times under another name. Written first, as it was left.
  const {
    createdAt: _created,
    lastRequestedAt: _requested,
    ...withoutTimes
  } = deletion({
    state: 'pending',
    requests: 1,
  });
  const bad = { ...withoutTimes, requestedAt: new Date(Date.now() - 60 * minute) };
  await deletions.collection.insertOne(bad as never);
  // Interrupted while opening (past the grace), and waiting on services asked over 15 minutes ago.
  const interrupted = [deletion({}), deletion({}), deletion({})];
  const unanswered = [0, 1, 2].map(() =>
    deletion({
      state: 'pending',
      requests: 1,
      purgedAt: { user: new Date(), billing: new Date() },
      lastRequestedAt: new Date(Date.now() - 20 * minute),
    }),
  );
  // Not owed anything yet: opening within the grace, and asked a minute ago.
  const notYet = [deletion({ createdAt: new Date() }), deletion({ state: 'pending', lastRequestedAt: new Date() })];
  await deletions.insertMany([...interrupted, ...unanswered, ...notYet]);

  const first = await saga.sweepOnce();
  expect(first).toEqual({ sentOn: 6, failed: 1, failedIds: [bad._id] });
  const unansweredServices = producerServices.filter((service) => service !== 'user' && service !== 'billing');
  expect(await requestedEvents()).toEqual(
    new Map([
      ...interrupted.map((each) => [each._id, []] as [string, string[]]),
      ...unanswered.map((each) => [each._id, [...unansweredServices]] as [string, string[]]),
    ]),
  );
  for (const each of [...interrupted, ...unanswered]) {
    expect(await deletions.findById(each._id).lean()).toMatchObject({
      state: 'pending',
      requests: each.requests + 1,
      lastRequestedAt: expect.any(Date),
    });
  }
  expect(await deletions.collection.findOne({ _id: bad._id as never })).toEqual(bad);

  // What the operator reads: the request id and the error, and the pass's count; no user id.
  const [failure, ...moreFailures] = captured.withMessage('account deletion sweep could not handle a request');
  expect(moreFailures).toEqual([]);
  expect(failure).toMatchObject({ requestId: bad._id, err: expect.objectContaining({ type: 'TypeError' }) });
  expect(captured.withMessage('account deletion sweep skipped requests it could not handle')).toEqual([
    expect.objectContaining({ sentOn: 6, failed: 1, failedIds: [bad._id] }),
  ]);
  for (const each of [bad, ...interrupted, ...unanswered, ...notYet]) {
    expect(captured.text()).not.toContain(each.userId!);
  }

  // The next pass meets the bad record again, and still sends on a request interrupted since.
  const since = deletion({});
  await deletions.create(since);
  expect(await saga.sweepOnce()).toEqual({ sentOn: 1, failed: 1, failedIds: [bad._id] });
  expect((await requestedEvents()).get(since._id)).toEqual([]);
  expect(captured.withMessage('account deletion sweep could not handle a request')).toHaveLength(2);
});
