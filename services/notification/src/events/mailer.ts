import nodemailer, { type Transporter } from 'nodemailer';
import { isDuplicateKeyError, type Logger } from '@haven/platform';
import type { Model } from 'mongoose';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RenderedEmail } from '../domain/verification-email';
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
    ...smtpTimeouts,
  });
}

export type DeliveryOutcome = 'sent' | 'already-claimed' | 'refused' | 'unknown';

export interface Mailer {
  /**
   * Sends at most once per (event, kind, recipient). Throws only when nothing was sent and a retry may
   * succeed (no connection, a 4xx reply); a permanent refusal (5xx) is recorded and not retried.
   */
  deliverOnce(input: {
    eventId: string;
    kind: string;
    userId: string;
    to: string;
    email: RenderedEmail;
    /** The claim's key when "once" is not per (event, kind, recipient): the weekly summary's (user, week). */
    onceKey?: string;
  }): Promise<DeliveryOutcome>;
  close(): void;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
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
): Mailer {
  /** The record of a send is retried on its own: the e-mail is never sent again because a write failed. */
  const record = async (id: string, change: Partial<DeliveryRecord>) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await deliveries.updateOne({ _id: id }, { $set: { ...change, at: new Date() } });
        return;
      } catch (error) {
        if (attempt >= 6) throw error;
        log?.warn({ err: error, attempt, deliveryId: id }, 'cannot record an e-mail delivery yet; retrying');
        await sleep(100 * 2 ** attempt);
      }
    }
  };

  /** Takes the claim on this delivery; false when it was sent, refused, or is being sent elsewhere. */
  const claim = async (base: Omit<DeliveryRecord, 'status' | 'attempts' | 'messageId' | 'error' | 'at'>) => {
    try {
      await deliveries.create({
        ...base,
        status: 'sending',
        attempts: 1,
        messageId: null,
        error: null,
        at: new Date(),
      });
      return true;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const reclaimed = await deliveries.updateOne(
      { _id: base._id, status: 'retryable' },
      { $set: { status: 'sending', at: new Date() }, $inc: { attempts: 1 } },
    );
    return reclaimed.modifiedCount === 1;
  };

  return {
    async deliverOnce({ eventId, kind, userId, to, email, onceKey }) {
      const id = onceKey ?? deliveryKey(eventId, kind, to);
      if (!(await claim({ _id: id, eventId, userId, kind, to }))) return 'already-claimed';
      let messageId: string | null;
      try {
        const info = await transport.sendMail({
          from,
          to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          headers: email.headers,
        });
        messageId = info.messageId ?? null;
      } catch (error) {
        const status = classifySendError(error as SmtpError);
        await record(id, { status, error: (error as Error).message });
        if (status === 'retryable') throw error;
        log?.[status === 'failed' ? 'warn' : 'error'](
          { err: error, deliveryId: id, kind, userId },
          status === 'failed'
            ? 'the mail server refused the e-mail for good; not retried'
            : 'the connection broke after the e-mail was handed over; not resent, so it is not sent twice',
        );
        return status === 'failed' ? 'refused' : 'unknown';
      }
      await record(id, { status: 'sent', messageId, error: null });
      return 'sent';
    },
    close: () => transport.close(),
  };
}
