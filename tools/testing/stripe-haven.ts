import Stripe from 'stripe';
import { startTestHaven, type TestHaven } from './haven';
import { startStripeMock, stripeEnv, type StripeMock } from './stripe-mock';

/** A Haven whose billing talks to a stripe-mock of its own. */
export interface StripeHaven {
  readonly haven: TestHaven;
  readonly stripeMock: StripeMock;
  /** Posts a Stripe event to billing's webhook through the gateway, signed with the world's secret unless given. */
  deliver(payload: string, signature?: string): Promise<Response>;
}

/** Stripe's `setup_intent.succeeded` for a card setup, as Stripe sends it (the payload's text). */
export function setupSucceededEvent(setup: {
  setupIntentId: string;
  customerId: string;
  userId: string;
  paymentMethodId?: string;
  /** The setup's purpose as billing wrote it in the metadata; absent in setups made before it did. */
  purpose?: 'start' | 'change_card';
}): string {
  return JSON.stringify({
    id: `evt_${setup.purpose ?? 'setup'}_${setup.setupIntentId}`,
    object: 'event',
    type: 'setup_intent.succeeded',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: setup.setupIntentId,
        object: 'setup_intent',
        status: 'succeeded',
        customer: setup.customerId,
        payment_method: setup.paymentMethodId ?? 'pm_card_visa',
        metadata: setup.purpose ? { userId: setup.userId, purpose: setup.purpose } : { userId: setup.userId },
      },
    },
  });
}

/**
 * Haven on its own stripe-mock for the tests of one file or `describe` block: both start before its tests and stop
 * after them, with webhooks signed by `webhookSecret`. Read `haven` and `stripeMock` inside the tests.
 */
export function havenOnStripeMock(webhookSecret: string): StripeHaven {
  const stripe = new Stripe('sk_test_haven');
  const world = {
    deliver: (
      payload: string,
      signature = stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
    ) =>
      fetch(`${world.haven.gatewayUrl}/hooks/billing/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      }),
  } as { haven: TestHaven; stripeMock: StripeMock; deliver: StripeHaven['deliver'] };
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
