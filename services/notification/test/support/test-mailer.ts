/** The mailer as main.ts builds it, for tests that run one part of the service on their own. */
import type { Logger } from '@haven/platform';
import type { Model } from 'mongoose';
import { createMailer, createTransport, type Mailer } from '../../src/providers/mailer';
import type { DeliveryRecord } from '../../src/model/delivery';

export interface TestMailerOptions {
  /** The SMTP server on loopback: the world's mail catcher or a test's own sink. */
  port: number;
  host?: string;
  deliveries: Model<DeliveryRecord>;
  log: Logger;
  from?: string;
}

export function testMailer(options: TestMailerOptions): Mailer {
  const from = options.from ?? 'Haven <hello@haven.local>';
  const transport = createTransport({ host: options.host ?? '127.0.0.1', port: options.port, secure: false, from });
  return createMailer(transport, from, options.deliveries, options.log);
}
