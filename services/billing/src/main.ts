import {
  baseConfigShape,
  loadConfig,
  loadTypeDefs,
  runMain,
  startService,
  type RequestContext,
  type RunningService,
} from '@haven/platform';
import { join } from 'node:path';
import { subscriptionModel } from './model/subscription';
import { billingResolvers } from './resolvers';

export const billingConfigShape = baseConfigShape('billing', 4003);

/** The billing service: the Premium plan, its trial, and who may use the app. */
export function startBillingService(env: Record<string, string | undefined> = process.env): Promise<RunningService> {
  const config = loadConfig(billingConfigShape, env);
  return startService<typeof config, RequestContext>('billing', config, ({ connection }) => ({
    typeDefs: loadTypeDefs(join(__dirname, 'schema.graphql')),
    resolvers: billingResolvers(subscriptionModel(connection)),
  }));
}

if (require.main === module) runMain(() => startBillingService());
