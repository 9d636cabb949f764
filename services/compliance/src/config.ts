import {
  baseConfigShape,
  billingServiceConfigShape,
  booleanFromEnv,
  reauthConfigShape,
  userServiceConfigShape,
} from '@haven/platform';
import { z } from 'zod';

/** The compliance service's environment, described in docs/configuration.md (`make docs`). */
export const complianceConfigShape = {
  ...baseConfigShape('compliance'),
  ...userServiceConfigShape,
  ...billingServiceConfigShape,
  ...reauthConfigShape,
  GDPR_ENABLED: booleanFromEnv
    .default(true)
    .describe('GDPR features (consent, the GDPR card); data export and deletion work either way'),
  COOKIE_BANNER_ENABLED: booleanFromEnv.default(true).describe('show the cookie-consent banner'),
  ENHANCED_CONSENT_ENABLED: booleanFromEnv.default(false).describe('enhanced consent mode'),
  /** The cookie policy's version: a choice made under another one no longer hides the banner. */
  COOKIE_POLICY_VERSION: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .default('2025-01-28')
    .describe(
      "the cookie policy's version, stored with each choice; a choice made under another version no longer hides the banner",
    ),
  /** How often the deletion sweep runs (interrupted requests, services that have not answered). */
  ERASURE_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(60_000)
    .describe('how often unfinished account deletions are looked at'),
  /** A pending deletion is asked again of the services that have not answered after this long. */
  ERASURE_RETRY_AFTER_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60_000)
    .describe('a deletion is asked again of services that have not confirmed'),
};
