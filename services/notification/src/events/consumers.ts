import { canonicalEmail, linkTokenOf, type ConsumerSpec } from '@haven/platform';
import { topicOf } from '@haven/proto';
import type { Model } from 'mongoose';
import { renderConfirmationEmail } from '../domain/newsletter-emails';
import { renderVerificationEmail } from '../domain/verification-email';
import type { KnownUserRecord } from '../model/known-user';
import type { WeeklyCheckInsRecord } from '../model/weekly-check-ins';
import { subscribe, type NewsletterStore } from '../model/newsletter';
import type { Mailer } from '../providers/mailer';
import type { NewsletterFanOut } from './newsletter-fanout';

export interface NotificationHandlersDeps {
  mailer: Mailer;
  appUrl: string;
  productName: string;
  store: NewsletterStore;
  knownUsers: Model<KnownUserRecord>;
  /** The weekly summary's check-in tallies (erased with the user). */
  tallies: Model<WeeklyCheckInsRecord>;
  fanOut: NewsletterFanOut;
  /** Partitions of the fan-out handled at once (default 3). */
  deliveryConcurrency?: number;
}

/**
 * Where each kind of e-mail registers its consumer: one line per file in this folder
 * (security e-mails, billing e-mails, …), each a function of the shared dependencies.
 */
const emailConsumers: Array<(deps: NotificationHandlersDeps) => ConsumerSpec> = [
  accountConsumer,
  newsletterDeliveryConsumer,
];

/** What the notification service reacts to. */
export function notificationConsumers(deps: NotificationHandlersDeps): ConsumerSpec[] {
  return emailConsumers.map((consumer) => consumer(deps));
}

/**
 * The account's own e-mails, the user projection (address, verified, time zone) and the newsletter's
 * confirmation link.
 */
function accountConsumer(deps: NotificationHandlersDeps): ConsumerSpec {
  const sendVerification = async (
    { eventId, occurredAt }: { eventId: string; occurredAt: Date },
    user: { userId: string; email: string; firstName: string; token: string },
  ) => {
    const email = renderVerificationEmail({
      productName: deps.productName,
      appUrl: deps.appUrl,
      token: user.token,
      firstName: user.firstName,
    });
    await deps.mailer.deliverOnce({
      eventId,
      occurredAt,
      kind: 'verify-email',
      userId: user.userId,
      to: user.email,
      email,
    });
  };
  /** Records the account's address and state; returns the address as this service keeps it. */
  const remember = async (userId: string, rawEmail: string, verified: boolean, timeZone?: string) => {
    const canonical = canonicalEmail(rawEmail);
    const email = canonical.ok ? canonical.address : rawEmail;
    const updatedAt = new Date();
    // Events from before time zones were recorded carry none: the user stays on UTC.
    const zone = timeZone ? { timeZone } : {};
    await deps.knownUsers.updateOne(
      { _id: userId },
      verified
        ? { $set: { email, emailVerified: true, updatedAt, ...zone } }
        : { $set: { email, updatedAt, ...zone }, $setOnInsert: { emailVerified: false } },
      { upsert: true },
    );
    return email;
  };
  /**
   * A person can switch the newsletter on in Settings before their account has reached this service (the
   * switch is stored at once; the account comes by event): when it arrives, the list follows the switch.
   */
  const followNewsletterSwitch = async (
    account: { userId: string; email: string; verified: boolean },
    correlationId: string,
  ) => {
    const switches = await deps.store.preferences.findById(account.userId, { newsletter: 1 }).lean();
    if (!switches?.newsletter) return;
    if (await deps.store.subscribers.exists({ userId: account.userId, status: { $ne: 'unsubscribed' } })) return;
    await subscribe(deps.store, {
      email: account.email,
      userId: account.userId,
      source: 'preferences',
      confirmed: account.verified,
      correlationId,
      keepPending: true,
    });
  };

  return {
    groupId: 'notification',
    topics: [topicOf('user'), topicOf('notification')],
    handlers: {
      'user.registered': async (event, { eventId, occurredAt, correlationId, log }) => {
        // Sign-ups through Google or the hosted platform arrive verified and carry no link.
        const verified = !event.verification;
        const email = await remember(event.userId, event.email, verified, event.timeZone);
        const token = linkTokenOf(event.verification, deps.store.mailTokens, log);
        if (token) await sendVerification({ eventId, occurredAt }, { ...event, token });
        await followNewsletterSwitch({ userId: event.userId, email, verified }, correlationId);
      },
      'user.email_verification_requested': async (event, { eventId, occurredAt, log }) => {
        const token = linkTokenOf(event.verification, deps.store.mailTokens, log);
        if (token) await sendVerification({ eventId, occurredAt }, { ...event, token });
      },
      'user.email_verified': async (event) => {
        await remember(event.userId, event.email, true);
      },
      // The user's events share a partition, so the account is known by the time its zone changes.
      'user.profile_updated': async (event) => {
        if (!event.timeZone) return;
        await deps.knownUsers.updateOne({ _id: event.userId }, { $set: { timeZone: event.timeZone } });
      },
      // The account's new address is the one its e-mails (and its erasure) follow.
      'user.email_changed': async (event) => {
        await remember(event.userId, event.newEmail, true);
      },
      'notification.newsletter_confirmation_requested': async (event, { eventId, occurredAt, log }) => {
        const token = linkTokenOf(event, deps.store.mailTokens, log);
        if (!token) return;
        // The subscriber's own record holds the address (events from before carried it); gone: nobody to mail.
        const subscriber = await deps.store.subscribers.findById(event.subscriberId, { email: 1 }).lean();
        const to = subscriber?.email ?? event.email;
        if (!to) return;
        const email = renderConfirmationEmail({ productName: deps.productName, appUrl: deps.appUrl, token });
        await deps.mailer.deliverOnce({
          eventId,
          occurredAt,
          kind: 'newsletter-confirmation',
          userId: event.subscriberId,
          to,
          email,
        });
      },
    },
  };
}

/**
 * The newsletter's fan-out in a group of its own, so a large send never holds up a verification
 * e-mail; a few partitions at a time, each handler heartbeating while the SMTP server is slow.
 */
function newsletterDeliveryConsumer(deps: NotificationHandlersDeps): ConsumerSpec {
  return {
    groupId: 'notification-newsletter',
    topics: [topicOf('notification')],
    partitionsConsumedConcurrently: deps.deliveryConcurrency ?? 3,
    handlers: {
      'notification.newsletter_batch_requested': (event, context) => deps.fanOut.expand(event, context),
      'notification.newsletter_page_requested': (event, context) => deps.fanOut.deliverPage(event, context),
      // Per-copy events from before pages (a send in flight during the upgrade).
      'notification.newsletter_delivery_requested': (event, context) => deps.fanOut.deliver(event, context),
    },
  };
}
