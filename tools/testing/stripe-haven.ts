import { startTestHaven, type TestHaven } from './haven';
import { startStripeMock, stripeEnv, type StripeMock } from './stripe-mock';

/** A Haven whose billing talks to a stripe-mock of its own. */
export interface StripeHaven {
  readonly haven: TestHaven;
  readonly stripeMock: StripeMock;
}

/**
 * Haven on its own stripe-mock for the tests of one file or `describe` block: both start before its tests and stop
 * after them, with webhooks signed by `webhookSecret`. Read `haven` and `stripeMock` inside the tests.
 */
export function havenOnStripeMock(webhookSecret: string): StripeHaven {
  const world = {} as { haven: TestHaven; stripeMock: StripeMock };
  beforeAll(async () => {
    world.stripeMock = await startStripeMock();
    world.haven = await startTestHaven({ env: stripeEnv(world.stripeMock, webhookSecret) });
  });
  afterAll(async () => {
    await world.haven?.stop();
    await world.stripeMock?.stop();
  });
  return world;
}
