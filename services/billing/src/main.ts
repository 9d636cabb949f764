import {
  baseConfigShape,
  defineService,
  entitlementOf,
  roleFromUserService,
  runMain,
  userServiceConfigShape,
} from '@haven/platform';
import { subscriptionStatusOf } from './domain/access';
import { subscriptionModel } from './model/subscription';
import { billingResolvers } from './resolvers';

/** The billing service: the Premium plan, its trial, and who may use the app. */
export const startBillingService = defineService({
  name: 'billing',
  configShape: { ...baseConfigShape('billing'), ...userServiceConfigShape },
  dir: __dirname,
  build: ({ connection, config }) => {
    const subscriptions = subscriptionModel(connection);
    return {
      resolvers: billingResolvers(subscriptions),
      accessSources: (token) => ({
        role: roleFromUserService(config, token),
        // Billing decides entitlements, from its own record of the caller's subscription.
        entitlement: async (session) =>
          entitlementOf(subscriptionStatusOf(await subscriptions.findById(session.userId).lean(), new Date())),
      }),
    };
  },
});

if (require.main === module) runMain(startBillingService);
