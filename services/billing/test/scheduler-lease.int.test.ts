/**
 * Two replicas of billing on one database, each its own process: the lease lets one of them run the scheduler's
 * timed passes, every due subscription moves on once, and when the holder is killed outright (SIGKILL, no
 * goodbye) the other takes the lease once it has expired and carries on.
 */
import { periodicLeaseMs } from '@haven/platform';
import { freePorts } from '../../../tools/infra';
import { startAppProcess, type AppProcess } from '../../../tools/testing/app-process';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { signedUpPerson, startTrial } from '../../../tools/testing/subscription';

const schedulerIntervalMs = 300;
const leaseName = 'billing-scheduler';
const day = 24 * 60 * 60 * 1000;
let haven: TestHaven;
const replicas: AppProcess[] = [];

beforeAll(async () => {
  haven = await startTestHaven({ env: { BILLING_SCHEDULER_INTERVAL_MS: String(schedulerIntervalMs) } });
}, 180_000);

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.stop()));
  await haven?.stop();
});

/** Each user's recorded changes, by event type: how many times each happened. */
async function changesOf(userIds: string[]): Promise<Map<string, Record<string, number>>> {
  const history = await haven.collection('billing', 'subscription_history');
  const changes = new Map<string, Record<string, number>>(userIds.map((id) => [id, {}]));
  for (const entry of await history.find({ userId: { $in: userIds } }).toArray()) {
    const counts = changes.get(entry.userId as string)!;
    counts[entry.event as string] = (counts[entry.event as string] ?? 0) + 1;
  }
  return changes;
}

/** Moves billing's test clock as every replica reads it (its offset in billing's database), without running a pass. */
async function moveClock(ms: number): Promise<void> {
  const clocks = await haven.collection('billing', 'test_clock');
  await clocks.updateOne({ _id: 'clock' }, { $inc: { offsetMs: ms } }, { upsert: true });
}

it('moves each due subscription on once with two replicas, and the survivor takes over when the holder is killed', async () => {
  const leases = await haven.collection('billing', 'leases');
  // The gateway knows billing by its port: the first replica takes it, the second gets one of its own.
  const port = Number(new URL(haven.services.billing.url).port);
  await haven.stopService('billing');
  const first = await startAppProcess('services/billing', haven.serviceEnv('billing'), port);
  replicas.push(first);
  const firstLease = await eventually('the first replica holding the scheduler lease', () =>
    leases.findOne({ _id: leaseName, expiresAt: { $gt: new Date() } }),
  );
  const [secondPort] = await freePorts(1);
  const second = await startAppProcess('services/billing', haven.serviceEnv('billing'), secondPort!);
  replicas.push(second);

  const people = [];
  for (let n = 0; n < 5; n += 1) {
    const person = await signedUpPerson(haven.gatewayUrl, `lease${n}`);
    await startTrial(person.client);
    people.push(person);
  }
  const ids = people.map((person) => person.userId);

  // Past the trials' end: the first charge is due, for the lease holder's timed passes.
  await moveClock(3 * day + 60_000);
  await eventuallyExpect('every trial charged once', async () => {
    for (const [userId, counts] of await changesOf(ids)) {
      expect({ userId, ...counts }).toEqual({ userId, 'billing.trial_started': 1, 'billing.activated': 1 });
    }
  });
  // Nobody took the lease from a live holder.
  expect((await leases.findOne({ _id: leaseName }))!.owner).toBe(firstLease.owner);

  await first.kill('SIGKILL');
  const deadLease = (await leases.findOne({ _id: leaseName }))!;
  expect(deadLease.owner).toBe(firstLease.owner);
  // A month on, the renewals are due; only the survivor can take them, once the dead holder's lease has run out.
  await moveClock(32 * day);
  const taken = await eventually(
    'the second replica holding the lease',
    async () => {
      const lease = await leases.findOne({ _id: leaseName });
      return lease && lease.owner !== firstLease.owner ? { lease, seenAt: Date.now() } : null;
    },
    { timeoutMs: periodicLeaseMs(schedulerIntervalMs) + 60_000, intervalMs: 50 },
  );
  // It waited for the lease to expire: never two holders at once.
  expect(taken.seenAt).toBeGreaterThanOrEqual((deadLease.expiresAt as Date).getTime());
  await eventuallyExpect('every subscription renewed once, by the survivor', async () => {
    for (const [userId, counts] of await changesOf(ids)) {
      expect({ userId, renewed: counts['billing.renewed'], activated: counts['billing.activated'] }).toEqual({
        userId,
        renewed: 1,
        activated: 1,
      });
    }
  });
});
