/**
 * The subscriber list's operations, shared by the GraphQL resolvers, the one-click route and the
 * preference switch, so the list and each user's `newsletter` preference always move together.
 */
import { isDuplicateKeyError, recordEvent, type MailTokenSealer } from '@haven/platform';
import mongoose, { type Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { hashToken, newConfirmation, subscriberOfUnsubscribeToken } from '../domain/newsletter';
import { defaultEmailPreferences } from '../domain/preferences';
import type { PreferencesRecord } from './preferences';
import type { SubscriberRecord } from './subscriber';

export interface NewsletterStore {
  subscribers: Model<SubscriberRecord>;
  preferences: Model<PreferencesRecord>;
  /** Called after a write that recorded events (the outbox relay publishes them now). */
  publishSoon(): void;
  /** Seals a confirmation link's token for the mailer, and opens it there. */
  mailTokens: MailTokenSealer;
}

/** Keeps the linked user's `newsletter` switch equal to the list (no document = defaults, newsletter off). */
async function setNewsletterPreference(store: NewsletterStore, userId: string | null, on: boolean): Promise<void> {
  if (!userId) return;
  const now = new Date();
  const { newsletter: _omitted, ...others } = defaultEmailPreferences;
  await store.preferences.updateOne(
    { _id: userId },
    { $set: { newsletter: on, updatedAt: now }, $setOnInsert: { ...others } },
    { upsert: true },
  );
}

/**
 * Puts an address on the list. `confirmed`: a verified account owner turning the newsletter on needs no
 * link; anyone else becomes (or stays) pending and gets a fresh confirmation e-mail. An address already
 * active stays as it is and gets nothing: the caller answers the same either way.
 */
export async function subscribe(
  store: NewsletterStore,
  input: {
    email: string;
    userId: string | null;
    source: string;
    confirmed: boolean;
    correlationId: string;
    /**
     * Leave a pending subscription whose link still works as it is (no second confirmation, whose new token would
     * void the one just mailed): the newsletter switch is followed both by its own request and by the account's
     * arrival, and whichever comes second must not undo the first.
     */
    keepPending?: boolean;
  },
): Promise<void> {
  const now = new Date();
  for (let attempt = 1; ; attempt += 1) {
    const existing = await store.subscribers.findOne({ email: input.email }).select('+outbox');
    if (input.keepPending && existing?.status === 'pending' && (existing.confirmExpiresAt ?? now) > now) return;
    if (existing?.status === 'active') {
      if (input.userId && !existing.userId) {
        await store.subscribers.updateOne({ _id: existing._id }, { $set: { userId: input.userId } });
      }
      await setNewsletterPreference(store, existing.userId ?? input.userId, true);
      return;
    }
    // Saved only over the state read here: two changes racing (the switch and the account's arrival) would
    // otherwise both mail a link, and the second token would void the first e-mail's link.
    const asRead = existing ? { status: existing.status, outboxVersion: existing.outboxVersion } : null;
    const confirmation = input.confirmed ? null : newConfirmation(now);
    const doc =
      existing ??
      new store.subscribers({
        _id: randomUUID(),
        email: input.email,
        userId: input.userId,
        source: input.source,
        createdAt: now,
      });
    doc.set({
      status: input.confirmed ? 'active' : 'pending',
      userId: doc.userId ?? input.userId,
      confirmTokenHash: confirmation?.tokenHash ?? null,
      confirmExpiresAt: confirmation?.expiresAt ?? null,
      confirmedAt: input.confirmed ? now : null,
      unsubscribedAt: null,
    });
    if (confirmation) {
      recordEvent(doc, {
        type: 'notification.newsletter_confirmation_requested',
        producer: 'notification',
        subjectId: doc._id,
        correlationId: input.correlationId,
        // No address: the mailer reads it from the subscriber's own record, so the topic never holds it.
        payload: { subscriberId: doc._id, sealedToken: store.mailTokens.seal(confirmation.token) },
      });
    }
    if (asRead) doc.$where = { ...doc.$where, ...asRead };
    try {
      await doc.save();
    } catch (error) {
      // Two first sign-ups of one address raced, or another change came first: read again and decide anew.
      const raced = isDuplicateKeyError(error) || error instanceof mongoose.Error.DocumentNotFoundError;
      if (raced && attempt < 3) continue;
      throw error;
    }
    if (confirmation) store.publishSoon();
    if (input.confirmed) await setNewsletterPreference(store, doc.userId, true);
    return;
  }
}

/** Uses a confirmation token once; false for an unknown, used or expired one. */
export async function confirm(store: NewsletterStore, token: string): Promise<boolean> {
  const now = new Date();
  const subscriber = await store.subscribers.findOneAndUpdate(
    { confirmTokenHash: hashToken(token), status: 'pending', confirmExpiresAt: { $gt: now } },
    { $set: { status: 'active', confirmedAt: now, confirmTokenHash: null, confirmExpiresAt: null } },
    { returnDocument: 'after' },
  );
  if (!subscriber) return false;
  await setNewsletterPreference(store, subscriber.userId, true);
  return true;
}

/** Takes one subscriber off the list; a second time changes nothing. */
async function unsubscribeWhere(store: NewsletterStore, filter: Record<string, unknown>): Promise<boolean> {
  const subscriber = await store.subscribers.findOne(filter);
  if (!subscriber) return false;
  if (subscriber.status !== 'unsubscribed') {
    await store.subscribers.updateOne(
      { _id: subscriber._id },
      { $set: { status: 'unsubscribed', unsubscribedAt: new Date(), confirmTokenHash: null, confirmExpiresAt: null } },
    );
    await setNewsletterPreference(store, subscriber.userId, false);
  }
  return true;
}

/**
 * By the personal link's token (signed under `linkKey`): false when this service did not sign it. A signed link
 * whose subscriber is gone (deleted a month after unsubscribing, or erased) names nobody on the list, so it
 * answers as its first click did.
 */
export async function unsubscribeByToken(store: NewsletterStore, linkKey: Buffer, token: unknown): Promise<boolean> {
  const subscriberId = subscriberOfUnsubscribeToken(linkKey, token);
  if (subscriberId === null) return false;
  await unsubscribeWhere(store, { _id: subscriberId });
  return true;
}

/** By address (the public form): the caller answers the same whether or not it was on the list. */
export const unsubscribeByEmail = (store: NewsletterStore, email: string) => unsubscribeWhere(store, { email });

/** The account's switch turned off: the list follows, whichever address the user subscribed with. */
export async function unsubscribeUser(store: NewsletterStore, userId: string, email: string | null): Promise<void> {
  const linked = await store.subscribers.find({ userId, status: { $ne: 'unsubscribed' } }).lean();
  for (const subscriber of linked) await unsubscribeWhere(store, { _id: subscriber._id });
  if (email) await unsubscribeWhere(store, { email, status: { $ne: 'unsubscribed' } });
}
