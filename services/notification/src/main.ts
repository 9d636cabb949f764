import {
  roleFromUserService,
  defineService,
  erasureKey,
  mailTokenKey,
  mailTokenSealer,
  personKeyring,
  personKeysFromUserService,
  runMain,
  runPeriodically,
} from '@haven/platform';
import { notificationConfigShape } from './config';
import { billingEmailConsumer } from './events/billing-emails';
import { notificationErasure } from './events/erasure';
import { notificationConsumers } from './events/consumers';
import { oneClickHttpRoutes } from './http/routes';
import { securityEmailConsumers } from './events/security-emails';
import { createMailer, createTransport, mailMetrics } from './providers/mailer';
import { ensureFanOutPartitions, fanOutPartitions, newsletterFanOut } from './events/newsletter-fanout';
import { checkInReminderSender } from './jobs/check-in-reminders';
import { startRetentionSweep } from './jobs/retention-sweep';
import { startScheduledEmails } from './jobs/scheduled-emails';
import { campaignModel } from './model/campaign';
import { deliveryModel } from './model/delivery';
import { knownUserModel } from './model/known-user';
import { preferencesModel } from './model/preferences';
import { forgetStoredUnsubscribeTokens, subscriberModel } from './model/subscriber';
import { weeklyCheckInsModel } from './model/weekly-check-ins';
import { weeklySummaryConsumer } from './events/weekly-summary';
import { weeklySummarySender } from './jobs/weekly-summary';
import { notificationResolvers } from './resolvers';

/** The notification service: every e-mail Haven sends, users' e-mail preferences and the newsletter. */
export const startNotificationService = defineService({
  name: 'notification',
  configShape: notificationConfigShape,
  dir: __dirname,
  build: async ({ connection, config, log, kafka, publishSoon, metrics }) => {
    await ensureFanOutPartitions(kafka, log);
    const transport = createTransport({
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      user: config.SMTP_USER,
      pass: config.SMTP_PASS,
      from: config.MAIL_FROM,
      maxConnections: config.SMTP_MAX_CONNECTIONS,
    });
    const deliveries = deliveryModel(connection);
    const mailer = createMailer(transport, config.MAIL_FROM, deliveries, log, {
      claimLeaseMs: config.NEWSLETTER_CLAIM_LEASE_MS,
      metrics: mailMetrics(metrics),
    });
    const subscribers = subscriberModel(connection);
    const campaigns = campaignModel(connection);
    const knownUsers = knownUserModel(connection);
    const tallies = weeklyCheckInsModel(connection);
    const mailTokens = mailTokenSealer(mailTokenKey(config));
    const keyring = personKeyring(personKeysFromUserService(config));
    const store = { subscribers, preferences: preferencesModel(connection), publishSoon, mailTokens };
    // Derived like the erasure records' key, for its own purpose: the MAC of the links in e-mails (stop links,
    // newsletter unsubscribe links). Its label predates the unsubscribe links; changing it would void every link sent.
    const linkKey = erasureKey('notification:stop-links', config);
    await forgetStoredUnsubscribeTokens(subscribers);
    const fanOut = newsletterFanOut({
      kafka,
      campaigns,
      subscribers,
      deliveries,
      mailer,
      appUrl: config.APP_URL,
      productName: config.PRODUCT_NAME,
      linkKey,
      log,
      stalledAfterMs: config.NEWSLETTER_STALLED_AFTER_MS,
    });
    const newsletterSweep = runPeriodically(() => fanOut.sweep(), {
      intervalMs: config.NEWSLETTER_SWEEP_INTERVAL_MS,
      log,
      what: 'newsletter sweep',
      lease: { db: connection, name: 'newsletter-sweep' },
    });
    // The scheduled e-mails: one replica runs each job's passes (its lease); the delivery log's claims let one
    // copy out should two passes ever overlap.
    const scheduledEmailDeps = {
      tallies,
      keyring,
      knownUsers,
      preferences: store.preferences,
      deliveries,
      mailer,
      appUrl: config.APP_URL,
      productName: config.PRODUCT_NAME,
      linkKey,
      log,
    };
    const weeklySummaries = startScheduledEmails(weeklySummarySender(scheduledEmailDeps), {
      intervalMs: config.WEEKLY_SUMMARY_INTERVAL_MS,
      log,
      what: 'weekly summary',
      lease: { db: connection, name: 'weekly-summary' },
    });
    const checkInReminders = startScheduledEmails(checkInReminderSender(scheduledEmailDeps), {
      intervalMs: config.CHECK_IN_REMINDER_INTERVAL_MS,
      log,
      what: 'check-in reminder',
      lease: { db: connection, name: 'check-in-reminder' },
    });
    const retentionSweep = startRetentionSweep(
      { deliveries, campaigns, subscribers },
      { intervalMs: config.RETENTION_SWEEP_INTERVAL_MS, log },
    );
    const models = { ...store, campaigns, deliveries, knownUsers, tallies, keyring };
    return {
      resolvers: notificationResolvers(models, {
        mailer,
        appUrl: config.APP_URL,
        productName: config.PRODUCT_NAME,
        linkKey,
      }),
      erasure: notificationErasure(models),
      accessSources: (token: string) => ({ role: roleFromUserService(config, token) }),
      outboxModels: [subscribers, campaigns],
      // Events carry people's addresses and names sealed under each person's key; the mailer opens them.
      consumers: [
        ...notificationConsumers({
          mailer,
          appUrl: config.APP_URL,
          productName: config.PRODUCT_NAME,
          store,
          knownUsers,
          tallies,
          fanOut,
          deliveryConcurrency: fanOutPartitions,
        }),
        billingEmailConsumer({ mailer, appUrl: config.APP_URL, productName: config.PRODUCT_NAME }),
        weeklySummaryConsumer({ tallies, keyring, knownUsers }),
        ...securityEmailConsumers({
          mailer,
          preferences: store.preferences,
          appUrl: config.APP_URL,
          productName: config.PRODUCT_NAME,
          mailTokens,
        }),
      ].map((spec) => ({ ...spec, personKeyring: keyring })),
      httpRoutes: oneClickHttpRoutes({ ...store, knownUsers }, linkKey),
      onStop: async () => {
        await weeklySummaries.stop();
        await checkInReminders.stop();
        await newsletterSweep.stop();
        await retentionSweep.stop();
        await fanOut.close();
        mailer.close();
      },
    };
  },
});

if (require.main === module) runMain('notification', startNotificationService);
