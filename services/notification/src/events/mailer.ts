import nodemailer, { type Transporter } from 'nodemailer';
import type { Model } from 'mongoose';
import type { RenderedEmail } from '../domain/verification-email';
import type { DeliveryRecord } from '../model/delivery';

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string | undefined;
  pass?: string | undefined;
  from: string;
}

export function createTransport(smtp: SmtpSettings): Transporter {
  return nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.pass ?? '' } : undefined,
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
  });
}

export interface Mailer {
  /** Sends at most once per (event, kind); a failure throws so the consumer retries. */
  deliverOnce(input: {
    eventId: string;
    kind: string;
    userId: string;
    to: string;
    email: RenderedEmail;
  }): Promise<void>;
  close(): void;
}

export function createMailer(transport: Transporter, from: string, deliveries: Model<DeliveryRecord>): Mailer {
  return {
    async deliverOnce({ eventId, kind, userId, to, email }) {
      const id = `${eventId}:${kind}`;
      if (await deliveries.exists({ _id: id, status: 'sent' })) return;
      try {
        const info = await transport.sendMail({ from, to, subject: email.subject, text: email.text, html: email.html });
        await deliveries.updateOne(
          { _id: id },
          {
            $set: { userId, kind, to, status: 'sent', messageId: info.messageId ?? null, error: null, at: new Date() },
          },
          { upsert: true },
        );
      } catch (error) {
        await deliveries.updateOne(
          { _id: id },
          {
            $set: {
              userId,
              kind,
              to,
              status: 'failed',
              messageId: null,
              error: (error as Error).message,
              at: new Date(),
            },
          },
          { upsert: true },
        );
        throw error;
      }
    },
    close: () => transport.close(),
  };
}
