import { baseConfigShape, defineService, runMain } from '@haven/platform';
import { subscriptionModel } from './model/subscription';
import { billingResolvers } from './resolvers';

/** The billing service: the Premium plan, its trial, and who may use the app. */
export const startBillingService = defineService({
  name: 'billing',
  configShape: baseConfigShape('billing'),
  dir: __dirname,
  build: ({ connection }) => ({ resolvers: billingResolvers(subscriptionModel(connection)) }),
});

if (require.main === module) runMain(startBillingService);
