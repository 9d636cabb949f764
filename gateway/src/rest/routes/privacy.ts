/** Consent and data rights (the compliance service; the export gathers every service's part). */
import { safetyPlanSectionKeys } from '@haven/platform';
import { pick, signedIn, userFields, type Json, type RestRoute } from './types';

/** The one file name of the data export (spec: "a JSON download with a fixed file name"). */
export const dataExportFileName = 'haven-data-export.json';

const consentFields = 'necessary analytics marketing preferences consentGivenAt policyVersion';

const quoteRatings =
  'stressLevel confidenceLevel focusClarity motivationLevel anxietyLevel connectionWithOthers supportSystemStrength senseOfPurpose progressTowardGoals hopeForFuture sleepQuality physicalComfort currentChallengeLevel gratitudeLevels urgencyOfNeed';

const safetyPlanFields = safetyPlanSectionKeys.join(' ');

/**
 * Everything Haven stores about the caller, in one federated query on `User` (each service answers its
 * part).
 */
export const dataExportOperation = `query DataExport { me {
  ${userFields} timeZone role authProvider
  signInMethods { kind email linkedAt }
  cookieConsent { ${consentFields} }
  sessions { id createdAt expiresAt current }
  safetyPlan { ${safetyPlanFields} updatedAt }
  quoteData {
    checkIns { id createdAt timeOfDay notes ratings { ${quoteRatings} } }
    quotes { id checkInId text createdAt timeOfDay isFavorite editedAt }
    insights { id insightType insightText createdAt }
    progress { entries averageMood currentStreak longestStreak }
    timeZone
    privacySettings { allowInsights keepNotes }
  }
  billingData {
    provider startedAt trialUsed customerId subscriptionId paymentMethodId billingEmail
    subscriptionStatus { planType status isTrialing needsSetup hasActiveSubscription trialEnd currentPeriodEnd cancelAtPeriodEnd }
    history { event at status trialEnd currentPeriodEnd cancelAtPeriodEnd }
  }
  notificationData {
    address timeZone consentGivenAt
    weeklyTally { date checkIns moodSum }
    emailPreferences { marketingEmails productUpdates securityNotifications newsletter weeklySummary checkInReminder reminderHour }
    newsletterSubscriptions { email status source subscribedAt confirmedAt unsubscribedAt }
    deliveries { kind to status at }
  }
} }`;

/** The export file's shape: grouped the way a person reads it, every field as the services answered. */
export function dataExportOf(me: Json, exportedAt: Date): Json {
  const quote = me.quoteData as Json;
  const billing = me.billingData as Json;
  const notification = me.notificationData as Json;
  const {
    quoteData: _quote,
    billingData: _billing,
    notificationData: _notification,
    cookieConsent: _cookies,
    safetyPlan,
    ...account
  } = me;
  const quotes = quote.quotes as Array<Json>;
  return {
    format: 'haven-data-export/1',
    exportedAt: exportedAt.toISOString(),
    account,
    checkIns: quote.checkIns,
    quotes,
    favorites: quotes.filter((each) => each.isFavorite).map((each) => each.id),
    insights: quote.insights,
    progress: quote.progress,
    privacySettings: quote.privacySettings,
    safetyPlan: safetyPlan ?? null,
    billing: {
      provider: billing.provider,
      subscription: {
        ...(billing.subscriptionStatus as Json),
        startedAt: billing.startedAt,
        trialUsed: billing.trialUsed,
        subscriptionId: billing.subscriptionId,
        paymentMethodId: billing.paymentMethodId,
        history: billing.history,
      },
      customer: { customerId: billing.customerId, billingEmail: billing.billingEmail },
      cardData: 'Haven stores no card details: your card is held by the payment provider.',
    },
    emailPreferences: {
      ...(notification.emailPreferences as Json),
      address: notification.address,
      timeZone: notification.timeZone,
      consentGivenAt: notification.consentGivenAt,
    },
    newsletter: { subscriptions: notification.newsletterSubscriptions },
    emails: { deliveries: notification.deliveries, weeklySummaryTally: notification.weeklyTally },
    consents: {
      email: { consentGivenAt: notification.consentGivenAt },
      cookies: me.cookieConsent ?? null,
    },
  };
}

const privacySettingsFields = 'allowInsights keepNotes';

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
  {
    method: 'GET',
    path: '/api/user/data-export',
    operation: dataExportOperation,
    reply: (data) => {
      const me = signedIn(data);
      return me ? dataExportOf(me, new Date()) : null;
    },
    download: (reply) => ({
      fileName: dataExportFileName,
      type: 'application/json',
      body: `${JSON.stringify(reply, null, 2)}\n`,
    }),
  },
  {
    method: 'DELETE',
    path: '/api/user/delete-account',
    operation: 'mutation DeleteAccount { deleteAccount { message requestId status } }',
    reply: (data) => data.deleteAccount as Json,
  },
  {
    method: 'GET',
    path: '/api/user/privacy-settings',
    operation: `query PrivacySettings { me { privacySettings { ${privacySettingsFields} } } }`,
    reply: (data) => (signedIn(data)?.privacySettings as Json | undefined) ?? null,
  },
  {
    method: 'POST',
    path: '/api/user/privacy-settings',
    operation: `mutation UpdatePrivacySettings($input: PrivacySettingsInput!) {
      updatePrivacySettings(input: $input) { ${privacySettingsFields} } }`,
    variables: (body) => ({ input: pick(body, ['allowInsights', 'keepNotes']) }),
    reply: (data) => ({ message: 'Privacy settings saved', privacySettings: data.updatePrivacySettings as Json }),
  },
  ...cookieConsentRoutes,
];
