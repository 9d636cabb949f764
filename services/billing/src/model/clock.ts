import type { Connection } from 'mongoose';

/** Billing's notion of now; tests move it forward (BILLING_TEST_CLOCK=1) so a trial can end in seconds. */
export interface Clock {
  now(): Promise<Date>;
  advance(ms: number): Promise<Date>;
}

interface ClockDocument {
  _id: string;
  offsetMs: number;
}

/**
 * The wall clock, plus an offset kept in billing's database when the test clock is enabled, so every
 * replica (and the scheduler) sees the same time. Without it, the offset is never read.
 */
export function billingClock(connection: Connection, testClockEnabled: boolean): Clock {
  const clocks = () => connection.db!.collection<ClockDocument>('test_clock');
  const offset = async () => (testClockEnabled ? ((await clocks().findOne({ _id: 'clock' }))?.offsetMs ?? 0) : 0);
  return {
    now: async () => new Date(Date.now() + (await offset())),
    advance: async (ms) => {
      if (!testClockEnabled) throw new Error('the billing test clock is disabled');
      await clocks().updateOne({ _id: 'clock' }, { $inc: { offsetMs: ms } }, { upsert: true });
      return new Date(Date.now() + (await offset()));
    },
  };
}
