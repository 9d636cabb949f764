/** Consent and data rights (the compliance service). */
import type { RestRoute, Json } from './types';

export const privacyRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/gdpr/config',
    operation: 'query GdprConfig { gdprConfig { gdprEnabled cookieBannerEnabled enhancedConsentEnabled } }',
    reply: (data) => data.gdprConfig as Json,
  },
];
