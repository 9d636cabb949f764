/**
 * The newsletter fan-out. A send stores a campaign with one event (through the outbox); each
 * `newsletter_batch_requested` expands one page of active subscribers into per-recipient
 * `newsletter_delivery_requested` events (keyed by subscriber, so they spread over the partitions and the
 * group's consumers) plus the event for the next page; each delivery sends one copy, at most once per
 * (campaign, recipient) by the mailer's claim. Kafka, not a request, carries the work, so a restart
 * resumes where the committed offsets are.
 */
import { encodeEvent, topicOf, type EventType, type NewEvent } from '@haven/proto';
import { createProducer, type HandlerContext, type Logger } from '@haven/platform';
import type { Kafka, Producer } from 'kafkajs';
import type { Model } from 'mongoose';
import { renderNewsletterEmail } from '../domain/newsletter-emails';
import type { CampaignRecord } from '../model/campaign';
import type { SubscriberRecord } from '../model/subscriber';
import type { Mailer } from './mailer';

export const fanOutPageSize = 500;
/** Partitions of the notification topic: the most consumers (and partitions at once) a send can use. */
export const fanOutPartitions = 12;

/**
 * Creates the notification topic with `fanOutPartitions` partitions, or adds partitions to one made
 * smaller, before the relay and the consumers would create it with the default three. Bounded and not
 * fatal: with Kafka away the service starts anyway, and the topic gets the default when it comes back.
 */
export async function ensureFanOutPartitions(kafka: Kafka, log: Logger, count = fanOutPartitions): Promise<void> {
  const topic = topicOf('notification');
  const admin = kafka.admin();
  const work = (async () => {
    await admin.connect();
    const existing = await admin.listTopics();
    if (!existing.includes(topic)) {
      await admin.createTopics({ topics: [{ topic, numPartitions: count }], waitForLeaders: true });
      return;
    }
    const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
    if ((metadata?.partitions.length ?? count) < count) {
      await admin.createPartitions({ topicPartitions: [{ topic, count }] });
    }
  })();
  const timeout = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error('timed out')), 10_000).unref();
  });
  try {
    await Promise.race([work, timeout]);
  } catch (error) {
    log.warn({ err: error, topic }, 'cannot size the notification topic for the fan-out yet; it keeps its partitions');
  } finally {
    void work.catch(() => undefined).finally(() => admin.disconnect().catch(() => undefined));
  }
}

export interface FanOutDeps {
  kafka: Kafka;
  campaigns: Model<CampaignRecord>;
  subscribers: Model<SubscriberRecord>;
  mailer: Mailer;
  appUrl: string;
  productName: string;
  pageSize?: number;
}

export function newsletterFanOut(deps: FanOutDeps) {
  let producer: Producer | null = null;
  let connected: Promise<void> | null = null;
  const publish = async (events: Array<NewEvent<EventType>>) => {
    producer ??= createProducer(deps.kafka, { idempotent: false });
    connected ??= producer.connect().catch((error: unknown) => {
      connected = null;
      throw error;
    });
    await connected;
    const encoded = events.map((event) => encodeEvent(event));
    await producer.send({
      topic: topicOf('notification'),
      acks: -1,
      messages: encoded.map((event) => ({ key: event.key, value: Buffer.from(event.value) })),
    });
  };

  // A campaign's subject and HTML do not change: kept while its deliveries run (a few at a time).
  const campaignCache = new Map<string, Pick<CampaignRecord, 'subject' | 'html'>>();
  const campaignOf = async (id: string) => {
    const cached = campaignCache.get(id);
    if (cached) return cached;
    const campaign = await deps.campaigns.findById(id, { subject: 1, html: 1 }).lean();
    if (!campaign) return null;
    if (campaignCache.size > 20) campaignCache.clear();
    campaignCache.set(id, campaign);
    return campaign;
  };

  return {
    /** Expands one page; a page already expanded (the campaign's cursor moved on) is skipped. */
    async expand(payload: { campaignId: string; afterSubscriberId: string }, context: HandlerContext) {
      const pageSize = deps.pageSize ?? fanOutPageSize;
      const campaign = await deps.campaigns.findById(payload.campaignId, { cursor: 1 }).lean();
      if (!campaign || campaign.cursor !== payload.afterSubscriberId) return;
      const page = await deps.subscribers
        .find({ status: 'active', _id: { $gt: payload.afterSubscriberId } }, { _id: 1 })
        .sort({ _id: 1 })
        .limit(pageSize)
        .lean();
      const last = page.at(-1)?._id;
      const common = { producer: 'notification' as const, correlationId: context.correlationId };
      const events: Array<NewEvent<EventType>> = page.map((subscriber) => ({
        ...common,
        type: 'notification.newsletter_delivery_requested',
        subjectId: subscriber._id,
        payload: { campaignId: payload.campaignId, subscriberId: subscriber._id },
      }));
      if (last && page.length === pageSize) {
        events.push({
          ...common,
          type: 'notification.newsletter_batch_requested',
          subjectId: payload.campaignId,
          payload: { campaignId: payload.campaignId, afterSubscriberId: last },
        });
      }
      // Published before the cursor moves: a crash in between expands this page again, and the
      // mailer's claim keeps every recipient to one copy.
      if (events.length > 0) await publish(events);
      await deps.campaigns.updateOne(
        { _id: payload.campaignId, cursor: payload.afterSubscriberId },
        {
          $set: {
            cursor: last ?? payload.afterSubscriberId,
            ...(page.length < pageSize ? { expandedAt: new Date() } : {}),
          },
        },
      );
      context.log.info({ campaignId: payload.campaignId, recipients: page.length }, 'newsletter page expanded');
    },

    /** One copy for one subscriber; someone who unsubscribed since the send is skipped. */
    async deliver(payload: { campaignId: string; subscriberId: string }, context: HandlerContext) {
      const [campaign, subscriber] = await Promise.all([
        campaignOf(payload.campaignId),
        deps.subscribers.findById(payload.subscriberId, { email: 1, status: 1, userId: 1, unsubscribeToken: 1 }).lean(),
      ]);
      if (!campaign || subscriber?.status !== 'active') return;
      const email = renderNewsletterEmail({
        productName: deps.productName,
        appUrl: deps.appUrl,
        subject: campaign.subject,
        safeHtml: campaign.html,
        unsubscribeToken: subscriber.unsubscribeToken,
      });
      const outcome = await deps.mailer.deliverOnce({
        eventId: payload.campaignId,
        kind: 'newsletter',
        userId: subscriber.userId ?? subscriber._id,
        to: subscriber.email,
        email,
      });
      if (outcome !== 'sent' && outcome !== 'already-claimed') {
        context.log.warn({ campaignId: payload.campaignId, outcome }, 'newsletter copy not delivered');
      }
    },

    async close() {
      await producer?.disconnect().catch(() => undefined);
    },
  };
}

export type NewsletterFanOut = ReturnType<typeof newsletterFanOut>;
