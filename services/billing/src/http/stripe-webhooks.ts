import { isDuplicateKeyError, serviceHttpRoutes, type Logger, type ServiceHttpRoutes } from '@haven/platform';
import express, { type Request, type Response } from 'express';
import { GraphQLError } from 'graphql';
import type { Connection, Model } from 'mongoose';
import type Stripe from 'stripe';
import { changeFromStripe } from '../domain/stripe-events';
import type { CustomerRecord, SubscriptionRecord } from '../model/subscription';
import { periodEndOf, statusOfStripe } from '../providers/stripe';
import { changeSubscription } from '../flows/subscription-changes';
import type { CardChanger } from '../flows/card-change';
import type { SubscriptionStarter } from '../flows/subscription-start';

/** The ids of the Stripe events already applied, each with its type and when (jobs/webhook-records-sweep.ts). */
export const processedWebhooksCollection = 'processed_webhooks';

export interface ProcessedWebhook {
  _id: string;
  type: string;
  at: Date;
}

/**
 * Stripe's webhooks at /http/stripe/webhook (the gateway's /hooks/billing/stripe/webhook). The signature covers
 * the raw body, so the route reads bytes, never parsed JSON. `setup_intent.succeeded` starts the subscription
 * (once, with the browser's call: flows/subscription-start.ts), or for a card change makes its card the
 * subscription's (once, with the browser's call: flows/card-change.ts). Each event id is processed once (a
 * `processed_webhooks` record); an event older than the newest applied to the subscription changes nothing
 * (out of order); a change is a compare-and-set like every other, and one that lost a race answers 503 so
 * Stripe delivers it again. Without Stripe configured (null) the route answers 404.
 */
export function stripeWebhookRoutes(
  deps: {
    stripe: Stripe;
    webhookSecret: string;
    connection: Connection;
    subscriptions: Model<SubscriptionRecord>;
    customers: Model<CustomerRecord>;
    starter: SubscriptionStarter;
    cardChanger: CardChanger;
    publishSoon: () => void;
    log: Logger;
  } | null,
): ServiceHttpRoutes {
  if (!deps) {
    return serviceHttpRoutes('billing', {
      'POST /stripe/webhook': [
        (_req, res) => {
          res.status(404).json({ message: 'Stripe is not configured' });
        },
      ],
    });
  }
  const processed = () => deps.connection.db!.collection<ProcessedWebhook>(processedWebhooksCollection);
  const receive = async (req: Request, res: Response) => {
    let event: Stripe.Event;
    try {
      const signature = req.header('stripe-signature') ?? '';
      event = deps.stripe.webhooks.constructEvent(req.body as Buffer, signature, deps.webhookSecret);
    } catch {
      res.status(400).json({ message: 'Invalid webhook signature' });
      return;
    }
    if (await processed().findOne({ _id: event.id })) {
      res.json({ received: true, duplicate: true });
      return;
    }
    try {
      if (!(await apply(event))) {
        res.status(503).json({ message: 'The subscription changed meanwhile; deliver again' });
        return;
      }
      await processed().insertOne({ _id: event.id, type: event.type, at: new Date() });
    } catch (error) {
      if (!isDuplicateKeyError(error)) {
        deps.log.error({ err: error, eventId: event.id }, 'stripe webhook failed');
        res.status(500).json({ message: 'Webhook processing failed' });
        return;
      }
    }
    res.json({ received: true });
  };

  /** False when a concurrent change won (deliver again); true when applied or nothing to do. */
  const apply = async (event: Stripe.Event): Promise<boolean> => {
    if (event.type === 'setup_intent.succeeded') return startAfterSetup(event.data.object, event.id);
    if (!event.type.startsWith('customer.subscription.')) return true; // invoices: the subscription event follows
    const snapshot = event.data.object as Stripe.Subscription;
    const current = await deps.subscriptions.findOne({ subscriptionId: snapshot.id }).lean<SubscriptionRecord>();
    if (!current) return true; // not one of ours (or not yet recorded: created by our own request)
    const occurredAt = new Date(event.created * 1000);
    if (current.providerEventAt && occurredAt < current.providerEventAt) return true; // older than what we know
    const change = changeFromStripe(current, {
      status: statusOfStripe(snapshot.status),
      trialEnd: snapshot.trial_end ? new Date(snapshot.trial_end * 1000) : null,
      currentPeriodEnd: periodEndOf(snapshot),
      cancelAtPeriodEnd: snapshot.cancel_at_period_end,
    });
    if (!change) return true;
    const applied = await changeSubscription(
      deps.subscriptions,
      current,
      {
        status: change.status,
        cancelAtPeriodEnd: change.cancelAtPeriodEnd,
        currentPeriodEnd: periodEndOf(snapshot) ?? current.currentPeriodEnd,
        providerEventAt: occurredAt,
      },
      change.type,
      new Date(),
      `stripe-${event.id}`,
    );
    if (applied) deps.publishSoon();
    return applied;
  };

  /** The user's card is confirmed, whether or not their browser is still there to say so. */
  const startAfterSetup = async (intent: Stripe.SetupIntent, eventId: string): Promise<boolean> => {
    const userId = intent.metadata?.userId;
    const customerId = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
    const paymentMethodId =
      typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
    if (!userId || !customerId || !paymentMethodId) return true; // not one of billing's setups
    // The user's newest setup with their own customer, as the browser's call would start.
    const customer = await deps.customers.findById(userId).lean<CustomerRecord>();
    if (customer?.customerId !== customerId || customer.setupIntentId !== intent.id) return true;
    try {
      // A change-card setup starts nothing: its card becomes the subscription's, once with the browser's call.
      if (customer.setupPurpose === 'change_card' || intent.metadata?.purpose === 'change_card') {
        if (customer.setupPurpose !== 'change_card') return true; // the newest setup is a start after all
        await deps.cardChanger.applyAfterSetup({
          userId,
          setupIntentId: intent.id,
          paymentMethodId,
          correlationId: `stripe-${eventId}`,
        });
        return true;
      }
      await deps.starter.startAfterSetup({
        userId,
        setupIntentId: intent.id,
        paymentMethodId,
        correlationId: `stripe-${eventId}`,
      });
      return true;
    } catch (error) {
      // Lost a race (or the browser's start is still running): Stripe delivers the event again.
      if (error instanceof GraphQLError && error.extensions.code === 'CONFLICT') return false;
      throw error;
    }
  };

  return serviceHttpRoutes('billing', {
    'POST /stripe/webhook': [express.raw({ type: () => true, limit: '1mb' }), receive],
  });
}
