import {
  dataExportMeter,
  defineService,
  entitlementProjection,
  MongoRateLimitStore,
  roleFromUserService,
  runMain,
  personKeyringFor,
  personKeysFromUserService,
  waitInWords,
} from '@haven/platform';
import { quoteConfigShape } from './config';
import { checkInModel } from './model/check-in';
import { progressModel } from './model/progress';
import { quoteModel } from './model/quote';
import { timeZoneModel } from './model/time-zone';
import { timeZoneConsumer } from './events/time-zones';
import { quoteErasure } from './events/erasure';
import { privacySettingsModel } from './model/privacy-settings';
import { quoteResolvers } from './resolvers';
import { exportRoutes } from './http/export';
import { openAiWriter } from './providers/ai-writer';

/** The quote service: check-ins, the quotes written for them, favourites, progress. */
export const startQuoteService = defineService({
  name: 'quote',
  configShape: quoteConfigShape,
  dir: __dirname,
  build: ({ connection, config, log, publishSoon }) => {
    const quotes = quoteModel(connection);
    const checkIns = checkInModel(connection);
    // Who may use the paid features, kept from billing's events (platform/src/entitlements.ts).
    const entitlements = entitlementProjection(connection, 'quote');
    const reconciliation = entitlements.reconciliation(config, {
      intervalMs: config.ENTITLEMENT_RECONCILE_INTERVAL_MS,
      log,
    });
    const timeZones = timeZoneModel(connection);
    const progress = progressModel(connection);
    const privacySettings = privacySettingsModel(connection);
    // Each person's notes and messages are sealed under their own key, which the user service keeps
    // (PERSON_DATA_SEALING=false stores them as they are, outside production: the bench's comparison).
    const keyring = personKeyringFor(config, personKeysFromUserService(config));
    return {
      erasure: quoteErasure({ quotes, checkIns, progress, timeZones, privacySettings, personKeyring: keyring }),
      // Each check-in asks the AI provider for its quote, so they have an hourly budget (RATE_LIMIT_COSTLY_*).
      rateLimitMessages: {
        generateQuote: (retryAfter: number) =>
          `You've checked in a lot this hour. Take a breath — you can check in again in ${waitInWords(retryAfter)}.`,
      },
      resolvers: quoteResolvers({
        quotes,
        checkIns,
        progress,
        timeZones,
        privacySettings,
        ai: openAiWriter(config),
        publishSoon,
        userServiceUrl: config.USER_SERVICE_URL,
        credentials: config,
        personKeyring: keyring,
        meterDataExport: dataExportMeter(
          new MongoRateLimitStore(connection),
          { max: config.RATE_LIMIT_EXPORT_MAX, windowMs: config.RATE_LIMIT_EXPORT_WINDOW_MS },
          config.SUBGRAPH_SECRET,
        ),
      }),
      outboxModels: [quotes],
      // Its events carry a check-in's moods and ratings: they leave for Kafka sealed under the person's key.
      personKeyring: keyring,
      consumers: [entitlements.consumer, timeZoneConsumer(timeZones)],
      httpRoutes: exportRoutes({
        quotes,
        checkIns,
        timeZones,
        personKeyring: keyring,
        publicKey: config.JWT_PUBLIC_KEY,
        entitlementOf: (token, session) => entitlements.source(config, token)(session),
      }),
      accessSources: (token) => ({
        role: roleFromUserService(config, token),
        entitlement: entitlements.source(config, token),
      }),
      onStop: () => reconciliation.stop(),
    };
  },
});

if (require.main === module) runMain('quote', startQuoteService);
