/**
 * The newsletter fan-out's part of `make bench`: 10,000 active subscribers, timed from
 * `POST /api/newsletter/send` to the last copy accepted by an SMTP server that only counts
 * (tools/testing/smtp-sink.ts, pooled connections), so the figure is Haven's and not a mail
 * catcher's. Haven runs in this process on the bench's own database and Kafka, in databases of its own. Beside it,
 * the sink's own acceptance rate in the same run: copies sent to it straight through the transport Haven uses,
 * with nothing of Haven's work, as many under way at once as the fan-out keeps.
 */
import mongoose from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { chunksInFlightPerService, deliveryChunkSize } from '../../services/notification/src/events/newsletter-fanout';
import { createTransport } from '../../services/notification/src/providers/mailer';
import type { InfraEndpoints } from '../infra';
import { startTestHaven } from '../testing/haven';
import { ApiClient } from '../testing/http';
import { startCountingSmtp, type CountingSmtp } from '../testing/smtp-sink';
import { runStandalone } from './standalone';

export interface FanOutBenchResult {
  recipients: number;
  seconds: number;
  emailsPerSec: number;
  /** Recipients with exactly one copy (should equal `recipients`). */
  exactlyOnce: number;
  targetSeconds: number;
  /** What the counting sink accepts through the same transport, Haven's work left out (the ceiling). */
  sinkEmailsPerSec: number;
}

const targetSeconds = 60;
/** The fan-out's pooled connections here, and the transport's for the sink alone. */
const smtpConnections = 5;

/** E-mails per second the sink accepts from Haven's own transport, `copies` of them, nothing else in the way. */
async function sinkAcceptanceRate(smtp: CountingSmtp, copies: number): Promise<number> {
  const from = 'bench@haven.local';
  const transport = createTransport({
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    from,
    maxConnections: smtpConnections,
  });
  const subject = `Sink alone ${randomBytes(3).toString('hex')}`;
  const startedAt = Date.now();
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: chunksInFlightPerService * deliveryChunkSize }, async () => {
        for (let index = next++; index < copies; index = next++) {
          await transport.sendMail({ from, to: `sink-${index}@example.com`, subject, text: 'One copy each.' });
        }
      }),
    );
  } finally {
    transport.close();
  }
  return Math.round(copies / (((smtp.lastAcceptedAt(subject) ?? Date.now()) - startedAt) / 1000));
}

export async function benchFanOut(
  infra: InfraEndpoints,
  log: (line: string) => void,
  recipients = 10_000,
): Promise<FanOutBenchResult> {
  const smtp = await startCountingSmtp();
  const adminEmail = `bench-admin-${randomBytes(3).toString('hex')}@example.com`;
  const haven = await startTestHaven({
    infra,
    env: {
      ADMIN_EMAIL: adminEmail,
      SMTP_PORT: String(smtp.port),
      SMTP_MAX_CONNECTIONS: String(smtpConnections),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
    },
  });
  try {
    await haven.services.notification.eventsReady;
    log(`fan-out: seeding ${recipients} active subscribers`);
    const subscribers = await haven.collection('notification', 'newsletter_subscribers');
    const now = new Date();
    const emails: string[] = [];
    for (let start = 0; start < recipients; start += 1_000) {
      const page = Array.from({ length: Math.min(1_000, recipients - start) }, (_, index) => {
        const email = `reader-${start + index}-${randomBytes(2).toString('hex')}@example.com`;
        emails.push(email);
        return {
          _id: randomUUID(),
          email,
          status: 'active',
          userId: null,
          source: 'bench',
          confirmTokenHash: null,
          confirmExpiresAt: null,
          createdAt: now,
          confirmedAt: now,
          unsubscribedAt: null,
          outbox: [],
          outboxVersion: 0,
        };
      });
      await subscribers.insertMany(page);
    }

    const admin = new ApiClient(haven.gatewayUrl);
    const credentials = { email: adminEmail, password: 'bench bench bench' };
    const register = await admin.post('/api/auth/register', credentials);
    if (register.status !== 201) throw new Error(`fan-out: admin sign-up answered ${register.status}`);
    // The admin is the configured address once verified; its verification e-mail went to the counting sink, which
    // keeps no links, so the account is left as its link would leave it (verified, the link used up), and the admin
    // signs in again: only a session opened after the verification is an admin's.
    await (
      await haven.collection('user', 'users')
    ).updateOne({ email: adminEmail }, { $set: { emailVerifiedAt: new Date(), emailVerification: null } });
    const signedIn = await admin.post('/api/auth/login', credentials);
    if (signedIn.status !== 200) throw new Error(`fan-out: admin sign-in answered ${signedIn.status}`);
    const cookie = admin.cookie!;

    const subject = `Bench ${randomBytes(3).toString('hex')}`;
    log(`fan-out: sending "${subject}"`);
    const startedAt = Date.now();
    const sent = await fetch(`${haven.gatewayUrl}/api/newsletter/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ subject, content: '<p>One copy each.</p>' }),
    });
    const body = (await sent.json()) as { sentCount?: number };
    if (sent.status !== 200 || body.sentCount !== recipients) {
      throw new Error(`fan-out: the send answered ${sent.status} ${JSON.stringify(body)}`);
    }
    // A bounded wait, reported as it goes (the bench is read by people watching it).
    const deadline = startedAt + 10 * 60_000;
    let lastReport = 0;
    while (smtp.total(subject) < recipients) {
      if (Date.now() > deadline) throw new Error(`fan-out: only ${smtp.total(subject)} copies after 10 minutes`);
      if (Date.now() - lastReport > 10_000) {
        log(`fan-out: ${smtp.total(subject)} of ${recipients} accepted`);
        lastReport = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = ((smtp.lastAcceptedAt(subject) ?? Date.now()) - startedAt) / 1000;
    const copies = smtp.copies(subject);
    const exactlyOnce = emails.filter((email) => copies.get(email) === 1).length;
    log('fan-out: the sink alone, through the same transport');
    return {
      recipients,
      seconds: Math.round(seconds * 10) / 10,
      emailsPerSec: Math.round(recipients / seconds),
      exactlyOnce,
      targetSeconds,
      sinkEmailsPerSec: await sinkAcceptanceRate(smtp, Math.max(1, Math.round(recipients / 5))),
    };
  } finally {
    await haven.stop();
    await smtp.close();
    await mongoose.disconnect().catch(() => undefined);
  }
}

export function formatFanOutResult(result: FanOutBenchResult): string {
  const verdict = result.seconds < result.targetSeconds ? 'within' : 'OVER';
  return (
    `Newsletter fan-out: ${result.recipients} recipients in ${result.seconds} s (${result.emailsPerSec} e-mails/s, ` +
    `${verdict} the ${result.targetSeconds} s target), ${result.exactlyOnce} of ${result.recipients} with exactly one copy ` +
    `(counting SMTP sink, ${smtpConnections} pooled connections); the sink alone accepts ${result.sinkEmailsPerSec} e-mails/s ` +
    'through the same transport'
  );
}

/** `npx tsx tools/bench/fanout.ts [recipients]`: the fan-out alone, on servers of its own (as `make bench` runs it). */
if (require.main === module) {
  runStandalone('fanout', async (infra, say) =>
    formatFanOutResult(await benchFanOut(infra, say, Number(process.argv[2] ?? 10_000))),
  );
}
