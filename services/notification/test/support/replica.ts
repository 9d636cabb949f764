/**
 * One replica of one of the notification service's consumer groups, wired as main.ts wires it, against the
 * test's own database, Kafka and SMTP server: for tests of what two replicas, a slow mail server or a failing
 * record write do. Not a test file itself.
 */
import { EventConsumer, mailTokenKey, mailTokenSealer, type Logger } from '@haven/platform';
import type { Kafka } from 'kafkajs';
import type { Connection, Model } from 'mongoose';
import { notificationConsumers } from '../../src/events/consumers';
import { newsletterFanOut } from '../../src/events/newsletter-fanout';
import { campaignModel } from '../../src/model/campaign';
import { deliveryModel, type DeliveryRecord } from '../../src/model/delivery';
import { knownUserModel } from '../../src/model/known-user';
import { preferencesModel } from '../../src/model/preferences';
import { subscriberModel } from '../../src/model/subscriber';
import { weeklyCheckInsModel } from '../../src/model/weekly-check-ins';
import { testMailer } from './test-mailer';
import { testLinks } from './links';

/** The replicas' sealer of link tokens (no SERVICE_SECRET: the development key); events seal with it too. */
export const replicaMailTokens = mailTokenSealer(mailTokenKey({}));

export interface ReplicaOptions {
  kafka: Kafka;
  connection: Connection;
  log: Logger;
  /** The service's consumer group whose handlers this replica runs (e.g. `notification-newsletter`). */
  serviceGroup: string;
  /** The group id it joins under (a test's own, so test files do not share offsets). */
  groupId: string;
  smtpPort: number;
  deliveries?: Model<DeliveryRecord>;
  /** The fan-out's clock (its time budget per page). */
  now?: () => number;
}

export async function startNotificationReplica(options: ReplicaOptions) {
  const { kafka, connection, log } = options;
  const deliveries = options.deliveries ?? deliveryModel(connection);
  const mailer = testMailer({ port: options.smtpPort, deliveries, log });
  const subscribers = subscriberModel(connection);
  const fanOut = newsletterFanOut({
    kafka,
    campaigns: campaignModel(connection),
    subscribers,
    deliveries,
    mailer,
    ...testLinks,
    log,
    ...(options.now ? { now: options.now } : {}),
  });
  const spec = notificationConsumers({
    mailer,
    appUrl: 'http://localhost:4000',
    productName: 'Haven',
    store: {
      subscribers,
      preferences: preferencesModel(connection),
      publishSoon: () => undefined,
      mailTokens: replicaMailTokens,
    },
    knownUsers: knownUserModel(connection),
    tallies: weeklyCheckInsModel(connection),
    fanOut,
  }).find((candidate) => candidate.groupId === options.serviceGroup);
  if (!spec) throw new Error(`the notification service has no consumer group ${options.serviceGroup}`);
  const consumer = new EventConsumer({ kafka, connection, log, spec: { ...spec, groupId: options.groupId } });
  consumer.supervise();
  await consumer.ready;
  return {
    consumer,
    stop: async () => {
      await consumer.stop();
      await fanOut.close();
      mailer.close();
    },
  };
}
