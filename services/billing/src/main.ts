import {
  ConfigError,
  defineService,
  entitlementOf,
  loadConfig,
  personKeyring,
  personKeysFromUserService,
  roleFromUserService,
  runMain,
} from '@haven/platform';
import { billingConfigShape } from './config';
import { subscriptionStatusOf } from './domain/access';
import { cardChanger } from './flows/card-change';
import { localSetupSettler } from './jobs/local-setups';
import { schedulerCounts, startScheduler } from './jobs/scheduler';
import { billingClock } from './model/clock';
import { customerModel, subscriptionModel, type SubscriptionRecord } from './model/subscription';
import { profileFromUserService } from './providers/user-service';
import { localProvider } from './providers/local';
import { stripeClient, stripeProvider } from './providers/stripe';
import { stripeWebhookRoutes } from './http/stripe-webhooks';
import { startRetainedRecordsSweep } from './jobs/retained-records-sweep';
import { startWebhookRecordsSweep } from './jobs/webhook-records-sweep';
import { billingErasure } from './events/erasure';
import { retainedBillingRecordModel } from './model/retained-record';
import { trialClaimModel, trialClaims } from './model/trial-claim';
import { subscriptionStartClaims } from './model/subscription-start';
import { subscriptionStarter } from './flows/subscription-start';
import { billingResolvers } from './resolvers';

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is required with STRIPE_SECRET_KEY`);
  return value;
}

/**
 * Production takes real cards: without Stripe keys it refuses to start rather than fall back to the local
 * test-mode provider (which never charges and accepts test card numbers), unless ALLOW_LOCAL_PAYMENTS says
 * this deployment is a demo on purpose.
 */
export function requirePaymentProviderInProduction(config: {
  NODE_ENV: string;
  STRIPE_SECRET_KEY?: string;
  ALLOW_LOCAL_PAYMENTS: boolean;
}): void {
  if (config.NODE_ENV === 'production' && !config.STRIPE_SECRET_KEY && !config.ALLOW_LOCAL_PAYMENTS) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY: required in production (or ALLOW_LOCAL_PAYMENTS=1 for a demo that takes no real payments)',
    );
  }
}

export { billingConfigShape };

const startBilling = defineService({
  name: 'billing',
  configShape: billingConfigShape,
  dir: __dirname,
  build: ({ connection, config, log, publishSoon, erasure: erasureRuntime, metrics }) => {
    const subscriptions = subscriptionModel(connection);
    const customers = customerModel(connection);
    const clock = billingClock(connection, config.BILLING_TEST_CLOCK);
    const local = config.STRIPE_SECRET_KEY ? null : localProvider(connection);
    const stripeSettings = config.STRIPE_SECRET_KEY
      ? {
          secretKey: config.STRIPE_SECRET_KEY,
          priceId: required(config.STRIPE_PRICE_ID, 'STRIPE_PRICE_ID'),
          webhookSecret: required(config.STRIPE_WEBHOOK_SECRET, 'STRIPE_WEBHOOK_SECRET'),
          apiUrl: config.STRIPE_API_URL,
        }
      : null;
    const provider = stripeSettings ? stripeProvider(stripeSettings) : local!;
    const trials = trialClaims(connection, config);
    const starter = subscriptionStarter({
      subscriptions,
      customers,
      provider,
      trials,
      starts: subscriptionStartClaims(connection),
      clock,
      publishSoon,
    });
    const changer = cardChanger({ subscriptions, customers, provider, clock, publishSoon, log });
    const scheduler = startScheduler({
      subscriptions,
      provider,
      clock,
      log,
      publishSoon,
      intervalMs: config.BILLING_SCHEDULER_INTERVAL_MS,
      historyRetentionMs: config.BILLING_HISTORY_RETENTION_DAYS * 24 * 60 * 60 * 1000,
      counts: schedulerCounts(metrics),
      settleSetups: local ? localSetupSettler({ local, customers, starter, cardChanger: changer, log }) : undefined,
    });
    const retained = retainedBillingRecordModel(connection);
    const retainedRecordsSweep = startRetainedRecordsSweep({ retained, trialClaims: trialClaimModel(connection) }, log);
    const webhookRecordsSweep = startWebhookRecordsSweep(
      { connection, customers },
      { intervalMs: config.BILLING_WEBHOOK_RECORDS_SWEEP_INTERVAL_MS, log },
    );
    const erasure = billingErasure({
      subscriptions,
      customers,
      trials,
      retained,
      provider,
      guard: erasureRuntime.guard,
      clock,
      publishSoon,
    });
    return {
      // Its events carry the person's address and first name for their e-mails: sealed under the person's key.
      personKeyring: personKeyring(personKeysFromUserService(config)),
      erasure,
      resolvers: billingResolvers({
        erasure,
        subscriptions,
        customers,
        provider,
        localProvider: local,
        trials,
        starter,
        cardChanger: changer,
        clock,
        scheduler,
        publishSoon,
        profileOf: profileFromUserService(config),
        publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
        testClock: config.BILLING_TEST_CLOCK,
      }),
      outboxModels: [subscriptions],
      httpRoutes: stripeWebhookRoutes(
        stripeSettings
          ? {
              stripe: stripeClient(stripeSettings),
              webhookSecret: stripeSettings.webhookSecret,
              connection,
              subscriptions,
              customers,
              starter,
              cardChanger: changer,
              publishSoon,
              log,
            }
          : null,
      ),
      accessSources: (token) => ({
        role: roleFromUserService(config, token),
        // Billing decides entitlements, from its own record of the caller's subscription.
        entitlement: async (session) =>
          entitlementOf(
            subscriptionStatusOf(
              await subscriptions.findById(session.userId).lean<SubscriptionRecord>(),
              await clock.now(),
            ),
          ),
      }),
      onStop: () =>
        Promise.all([scheduler.stop(), webhookRecordsSweep.stop(), retainedRecordsSweep.stop()]).then(() => undefined),
    };
  },
});

/** The billing service: the Premium plan, its trial, and who may use the app. */
export async function startBillingService(env: Record<string, string | undefined> = process.env) {
  // Checked before anything connects: a refused start leaves nothing running.
  requirePaymentProviderInProduction(loadConfig(billingConfigShape, env));
  return startBilling(env);
}

if (require.main === module) runMain('billing', startBillingService);
