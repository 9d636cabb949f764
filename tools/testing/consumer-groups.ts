import { serviceNames } from '@haven/platform';
import { producerServices, topicOf } from '@haven/proto';

/** The consumer groups of Haven's services and the topics each reads. */
export const havenConsumerGroups: Record<string, string[]> = {
  notification: [topicOf('user'), topicOf('notification')],
  'notification-newsletter': [topicOf('notification')],
  'notification-billing': [topicOf('billing')],
  'notification-security': [topicOf('user')],
  'quote-time-zones': [topicOf('user')],
  'quote-entitlements': [topicOf('billing')],
  'compliance-saga': producerServices.map((service) => topicOf(service)),
  ...Object.fromEntries(serviceNames.map((service) => [`${service}-erasure`, [topicOf('compliance')]])),
};
