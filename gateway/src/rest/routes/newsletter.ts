/** The newsletter and e-mail preferences (the notification service). */
import { newsletterBodyMaxBytes, newsletterContentMaxLength } from '@haven/platform';
import { pick, signedIn, type RestRoute, type Json } from './types';

// The four first switches, then the weekly summary and the check-in reminder with its hour (added later, so
// optional in the body).
const preferenceFields =
  'marketingEmails productUpdates securityNotifications newsletter weeklySummary checkInReminder reminderHour';

/** The routes that take a whole newsletter admit the largest valid one, however its characters are spelled. */
const newsletterBodyLimit = {
  bytes: newsletterBodyMaxBytes,
  field: 'content',
  message: `The newsletter is too long to send: the content can be at most ${new Intl.NumberFormat('en-GB').format(newsletterContentMaxLength)} characters.`,
};

/** A token from the query string; a missing or repeated one becomes "" (refused as invalid, 400). */
const tokenOf = (query: Json) => ({ token: typeof query.token === 'string' ? query.token : '' });

export const newsletterRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/api/newsletter/subscribe',
    operation: `mutation SubscribeToNewsletter($input: NewsletterSubscribeInput!) {
      subscribeToNewsletter(input: $input) { message } }`,
    variables: (body) => ({ input: pick(body, ['email', 'userId', 'subscriptionSource']) }),
    reply: (data) => data.subscribeToNewsletter as Json,
  },
  {
    method: 'GET',
    path: '/api/newsletter/confirm',
    operation: `mutation ConfirmNewsletter($token: String!) {
      confirmNewsletterSubscription(token: $token) { confirmed message } }`,
    variables: (_body, { query }) => tokenOf(query),
    reply: (data) => data.confirmNewsletterSubscription as Json,
  },
  {
    method: 'GET',
    path: '/api/newsletter/unsubscribe',
    operation: `mutation UnsubscribeByToken($token: String!) {
      unsubscribeFromNewsletterByToken(token: $token) { unsubscribed message } }`,
    variables: (_body, { query }) => tokenOf(query),
    reply: (data) => data.unsubscribeFromNewsletterByToken as Json,
  },
  {
    method: 'POST',
    path: '/api/newsletter/unsubscribe',
    operation: `mutation UnsubscribeByEmail($email: String!) {
      unsubscribeFromNewsletterByEmail(email: $email) { unsubscribed message } }`,
    variables: (body) => pick(body, ['email']),
    reply: (data) => data.unsubscribeFromNewsletterByEmail as Json,
  },
  {
    method: 'GET',
    path: '/api/admin/newsletter/stats',
    operation: `query NewsletterStats { newsletterStats {
      total active pending lastCampaign { id subject recipients sent failed createdAt } } }`,
    reply: (data) => data.newsletterStats as Json,
  },
  {
    method: 'POST',
    path: '/api/newsletter/send',
    operation: `mutation SendNewsletter($subject: String!, $content: String!) {
      sendNewsletter(subject: $subject, content: $content) { sentCount } }`,
    variables: (body) => pick(body, ['subject', 'content']),
    reply: (data) => data.sendNewsletter as Json,
    bodyLimit: newsletterBodyLimit,
  },
  {
    method: 'POST',
    path: '/api/admin/newsletter/test',
    operation: `mutation SendTestNewsletter($subject: String!, $content: String!) {
      sendTestNewsletter(subject: $subject, content: $content) { sentTo } }`,
    variables: (body) => pick(body, ['subject', 'content']),
    reply: (data) => data.sendTestNewsletter as Json,
    bodyLimit: newsletterBodyLimit,
  },
  {
    method: 'GET',
    path: '/api/admin/newsletter/audience',
    operation: 'query NewsletterAudience { newsletterAudience { activeSubscribers } }',
    reply: (data) => data.newsletterAudience as Json,
  },
  {
    method: 'GET',
    path: '/api/admin/export-subscribers',
    operation: 'query ExportSubscribers { newsletterSubscribersExport { fileName csv } }',
    reply: (data) => data.newsletterSubscribersExport as Json,
    download: (reply) => ({ fileName: String(reply.fileName), type: 'text/csv', body: String(reply.csv) }),
  },
  {
    method: 'GET',
    path: '/api/user/email-preferences',
    operation: `query EmailPreferences { me { emailVerified emailPreferences { ${preferenceFields} }
      emailConsent { consentGivenAt } } }`,
    reply: (data) => {
      const me = signedIn(data);
      if (!me) return null;
      const consent = me.emailConsent as Json;
      return {
        preferences: me.emailPreferences as Json,
        consentStatus: { emailVerified: me.emailVerified, consentGivenAt: consent.consentGivenAt },
      };
    },
  },
  {
    method: 'POST',
    path: '/api/user/email-preferences',
    operation: `mutation UpdateEmailPreferences($input: EmailPreferencesInput!) {
      updateEmailPreferences(input: $input) { ${preferenceFields} } }`,
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
    reply: (data) => ({ message: 'Preferences Updated', preferences: data.updateEmailPreferences as Json }),
  },
];
