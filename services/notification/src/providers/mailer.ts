import nodemailer, { type Transporter } from 'nodemailer';
import { emailKinds, type EmailKind } from '../domain/email-kinds';
import {
  collectionOf,
  inSpan,
  isDuplicateKeyError,
  serviceCounter,
  serviceHistogram,
  SpanKind,
  type Logger,
} from '@haven/platform';
import type { Model } from 'mongoose';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { messageIdOf, type RenderedEmail } from '../domain/email-parts';
import { deliveryKey, type DeliveryRecord, type DeliveryStatus } from '../model/delivery';

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string | undefined;
  pass?: string | undefined;
  from: string;
  /** Pooled connections kept open (1 = the first one only, reused). */
  maxConnections?: number;
}

/**
 * Every wait bounded, and together well under the consumer's attempt bound (10 s): nodemailer's
 * own socket timeout is ten minutes, long enough for Kafka to evict the consumer mid-send.
 */
export const smtpTimeouts = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 8_000 } as const;

type SocketCallback = (error: Error | null, socket?: { connection: Socket }) => void;

/**
 * Opens the SMTP server's TCP connection with Nagle's algorithm off. nodemailer ends each message with a
 * small write (the closing "."), which Nagle holds back until the server acknowledges the previous
 * segment, and servers delay that acknowledgement (about 40 ms on Linux): each pooled connection managed
 * about 20 messages a second, 6 ms each without the wait. Bounded by the same connect timeout; TLS
 * (`secure`) is layered on top by nodemailer as for any socket it is given.
 */
export function connectWithoutDelay(
  options: { host?: string; port?: number; secure?: boolean },
  callback: SocketCallback,
): void {
  // nodemailer's defaults when the settings leave them out.
  const socket = connect({ host: options.host ?? 'localhost', port: options.port ?? (options.secure ? 465 : 587) });
  socket.setNoDelay(true);
  let settled = false;
  const settle = (error: Error | null) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    socket.off('error', settle);
    if (error) {
      socket.destroy();
      callback(error);
    } else {
      callback(null, { connection: socket });
    }
  };
  // nodemailer's own wording and code, so classifySendError reads it as "nothing was sent".
  const timer = setTimeout(
    () => settle(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })),
    smtpTimeouts.connectionTimeout,
  );
  socket.once('error', settle);
  socket.once('connect', () => settle(null));
}

export function createTransport(smtp: SmtpSettings): Transporter {
  return nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.pass ?? '' } : undefined,
    // Pooled: a newsletter of thousands reuses a few connections instead of one handshake per copy.
    pool: true,
    maxConnections: smtp.maxConnections ?? 5,
    maxMessages: 1000,
    getSocket: connectWithoutDelay,
    ...smtpTimeouts,
  });
}

export type DeliveryOutcome = 'sent' | 'already-claimed' | 'refused' | 'unknown';

/**
 * How long a claim protects a send under way, unless the service is configured otherwise
 * (`NEWSLETTER_CLAIM_LEASE_MS`). A send holds its claim for well under a minute (the SMTP timeouts above, then
 * the outcome's write), and a stopping service waits for its sends; a claim still `sending` after this lost its
 * holder (a process killed mid-send) and may be taken again. Taking it again can send that copy twice, when the
 * holder had handed it over before it died: bounded by the sends in flight at the kill, counted in the
 * delivery's `attempts`, and the copy carries the same Message-ID both times (`messageIdOf`).
 */
export const defaultClaimLeaseMs = 5 * 60_000;

/** One e-mail of a batch: what `deliverOnce` takes. */
export interface DeliveryRequest {
  eventId: string;
  /** Declared with its governing preference in domain/email-kinds.ts. */
  kind: EmailKind;
  userId: string;
  to: string;
  email: RenderedEmail;
  /** The claim's key when "once" is not per (event, kind, recipient): the weekly summary's (user, week). */
  onceKey?: string;
  /** When the event this e-mail answers happened: the delivery latency runs from it to the mail server's accept. */
  occurredAt?: Date;
}

/** Why a send failed, as the failure counter labels it: the delivery log's status in an operator's words. */
export type SendFailure = 'refused' | 'retryable' | 'unknown';

/** The mailer's counts on the service's /metrics, labelled by the kind of e-mail only, never by its recipient. */
export interface MailMetrics {
  sent: ReturnType<typeof serviceCounter<'kind'>>;
  failed: ReturnType<typeof serviceCounter<'kind' | 'reason'>>;
  latency: ReturnType<typeof serviceHistogram<'kind'>>;
}

/** Seconds from an event to the mail server's accept: a sign-up's link in seconds, a backlog in minutes or hours. */
export const deliveryLatencyBuckets = [0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600] as const;

export function mailMetrics(registry: Parameters<typeof serviceCounter>[0]): MailMetrics {
  const metrics: MailMetrics = {
    sent: serviceCounter(registry, 'emails_sent_total', 'E-mails the mail server accepted, by kind.', ['kind']),
    failed: serviceCounter(
      registry,
      'emails_failed_total',
      'E-mails not accepted, by kind and reason: refused for good (5xx), retryable (no connection, 4xx), unknown (the connection broke after the hand-over).',
      ['kind', 'reason'],
    ),
    latency: serviceHistogram(
      registry,
      'email_delivery_latency_seconds',
      'Seconds from the event an e-mail answers to the mail server accepting it, by kind.',
      deliveryLatencyBuckets,
      ['kind'],
    ),
  };
  // Every kind's series from the start, at 0: a failure ratio needs both counts, also before the first send.
  for (const kind of Object.keys(emailKinds)) {
    metrics.sent.inc({ kind }, 0);
    for (const reason of ['refused', 'retryable', 'unknown'] satisfies SendFailure[]) {
      metrics.failed.inc({ kind, reason }, 0);
    }
  }
  return metrics;
}

export interface Mailer {
  /**
   * Sends at most once per (event, kind, recipient). Throws only when nothing was sent and a retry may
   * succeed (no connection, a 4xx reply); a permanent refusal (5xx) is recorded and not retried.
   */
  deliverOnce(input: DeliveryRequest): Promise<DeliveryOutcome>;
  /**
   * The same promise for many e-mails with a few database writes for all of them: the claims in one
   * insert, the sends at once over the pooled transport, the outcomes in one bulk write. Never throws
   * for a send: an e-mail that may succeed later comes back as `retryable` (its claim open again), in
   * the order of `requests`.
   */
  deliverMany(requests: DeliveryRequest[]): Promise<Array<DeliveryOutcome | 'retryable'>>;
  /** How long a claim `sending` belongs to its holder; past it, the claim may be taken again. */
  readonly claimLeaseMs: number;
  close(): void;
}

/**
 * What every mailing to many people (the scheduled e-mails, the newsletter's fan-out) is built from: the mailer
 * and its delivery log, the app's address and name for the e-mails' words and links, and the log.
 */
export interface MailingDeps {
  deliveries: Model<DeliveryRecord>;
  mailer: Mailer;
  appUrl: string;
  productName: string;
  /** The key each e-mail's stop link is signed with (a scheduled e-mail's, a newsletter's unsubscribe link). */
  linkKey: Buffer;
  log: Logger;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  command?: string;
}

/**
 * A failed send as the delivery log, the logs and the retry's error name it: the codes and the SMTP command, never
 * the server's words, which may quote the recipient ("550 <ana@example.org>: Recipient address rejected").
 */
export function smtpFailureOf(error: SmtpError): string {
  const parts = [error.responseCode, error.code, error.command].filter((part) => part !== undefined && part !== '');
  return parts.length > 0 ? `SMTP ${parts.join(' ')}` : 'SMTP failure without a code';
}

/**
 * What a failed send means for a retry. A reply code decides (5xx for good, 4xx try again); without
 * one, only failures that certainly came before the message was handed over are retried, because
 * nodemailer reports a broken socket the same way whether it broke before or after DATA.
 */
export function classifySendError(error: SmtpError): Exclude<DeliveryStatus, 'sending' | 'sent'> {
  if (error.responseCode !== undefined && error.responseCode >= 500) return 'failed';
  if (error.responseCode !== undefined && error.responseCode >= 400) return 'retryable';
  if (error.code === 'EDNS') return 'retryable';
  if (error.code === 'ETIMEDOUT' && /^(Connection timeout|Greeting never received)/.test(error.message)) {
    return 'retryable';
  }
  if (/ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENOTFOUND/.test(error.message)) return 'retryable';
  return 'unknown';
}

export function createMailer(
  transport: Transporter,
  from: string,
  deliveries: Model<DeliveryRecord>,
  log?: Logger,
  { claimLeaseMs = defaultClaimLeaseMs, metrics }: { claimLeaseMs?: number; metrics?: MailMetrics } = {},
): Mailer {
  /** A write of the delivery log retried on its own: the e-mail is never sent again because a write failed. */
  const retried = async (what: string, write: () => Promise<unknown>) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await write();
        return;
      } catch (error) {
        if (attempt >= 6) throw error;
        log?.warn({ err: error, attempt, what }, 'cannot record an e-mail delivery yet; retrying');
        await sleep(100 * 2 ** attempt);
      }
    }
  };
  const record = (id: string, change: Partial<DeliveryRecord>) =>
    retried(id, () => deliveries.updateOne({ _id: id }, { $set: { ...change, at: new Date() } }));

  // The driver's own collection for the batch writes: no per-document casting, string ids as they are.
  const deliveryLog = collectionOf(deliveries);

  const claimOf = (request: DeliveryRequest): DeliveryRecord => ({
    _id: request.onceKey ?? deliveryKey(request.eventId, request.kind, request.to),
    eventId: request.eventId,
    userId: request.userId,
    kind: request.kind,
    to: request.to,
    status: 'sending',
    attempts: 1,
    messageId: null,
    error: null,
    at: new Date(),
  });

  /**
   * Which existing claims may be taken again: those whose last try sent nothing (`retryable`), and those
   * whose holder is gone (`sending` past the lease).
   */
  const reopened = () => ({
    $or: [{ status: 'retryable' }, { status: 'sending', at: { $lt: new Date(Date.now() - claimLeaseMs) } }],
  });
  const reclaim = async (id: string) => {
    const lapsed = await deliveries.findOneAndUpdate(
      { _id: id, ...reopened() },
      { $set: { status: 'sending', at: new Date() }, $inc: { attempts: 1 } },
      { projection: { status: 1 } },
    );
    if (lapsed?.status === 'sending') {
      log?.warn({ deliveryId: id }, 'a claim whose holder stopped mid-send is taken again; the copy may arrive twice');
    }
    return lapsed !== null;
  };

  /** Takes the claim on this delivery; false when it was sent, refused, or is being sent elsewhere. */
  const claim = async (delivery: DeliveryRecord) => {
    try {
      await deliveries.create(delivery);
      return true;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    return reclaim(delivery._id);
  };

  /** Claims many in one unordered insert: the duplicates fail alone; those still open are taken again. */
  const claimMany = async (claims: DeliveryRecord[]): Promise<boolean[]> => {
    const taken = claims.map(() => true);
    try {
      // One write error per duplicate, with its index.
      await deliveryLog.insertMany(claims, { ordered: false });
      return taken;
    } catch (error) {
      const writeErrors = ([] as Array<{ index: number; code?: number }>).concat(
        (error as { writeErrors?: Array<{ index: number; code?: number }> }).writeErrors ?? [],
      );
      // Anything but duplicates (or an error without per-document detail): nothing is known to be ours.
      if (writeErrors.length === 0 || writeErrors.some((failure) => failure.code !== 11000)) throw error;
      for (const failure of writeErrors) taken[failure.index] = false;
    }
    // Only the duplicates that may be taken again are worth a write each (rare: a 4xx, a retry, a kill).
    const duplicates = claims.filter((_, index) => !taken[index]).map((delivery) => delivery._id);
    const open = new Set(
      (await deliveries.find({ _id: { $in: duplicates }, ...reopened() }, { _id: 1 }).lean()).map(
        (delivery) => delivery._id,
      ),
    );
    return Promise.all(
      claims.map((delivery, index) => taken[index] || (open.has(delivery._id) && reclaim(delivery._id))),
    );
  };

  type Sent = { status: 'sent'; messageId: string | null } | { status: DeliveryStatus; error: string };
  /** One send, its outcome as the delivery log records it (never throws). */
  const send = async (request: DeliveryRequest, id: string): Promise<Sent> => {
    try {
      // The span names the kind of e-mail, never its recipient.
      const info = await inSpan(
        'smtp send',
        { kind: SpanKind.CLIENT, attributes: { 'haven.mail.kind': request.kind } },
        () =>
          transport.sendMail({
            from,
            messageId: messageIdOf(id, from),
            to: request.to,
            subject: request.email.subject,
            text: request.email.text,
            html: request.email.html,
            headers: request.email.headers,
          }),
      );
      metrics?.sent.inc({ kind: request.kind });
      if (request.occurredAt) {
        metrics?.latency.observe(
          { kind: request.kind },
          Math.max(0, (Date.now() - request.occurredAt.getTime()) / 1000),
        );
      }
      return { status: 'sent', messageId: info.messageId ?? null };
    } catch (error) {
      const status = classifySendError(error as SmtpError);
      metrics?.failed.inc({ kind: request.kind, reason: status === 'failed' ? 'refused' : status });
      if (status !== 'retryable') {
        log?.[status === 'failed' ? 'warn' : 'error'](
          { smtp: smtpFailureOf(error as SmtpError), deliveryId: id, kind: request.kind, userId: request.userId },
          status === 'failed'
            ? 'the mail server refused the e-mail for good; not retried'
            : 'the connection broke after the e-mail was handed over; not resent, so it is not sent twice',
        );
      }
      return { status, error: smtpFailureOf(error as SmtpError) };
    }
  };

  const outcomeOf = (sent: Sent): DeliveryOutcome | 'retryable' =>
    sent.status === 'sent'
      ? 'sent'
      : sent.status === 'failed'
        ? 'refused'
        : sent.status === 'retryable'
          ? 'retryable'
          : 'unknown';

  return {
    async deliverOnce(request) {
      const delivery = claimOf(request);
      if (!(await claim(delivery))) return 'already-claimed';
      const sent = await send(request, delivery._id);
      await record(delivery._id, sent.status === 'sent' ? { ...sent, error: null } : sent);
      if (sent.status === 'retryable') throw new Error(`not sent yet, retried later: ${sent.error}`);
      return outcomeOf(sent) as DeliveryOutcome;
    },

    async deliverMany(requests) {
      if (requests.length === 0) return [];
      const claims = requests.map(claimOf);
      const taken = await claimMany(claims);
      const sent = await Promise.all(
        requests.map((request, index) => (taken[index] ? send(request, claims[index]!._id) : null)),
      );
      const at = new Date();
      const writes = sent.flatMap((outcome, index) =>
        outcome
          ? [
              {
                updateOne: {
                  filter: { _id: claims[index]!._id },
                  update: { $set: { ...(outcome.status === 'sent' ? { ...outcome, error: null } : outcome), at } },
                },
              },
            ]
          : [],
      );
      if (writes.length > 0) {
        await retried(`${writes.length} deliveries`, () => deliveryLog.bulkWrite(writes, { ordered: false }));
      }
      return sent.map((outcome) => (outcome ? outcomeOf(outcome) : 'already-claimed'));
    },

    claimLeaseMs,
    close: () => transport.close(),
  };
}
