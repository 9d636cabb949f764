import { baseConfigShape, defineService, runMain } from '@haven/platform';
import { checkInModel } from './model/check-in';
import { quoteModel } from './model/quote';
import { quoteResolvers } from './resolvers';

/** The quote service: check-ins, the quotes written for them, favourites, progress. */
export const startQuoteService = defineService({
  name: 'quote',
  configShape: baseConfigShape('quote'),
  dir: __dirname,
  build: ({ connection }) => ({ resolvers: quoteResolvers(quoteModel(connection), checkInModel(connection)) }),
});

if (require.main === module) runMain(startQuoteService);
