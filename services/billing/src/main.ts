import {
  baseConfigShape,
  defineService,
  entitlementOf,
  roleFromUserService,
  runMain,
  userServiceConfigShape,
} from '@haven/platform';
import { z } from 'zod';
import { subscriptionStatusOf } from './domain/access';
import { startScheduler } from './events/scheduler';
import { billingClock } from './model/clock';
import { customerModel, subscriptionModel, type SubscriptionRecord } from './model/subscription';
import { profileFromUserService } from './profile';
import { localProvider } from './providers/local';
import { billingResolvers } from './resolvers';

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .default('0')
  .transform((value) => value === '1' || value === 'true');

/** The billing service: the Premium plan, its trial, and who may use the app. */
export const startBillingService = defineService({
  name: 'billing',
  configShape: {
    ...baseConfigShape('billing'),
    ...userServiceConfigShape,
    /** Tests only: a clock that advanceBillingClock moves forward. */
    BILLING_TEST_CLOCK: flag,
    BILLING_SCHEDULER_INTERVAL_MS: z.coerce.number().int().positive().default(10_000),
  },
  dir: __dirname,
  build: ({ connection, config, log, publishSoon }) => {
    const subscriptions = subscriptionModel(connection);
    const customers = customerModel(connection);
    const clock = billingClock(connection, config.BILLING_TEST_CLOCK);
    const local = localProvider(connection);
    const provider = local;
    const scheduler = startScheduler({
      subscriptions,
      provider,
      clock,
      log,
      publishSoon,
      intervalMs: config.BILLING_SCHEDULER_INTERVAL_MS,
    });
    return {
      resolvers: billingResolvers({
        subscriptions,
        customers,
        provider,
        localProvider: local,
        clock,
        scheduler,
        publishSoon,
        profileOf: profileFromUserService(config),
        publishableKey: null,
        testClock: config.BILLING_TEST_CLOCK,
      }),
      outboxModels: [subscriptions],
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
      onStop: () => scheduler.stop(),
    };
  },
});

if (require.main === module) runMain(startBillingService);
