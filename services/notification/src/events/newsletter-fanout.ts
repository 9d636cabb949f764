/**
 * The newsletter fan-out. A send stores a campaign with one event (through the outbox); a
 * `newsletter_batch_requested` expands the active subscribers, page after page for as long as its time
 * budget lasts, into `newsletter_page_requested` events of `deliveryPageSize` recipients (keyed by the
 * page's first subscriber, so they spread over the partitions and the group's consumers), and hands what
 * is left to the next batch event. Each page event sends its copies chunk by chunk with a few database
 * writes per chunk (the mailer's `deliverMany`: claims in one insert, outcomes in one bulk write), at
 * most once per (campaign, recipient) by the claims. Kafka, not a request, carries the work, so a
 * restart resumes where the committed offsets are.
 */
import { encodeEvent, topicOf, type EventType, type NewEvent } from '@haven/proto';
import { createProducer, type HandlerContext, type Logger } from '@haven/platform';
import type { Kafka, Producer } from 'kafkajs';
import type { Model } from 'mongoose';
import { unsubscribeTokenOf } from '../domain/newsletter';
import { renderNewsletterEmail } from '../domain/newsletter-emails';
import type { CampaignRecord } from '../model/campaign';
import type { SubscriberRecord } from '../model/subscriber';
import type { MailingDeps } from '../providers/mailer';

/** Subscribers read at a time by an expansion (on the embedded database a range read scans the list). */
export const fanOutPageSize = 2_000;
/** Recipients per page event: one subscriber read and one processed-id pair per page, not per copy. */
export const deliveryPageSize = 100;
/** Copies claimed and sent together: few enough that an attempt stays short on a slow mail server. */
export const deliveryChunkSize = 25;
/** Chunks of one page under way at once: one chunk's claims are written while the other's copies go out. */
export const chunksInFlight = 2;
/**
 * Chunks under way at once in one service, whatever the number of pages: it bounds the copies that are
 * claimed and not yet handed over (a hard kill leaves those unsent, never sent twice) to 100 per replica.
 */
export const chunksInFlightPerService = 4;
/**
 * A page event stops starting new chunks (an expansion, new pages) after this long and hands the rest to
 * a new event, so one attempt stays well inside the consumer's 10 s bound however slow the mail server or
 * the database is.
 */
export const pageBudgetMs = 5_000;
/**
 * A send with recipients left and no copy recorded for this long has stopped making progress (its events
 * lost, parked, or its consumer stuck): the sweep sends the rest itself. `NEWSLETTER_STALLED_AFTER_MS` sets
 * another.
 */
export const defaultStalledAfterMs = 60_000;
/** How often the sweep looks at unfinished sends. */
export const sweepIntervalMs = 20_000;
/** A send older than this is not finished by the sweep: a newsletter arriving days late would mislead. */
export const sweepWindowMs = 24 * 60 * 60 * 1000;

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

export interface FanOutDeps extends MailingDeps {
  kafka: Kafka;
  campaigns: Model<CampaignRecord>;
  subscribers: Model<SubscriberRecord>;
  pageSize?: number;
  deliveryPageSize?: number;
  /** The time source of the page budget (tests pass their own). */
  now?: () => number;
  /** How long without a copy recorded makes an unfinished send stalled (`defaultStalledAfterMs`). */
  stalledAfterMs?: number;
}

export function newsletterFanOut(deps: FanOutDeps) {
  const stalledAfterMs = deps.stalledAfterMs ?? defaultStalledAfterMs;
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

  const pageEvent = (
    campaignId: string,
    recipients: Array<{ _id: string }>,
    correlationId: string,
  ): NewEvent<'notification.newsletter_page_requested'> => ({
    producer: 'notification',
    correlationId,
    type: 'notification.newsletter_page_requested',
    subjectId: recipients[0]!._id,
    payload: { campaignId, subscriberIds: recipients.map((recipient) => recipient._id) },
  });

  const now = deps.now ?? Date.now;
  const slots = semaphore(chunksInFlightPerService);

  /**
   * Sends a page's copies chunk by chunk, for as long as the page budget lasts; someone who unsubscribed
   * since the send is skipped. Answers the recipients not reached in time (`rest`) and those whose copy
   * may go later (`again`: no connection, a 4xx). A database error is thrown once the chunks under way end.
   */
  const sendCopies = async (
    campaignId: string,
    subscriberIds: string[],
    log: Logger,
  ): Promise<{ rest: string[]; again: string[] }> => {
    const startedAt = now();
    const [campaign, found] = await Promise.all([
      campaignOf(campaignId),
      deps.subscribers.find({ _id: { $in: subscriberIds } }, { email: 1, status: 1, userId: 1 }).lean(),
    ]);
    if (!campaign) return { rest: [], again: [] };
    const byId = new Map(found.map((subscriber) => [subscriber._id, subscriber]));
    const recipients = subscriberIds.flatMap((id) => {
      const subscriber = byId.get(id);
      return subscriber?.status === 'active' ? [subscriber] : [];
    });
    const again: string[] = [];
    type Recipient = (typeof recipients)[number];
    const deliverChunk = async (chunk: Recipient[]) => {
      const outcomes = await deps.mailer.deliverMany(
        chunk.map((subscriber) => ({
          eventId: campaignId,
          kind: 'newsletter',
          userId: subscriber.userId ?? subscriber._id,
          to: subscriber.email,
          email: renderNewsletterEmail({
            productName: deps.productName,
            appUrl: deps.appUrl,
            subject: campaign.subject,
            safeHtml: campaign.html,
            unsubscribeToken: unsubscribeTokenOf(deps.linkKey, subscriber._id),
          }),
        })),
      );
      outcomes.forEach((outcome, index) => {
        if (outcome === 'retryable') again.push(chunk[index]!._id);
        else if (outcome === 'refused' || outcome === 'unknown') {
          log.warn({ campaignId, outcome }, 'newsletter copy not delivered');
        }
      });
    };
    const running = new Set<Promise<void>>();
    let failure: { error: unknown } | null = null;
    let next = 0;
    while (!failure && next < recipients.length) {
      await slots.acquire();
      // Every page gets at least its first chunk through, so a continuation always moves on.
      if (failure || (next > 0 && now() - startedAt >= pageBudgetMs)) {
        slots.release();
        break;
      }
      const chunk = recipients.slice(next, next + deliveryChunkSize);
      next += chunk.length;
      const work: Promise<void> = deliverChunk(chunk)
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => {
          slots.release();
          running.delete(work);
        });
      running.add(work);
      if (running.size >= chunksInFlight) await Promise.race(running);
    }
    await Promise.all(running);
    // A database error: nothing unclaimed was sent; the caller tries again later.
    if (failure) throw (failure as { error: unknown }).error;
    return { rest: recipients.slice(next).map((subscriber) => subscriber._id), again };
  };

  return {
    /**
     * Expands pages of the list for as long as the budget lasts (all of it, for a list of thousands), then
     * hands the rest to a new batch event. A batch event whose page was already expanded (the campaign's
     * cursor moved on) is skipped; the cursor moves page by page with a compare-and-set.
     */
    async expand(payload: { campaignId: string; afterSubscriberId: string }, context: HandlerContext) {
      const startedAt = now();
      const pageSize = deps.pageSize ?? fanOutPageSize;
      const perEvent = deps.deliveryPageSize ?? deliveryPageSize;
      const campaign = await deps.campaigns.findById(payload.campaignId, { cursor: 1 }).lean();
      if (!campaign || campaign.cursor !== payload.afterSubscriberId) return;
      for (let cursor = payload.afterSubscriberId; ;) {
        const page = await deps.subscribers
          .find({ status: 'active', _id: { $gt: cursor } }, { _id: 1 })
          .sort({ _id: 1 })
          .limit(pageSize)
          .lean();
        const last = page.at(-1)?._id;
        const done = !last || page.length < pageSize;
        const events: Array<NewEvent<EventType>> = [];
        for (let start = 0; start < page.length; start += perEvent) {
          events.push(pageEvent(payload.campaignId, page.slice(start, start + perEvent), context.correlationId));
        }
        const later = !done && now() - startedAt >= pageBudgetMs;
        if (later) {
          // First, so the next expansion is not queued behind this page's copies on its partition.
          events.unshift({
            producer: 'notification',
            correlationId: context.correlationId,
            type: 'notification.newsletter_batch_requested',
            subjectId: payload.campaignId,
            payload: { campaignId: payload.campaignId, afterSubscriberId: last },
          });
        }
        // Published before the cursor moves: a crash in between expands this page again, and the
        // mailer's claims keep every recipient to one copy.
        if (events.length > 0) await publish(events);
        const moved = await deps.campaigns.updateOne(
          { _id: payload.campaignId, cursor },
          { $set: { cursor: last ?? cursor, ...(done ? { expandedAt: new Date() } : {}) } },
        );
        context.log.info({ campaignId: payload.campaignId, recipients: page.length }, 'newsletter page expanded');
        if (done || later || moved.modifiedCount === 0) return;
        cursor = last;
      }
    },

    /**
     * One page of copies (see `sendCopies`). When the page budget runs out, the rest (and copies to try
     * again) go on in a new page event. Copies that may go later (no connection, a 4xx) make the attempt
     * fail once the page is done, so the consumer retries it with back-off (the sent ones are skipped by
     * their claims) and dead-letters it after the last try; the sweep finishes what that leaves.
     */
    async deliverPage(payload: { campaignId: string; subscriberIds: string[] }, context: HandlerContext) {
      const { rest, again } = await sendCopies(payload.campaignId, payload.subscriberIds, context.log);
      if (rest.length > 0) {
        // Out of time: the rest, with the copies to try again, continue in an event of their own.
        const remaining = [...again, ...rest].map((id) => ({ _id: id }));
        await publish([pageEvent(payload.campaignId, remaining, context.correlationId)]);
        context.log.info({ campaignId: payload.campaignId, left: remaining.length }, 'newsletter page continued');
        return;
      }
      if (again.length > 0) {
        throw new Error(`${again.length} newsletter copies could not be handed over yet; the page is retried`);
      }
    },

    /**
     * Finishes sends that stopped making progress, and marks finished sends complete. A send counts as
     * stalled when it was expanded, has recipients without a copy (no claim, a claim to try again, or a
     * claim past its lease), and no copy was recorded for `stalledAfterMs`; the sweep then sends those
     * copies itself, for a page budget per pass, without Kafka. Returns the copies it sent.
     */
    async sweep(): Promise<number> {
      const startedAt = now();
      const open = await deps.campaigns
        .find(
          { expandedAt: { $ne: null }, completedAt: null, createdAt: { $gte: new Date(startedAt - sweepWindowMs) } },
          { cursor: 1, createdAt: 1, expandedAt: 1 },
        )
        .lean();
      let swept = 0;
      for (const campaign of open) {
        const latest = await deps.deliveries
          .findOne({ eventId: campaign._id, kind: 'newsletter' }, { at: 1 })
          .sort({ at: -1 })
          .lean();
        const lastProgress = Math.max(campaign.expandedAt!.getTime(), latest?.at.getTime() ?? 0);
        if (startedAt - lastProgress < stalledAfterMs) continue;
        const [recipients, logged] = await Promise.all([
          deps.subscribers
            .find(
              { status: 'active', _id: { $lte: campaign.cursor }, confirmedAt: { $lte: campaign.createdAt } },
              { email: 1 },
            )
            .lean(),
          deps.deliveries.find({ eventId: campaign._id, kind: 'newsletter' }, { to: 1, status: 1, at: 1 }).lean(),
        ]);
        const leaseStart = startedAt - deps.mailer.claimLeaseMs;
        const settled = new Set(
          logged
            .filter(
              (copy) => copy.status !== 'retryable' && (copy.status !== 'sending' || copy.at.getTime() >= leaseStart),
            )
            .map((copy) => copy.to.toLowerCase()),
        );
        const left = recipients.filter((subscriber) => !settled.has(subscriber.email.toLowerCase()));
        const underWay = logged.some((copy) => copy.status === 'sending' && copy.at.getTime() >= leaseStart);
        if (left.length === 0) {
          if (!underWay) {
            await deps.campaigns.updateOne({ _id: campaign._id }, { $set: { completedAt: new Date(startedAt) } });
            deps.log.info({ campaignId: campaign._id, recipients: recipients.length }, 'newsletter send complete');
          }
          continue;
        }
        deps.log.warn(
          { campaignId: campaign._id, left: left.length, stalledForMs: startedAt - lastProgress },
          'newsletter send made no progress; the sweep sends the rest',
        );
        const { rest, again } = await sendCopies(
          campaign._id,
          left.map((subscriber) => subscriber._id),
          deps.log,
        );
        swept += left.length - rest.length - again.length;
      }
      return swept;
    },

    /** One copy for one subscriber (events published before pages existed); someone who unsubscribed is skipped. */
    async deliver(payload: { campaignId: string; subscriberId: string }, context: HandlerContext) {
      const [campaign, subscriber] = await Promise.all([
        campaignOf(payload.campaignId),
        deps.subscribers.findById(payload.subscriberId, { email: 1, status: 1, userId: 1 }).lean(),
      ]);
      if (!campaign || subscriber?.status !== 'active') return;
      const email = renderNewsletterEmail({
        productName: deps.productName,
        appUrl: deps.appUrl,
        subject: campaign.subject,
        safeHtml: campaign.html,
        unsubscribeToken: unsubscribeTokenOf(deps.linkKey, subscriber._id),
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

/** At most `size` holders at once; the others wait in order. */
function semaphore(size: number) {
  let free = size;
  const waiting: Array<() => void> = [];
  return {
    acquire: () =>
      new Promise<void>((resolve) => {
        if (free > 0) {
          free -= 1;
          resolve();
        } else {
          waiting.push(resolve);
        }
      }),
    release: () => {
      const nextInLine = waiting.shift();
      if (nextInLine) nextInLine();
      else free += 1;
    },
  };
}
