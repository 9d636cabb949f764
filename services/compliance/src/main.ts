import {
  baseConfigShape,
  booleanFromEnv,
  defineService,
  roleFromUserService,
  runMain,
  userServiceConfigShape,
} from '@haven/platform';
import { z } from 'zod';
import { userConsentModel, visitorConsentModel } from './model/consent';
import { complianceResolvers } from './resolvers';

/** The compliance service: consent, data export and the account-deletion saga. */
export const startComplianceService = defineService({
  name: 'compliance',
  configShape: {
    ...baseConfigShape('compliance'),
    ...userServiceConfigShape,
    GDPR_ENABLED: booleanFromEnv.default(true),
    COOKIE_BANNER_ENABLED: booleanFromEnv.default(true),
    ENHANCED_CONSENT_ENABLED: booleanFromEnv.default(false),
    /** The cookie policy's version: a choice made under another one no longer hides the banner. */
    COOKIE_POLICY_VERSION: z.string().trim().min(1).max(64).default('2025-01-28'),
  },
  dir: __dirname,
  build: ({ connection, config }) => ({
    resolvers: complianceResolvers(
      {
        gdprEnabled: config.GDPR_ENABLED,
        cookieBannerEnabled: config.COOKIE_BANNER_ENABLED,
        enhancedConsentEnabled: config.ENHANCED_CONSENT_ENABLED,
      },
      {
        userConsents: userConsentModel(connection),
        visitorConsents: visitorConsentModel(connection),
        policyVersion: config.COOKIE_POLICY_VERSION,
      },
    ),
    // An admin may read another user's data (User.cookieConsent); the user service says who is one.
    accessSources: (token: string) => ({ role: roleFromUserService(config, token) }),
  }),
});

if (require.main === module) runMain(startComplianceService);
