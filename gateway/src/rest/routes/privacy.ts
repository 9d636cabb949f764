/** Consent and data rights (the compliance service; the export joins every service's part). */
import { dataExportFileName, dataExportParts, joinDataExport } from '@haven/domain';
import { print } from 'graphql';
import {
  CookieConsentDocument,
  DataExportDocument,
  DeleteAccountDocument,
  GdprConfigDocument,
  PrivacySettingsDocument,
  SaveCookieConsentDocument,
  UpdatePrivacySettingsDocument,
} from './privacy.generated';
import { pick, restRoute, signedIn, type RestRoute } from './types';

/**
 * Everything Haven stores about the caller, in one federated query on `User` (privacy.graphql): each service
 * answers its own part, so the gateway knows none of the export's fields.
 */
export const dataExportOperation = print(DataExportDocument);

/**
 * The cookie choice, for signed-in users and visitors alike (a visitor's is kept under the gateway's consent
 * cookie, session.ts). 404 until a choice is recorded, as the web app's cookie banner expects.
 */
const cookieConsentRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    path: '/api/gdpr/cookie-consent',
    document: CookieConsentDocument,
    reply: (data) => data.cookieConsent ?? null,
    whenNull: { status: 404, message: 'No cookie choice has been recorded yet' },
  }),
  restRoute({
    method: 'POST',
    path: '/api/gdpr/cookie-consent',
    document: SaveCookieConsentDocument,
    variables: (body) => ({ input: pick(body, ['necessary', 'analytics', 'marketing', 'preferences']) }),
    reply: (data) => data.saveCookieConsent,
  }),
];

export const privacyRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    path: '/api/gdpr/config',
    document: GdprConfigDocument,
    reply: (data) => data.gdprConfig,
  }),
  restRoute({
    method: 'GET',
    path: '/api/user/data-export',
    document: DataExportDocument,
    reply: (data) => {
      const me = signedIn(data);
      return me
        ? joinDataExport(
            dataExportParts.map((part) => me[part]),
            new Date(),
          )
        : null;
    },
    download: (reply) => ({
      fileName: dataExportFileName,
      type: 'application/json',
      body: `${JSON.stringify(reply, null, 2)}\n`,
    }),
  }),
  restRoute({
    method: 'DELETE',
    path: '/api/user/delete-account',
    document: DeleteAccountDocument,
    reply: (data) => data.deleteAccount,
  }),
  restRoute({
    method: 'GET',
    path: '/api/user/privacy-settings',
    document: PrivacySettingsDocument,
    reply: (data) => signedIn(data)?.privacySettings ?? null,
  }),
  restRoute({
    method: 'POST',
    path: '/api/user/privacy-settings',
    document: UpdatePrivacySettingsDocument,
    variables: (body) => ({ input: pick(body, ['allowInsights', 'keepNotes']) }),
    reply: (data) => ({ message: 'Privacy settings saved', privacySettings: data.updatePrivacySettings }),
  }),
  ...cookieConsentRoutes,
];
