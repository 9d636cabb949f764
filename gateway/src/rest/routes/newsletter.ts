/** The newsletter and e-mail preferences (the notification service). */
import { newsletterBodyMaxBytes, newsletterContentMaxLength } from '@haven/domain';
import {
  ConfirmNewsletterDocument,
  EmailPreferencesDocument,
  ExportSubscribersDocument,
  NewsletterAudienceDocument,
  NewsletterStatsDocument,
  SendNewsletterDocument,
  SendTestNewsletterDocument,
  SubscribeToNewsletterDocument,
  UnsubscribeByEmailDocument,
  UnsubscribeByTokenDocument,
  UpdateEmailPreferencesDocument,
} from './newsletter.generated';
import { pick, restRoute, signedIn, type Json, type RestRoute } from './types';

/** The routes that take a whole newsletter admit the largest valid one, however its characters are spelled. */
const newsletterBodyLimit = {
  bytes: newsletterBodyMaxBytes,
  field: 'content',
  message: `The newsletter is too long to send: the content can be at most ${new Intl.NumberFormat('en-GB').format(newsletterContentMaxLength)} characters.`,
};

/** A token from the query string; a missing or repeated one becomes "" (refused as invalid, 400). */
const tokenOf = (query: Json) => ({ token: typeof query.token === 'string' ? query.token : '' });

export const newsletterRoutes: RestRoute[] = [
  restRoute({
    method: 'POST',
    path: '/api/newsletter/subscribe',
    document: SubscribeToNewsletterDocument,
    variables: (body) => ({ input: pick(body, ['email', 'userId', 'subscriptionSource']) }),
    reply: (data) => data.subscribeToNewsletter,
  }),
  restRoute({
    method: 'GET',
    path: '/api/newsletter/confirm',
    document: ConfirmNewsletterDocument,
    variables: (_body, { query }) => tokenOf(query),
    reply: (data) => data.confirmNewsletterSubscription,
  }),
  restRoute({
    method: 'GET',
    path: '/api/newsletter/unsubscribe',
    document: UnsubscribeByTokenDocument,
    variables: (_body, { query }) => tokenOf(query),
    reply: (data) => data.unsubscribeFromNewsletterByToken,
  }),
  restRoute({
    method: 'POST',
    path: '/api/newsletter/unsubscribe',
    document: UnsubscribeByEmailDocument,
    variables: (body) => pick(body, ['email']),
    reply: (data) => data.unsubscribeFromNewsletterByEmail,
  }),
  restRoute({
    method: 'GET',
    path: '/api/admin/newsletter/stats',
    document: NewsletterStatsDocument,
    reply: (data) => data.newsletterStats,
  }),
  restRoute({
    method: 'POST',
    path: '/api/newsletter/send',
    document: SendNewsletterDocument,
    variables: (body) => pick(body, ['subject', 'content']),
    reply: (data) => data.sendNewsletter,
    bodyLimit: newsletterBodyLimit,
  }),
  restRoute({
    method: 'POST',
    path: '/api/admin/newsletter/test',
    document: SendTestNewsletterDocument,
    variables: (body) => pick(body, ['subject', 'content']),
    reply: (data) => data.sendTestNewsletter,
    bodyLimit: newsletterBodyLimit,
  }),
  restRoute({
    method: 'GET',
    path: '/api/admin/newsletter/audience',
    document: NewsletterAudienceDocument,
    reply: (data) => data.newsletterAudience,
  }),
  restRoute({
    method: 'GET',
    path: '/api/admin/export-subscribers',
    document: ExportSubscribersDocument,
    reply: (data) => data.newsletterSubscribersExport,
    download: (reply) => ({ fileName: reply.fileName, type: 'text/csv', body: reply.csv }),
  }),
  restRoute({
    method: 'GET',
    path: '/api/user/email-preferences',
    document: EmailPreferencesDocument,
    reply: (data) => {
      const me = signedIn(data);
      if (!me) return null;
      return {
        preferences: me.emailPreferences,
        consentStatus: { emailVerified: me.emailVerified, consentGivenAt: me.emailConsent.consentGivenAt },
      };
    },
  }),
  restRoute({
    method: 'POST',
    path: '/api/user/email-preferences',
    document: UpdateEmailPreferencesDocument,
    variables: (body) => ({
      input: pick(body, [
        'userId',
        'marketingEmails',
        'productUpdates',
        'securityNotifications',
        'newsletter',
        'weeklySummary',
        'checkInReminder',
        'reminderHour',
      ]),
    }),
    reply: (data) => ({ message: 'Preferences Updated', preferences: data.updateEmailPreferences }),
  }),
];
