import {
  baseConfigShape,
  billingServiceConfigShape,
  defineService,
  entitlementProjection,
  roleFromUserService,
  runMain,
  userServiceConfigShape,
} from '@haven/platform';
import { checkInModel } from './model/check-in';
import { quoteModel } from './model/quote';
import { quoteResolvers } from './resolvers';

/** The quote service: check-ins, the quotes written for them, favourites, progress. */
export const startQuoteService = defineService({
  name: 'quote',
  configShape: { ...baseConfigShape('quote'), ...userServiceConfigShape, ...billingServiceConfigShape },
  dir: __dirname,
  build: ({ connection, config }) => {
    // Who may use the paid features, kept from billing's events (platform/src/entitlements.ts).
    const entitlements = entitlementProjection(connection, 'quote');
    return {
      resolvers: quoteResolvers(quoteModel(connection), checkInModel(connection)),
      consumers: [entitlements.consumer],
      accessSources: (token) => ({
        role: roleFromUserService(config, token),
        entitlement: entitlements.source(config, token),
      }),
    };
  },
});

if (require.main === module) runMain(startQuoteService);
