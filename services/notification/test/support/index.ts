/**
 * The notification service's test support: one replica of its consumers, subscriber lists written straight into
 * its database, its mailer on its own and the links its e-mails carry. Import from here, not from the files beside it.
 */
export { replicaMailTokens, startNotificationReplica, type ReplicaOptions } from './replica';
export {
  deliveryLogSettled,
  seedSubscribers,
  signedInAdmin,
  subscriberDocument,
  type SeededStatus,
} from './subscribers';
export { testMailer, type TestMailerOptions } from './test-mailer';
export { testLinks } from './links';
