import { baseConfigShape, roleFromUserService, userServiceConfigShape, defineService, runMain } from '@haven/platform';
import { checkInModel } from './model/check-in';
import { quoteModel } from './model/quote';
import { quoteResolvers } from './resolvers';

/** The quote service: check-ins, the quotes written for them, favourites, progress. */
export const startQuoteService = defineService({
  name: 'quote',
  configShape: { ...baseConfigShape('quote'), ...userServiceConfigShape },
  dir: __dirname,
  build: ({ connection, config }) => ({
    resolvers: quoteResolvers(quoteModel(connection), checkInModel(connection)),
    accessSources: (token) => ({ role: roleFromUserService(config, token) }),
  }),
});

if (require.main === module) runMain(startQuoteService);
