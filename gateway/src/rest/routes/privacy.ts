/** Consent and data rights (the compliance service). */
import { pick, type RestRoute, type Json } from './types';

const consentFields = 'necessary analytics marketing preferences consentGivenAt policyVersion';

/**
 * The cookie choice, for signed-in users and visitors alike (a visitor's is kept under the gateway's consent
 * cookie, session.ts). 404 until a choice is recorded, as the spec's banner expects.
 */
const cookieConsentRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/gdpr/cookie-consent',
    operation: `query CookieConsent { cookieConsent { ${consentFields} } }`,
    reply: (data) => (data.cookieConsent as Json | null) ?? null,
    whenNull: { status: 404, message: 'No cookie choice has been recorded yet' },
  },
  {
    method: 'POST',
    path: '/api/gdpr/cookie-consent',
    operation: `mutation SaveCookieConsent($input: CookieConsentInput!) {
      saveCookieConsent(input: $input) { ${consentFields} } }`,
    variables: (body) => ({ input: pick(body, ['necessary', 'analytics', 'marketing', 'preferences']) }),
    reply: (data) => data.saveCookieConsent as Json,
  },
];

export const privacyRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/gdpr/config',
    operation: 'query GdprConfig { gdprConfig { gdprEnabled cookieBannerEnabled enhancedConsentEnabled } }',
    reply: (data) => data.gdprConfig as Json,
  },
  ...cookieConsentRoutes,
];
