import {
  baseConfigShape,
  booleanFromEnv,
  loadConfig,
  loadTypeDefs,
  runMain,
  startService,
  type RequestContext,
  type RunningService,
} from '@haven/platform';
import { join } from 'node:path';
import { complianceResolvers } from './resolvers';

export const complianceConfigShape = {
  ...baseConfigShape('compliance', 4005),
  GDPR_ENABLED: booleanFromEnv.default(true),
  COOKIE_BANNER_ENABLED: booleanFromEnv.default(true),
  ENHANCED_CONSENT_ENABLED: booleanFromEnv.default(false),
};

/** The compliance service: consent, data export and the account-deletion saga. */
export function startComplianceService(env: Record<string, string | undefined> = process.env): Promise<RunningService> {
  const config = loadConfig(complianceConfigShape, env);
  return startService<typeof config, RequestContext>('compliance', config, () => ({
    typeDefs: loadTypeDefs(join(__dirname, 'schema.graphql')),
    resolvers: complianceResolvers({
      gdprEnabled: config.GDPR_ENABLED,
      cookieBannerEnabled: config.COOKIE_BANNER_ENABLED,
      enhancedConsentEnabled: config.ENHANCED_CONSENT_ENABLED,
    }),
  }));
}

if (require.main === module) runMain(() => startComplianceService());
