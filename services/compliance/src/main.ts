import { baseConfigShape, booleanFromEnv, defineService, runMain } from '@haven/platform';
import { complianceResolvers } from './resolvers';

/** The compliance service: consent, data export and the account-deletion saga. */
export const startComplianceService = defineService({
  name: 'compliance',
  configShape: {
    ...baseConfigShape('compliance'),
    GDPR_ENABLED: booleanFromEnv.default(true),
    COOKIE_BANNER_ENABLED: booleanFromEnv.default(true),
    ENHANCED_CONSENT_ENABLED: booleanFromEnv.default(false),
  },
  dir: __dirname,
  build: ({ config }) => ({
    resolvers: complianceResolvers({
      gdprEnabled: config.GDPR_ENABLED,
      cookieBannerEnabled: config.COOKIE_BANNER_ENABLED,
      enhancedConsentEnabled: config.ENHANCED_CONSENT_ENABLED,
    }),
  }),
});

if (require.main === module) runMain(startComplianceService);
