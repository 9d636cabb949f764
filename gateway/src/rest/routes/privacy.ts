/** Consent and data rights (the compliance service; the export joins every service's part). */
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
import { pick, restRoute, signedIn, type Json, type RestRoute } from './types';

/** The one file name of the data export (a JSON download with a fixed file name). */
export const dataExportFileName = 'haven-data-export.json';

/** The services' parts of the export, in the order the file lists their sections (each `User.<service>Export`). */
export const dataExportParts = [
  'accountExport',
  'quoteExport',
  'billingExport',
  'notificationExport',
  'complianceExport',
] as const;

/**
 * Everything Haven stores about the caller, in one federated query on `User` (privacy.graphql): each service
 * answers its own part, so the gateway knows none of the export's fields.
 */
export const dataExportOperation = print(DataExportDocument);

/**
 * The export file: its format and time, then each part's sections as the services wrote them. Two parts naming
 * the same section, or a part that is not a JSON object, is a service's mistake: it throws rather than let one
 * part overwrite another.
 */
export function joinDataExport(parts: ReadonlyArray<{ sections: string }>, exportedAt: Date): Json {
  const file: Json = { format: 'haven-data-export/2', exportedAt: exportedAt.toISOString() };
  parts.forEach((part, index) => {
    const sections = jsonObjectOf(part.sections);
    if (!sections) throw new Error(`Data export part ${index} is not a JSON object`);
    for (const [name, section] of Object.entries(sections)) {
      // `format` and `exportedAt` are the file's own: a part naming one collides as two parts would.
      if (Object.hasOwn(file, name)) throw new Error(`Data export section "${name}" is named twice`);
      file[name] = section;
    }
  });
  return file;
}

function jsonObjectOf(text: string): Json | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

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
