import { defineService, roleFromUserService, runMain } from '@haven/platform';
import { complianceConfigShape } from './config';
import { deletionSaga } from './events/deletion-saga';
import { complianceErasure } from './events/erasure';
import { startVisitorConsentSweep } from './jobs/visitor-consent-sweep';
import { accountDeletionModel } from './model/account-deletion';
import { userConsentModel, visitorConsentModel } from './model/consent';
import { complianceResolvers } from './resolvers';

/** The compliance service: consent, data export and the account-deletion saga. */
export const startComplianceService = defineService({
  name: 'compliance',
  configShape: complianceConfigShape,
  dir: __dirname,
  build: ({ config, connection, log, erasure }) => {
    const deletions = accountDeletionModel(connection);
    const saga = deletionSaga({
      deletions,
      erasure,
      log,
      settings: {
        userServiceUrl: config.USER_SERVICE_URL,
        billingServiceUrl: config.BILLING_SERVICE_URL,
        credentials: config,
        sweepIntervalMs: config.ERASURE_SWEEP_INTERVAL_MS,
        retryAfterMs: config.ERASURE_RETRY_AFTER_MS,
        // Longer than the deletion's own steps can take (the gateway's 10 s, twice).
        openingGraceMs: 2 * 60_000,
      },
    });
    const visitorConsents = visitorConsentModel(connection);
    const visitorConsentSweep = startVisitorConsentSweep(visitorConsents, log);
    return {
      resolvers: complianceResolvers(
        {
          gdprEnabled: config.GDPR_ENABLED,
          cookieBannerEnabled: config.COOKIE_BANNER_ENABLED,
          enhancedConsentEnabled: config.ENHANCED_CONSENT_ENABLED,
        },
        { saga, deletions, reauthMaxAgeMs: config.REAUTH_MAX_AGE_MS },
        {
          userConsents: userConsentModel(connection),
          visitorConsents,
          policyVersion: config.COOKIE_POLICY_VERSION,
        },
      ),
      erasure: complianceErasure(connection),
      consumers: [saga.consumer],
      // An admin may read another user's data (User.cookieConsent); the user service says who is one.
      accessSources: (token) => ({ role: roleFromUserService(config, token) }),
      onStop: () => Promise.all([saga.stop(), visitorConsentSweep.stop()]).then(() => undefined),
    };
  },
});

if (require.main === module) runMain('compliance', startComplianceService);
