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
import { checkInModel } from './model/check-in';
import { quoteModel } from './model/quote';
import { quoteResolvers } from './resolvers';

export const quoteConfigShape = baseConfigShape('quote', 4002);

/** The quote service: check-ins, the quotes written for them, favourites, progress. */
export function startQuoteService(env: Record<string, string | undefined> = process.env): Promise<RunningService> {
  const config = loadConfig(quoteConfigShape, env);
  return startService<typeof config, RequestContext>('quote', config, ({ connection }) => ({
    typeDefs: loadTypeDefs(join(__dirname, 'schema.graphql')),
    resolvers: quoteResolvers(quoteModel(connection), checkInModel(connection)),
  }));
}

if (require.main === module) runMain(() => startQuoteService());
