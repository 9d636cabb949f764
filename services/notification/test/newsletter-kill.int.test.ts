/**
 * A newsletter send survives the notification service being killed outright in the middle: the service runs as
 * its own process, gets SIGKILL once some of 2,000 copies are out (no goodbye: claims left `sending`, page events
 * not committed), and is started again on the same port, database and Kafka groups. Nobody is skipped; the copies
 * sent twice are no more than the sends in flight at the kill, each with its first copy's Message-ID, and counted
 * in the delivery log. The copies are counted by a plain SMTP server (tools/testing/smtp-sink.ts).
 */
import { randomBytes } from 'node:crypto';
import { chunksInFlightPerService, deliveryChunkSize } from '../src/events/newsletter-fanout';
import { startAppProcess, type AppProcess } from '../../../tools/testing/app-process';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { uniqueEmail } from '../../../tools/testing/http';
import { startCountingSmtp, type CountingSmtp } from '../../../tools/testing/smtp-sink';
import { deliveryLogSettled, seedSubscribers, signedInAdmin } from './support';

const adminEmail = uniqueEmail('admin');
/** The most copies a killed process can have handed over without recording them. */
const inFlightBound = chunksInFlightPerService * deliveryChunkSize;
let haven: TestHaven;
let smtp: CountingSmtp;
let notification: AppProcess | undefined;

beforeAll(async () => {
  smtp = await startCountingSmtp();
  haven = await startTestHaven({
    env: {
      ADMIN_EMAIL: adminEmail,
      SMTP_PORT: String(smtp.port),
      // A dead holder's claims are taken again in seconds, not minutes, once the send has stood still.
      NEWSLETTER_CLAIM_LEASE_MS: '10000',
      NEWSLETTER_STALLED_AFTER_MS: '3000',
      NEWSLETTER_SWEEP_INTERVAL_MS: '1000',
    },
  });
}, 180_000);

afterAll(async () => {
  await notification?.stop();
  await haven?.stop();
  await smtp?.close();
});

/** The notification service as its own process, on the port the gateway knows it by. */
const notificationProcess = () =>
  startAppProcess('services/notification', haven.serviceEnv('notification'), Number(new URL(notificationUrl).port));
let notificationUrl: string;

it('delivers to each of 2,000 active subscribers across a SIGKILL mid-send, duplicates bounded and marked', async () => {
  notificationUrl = haven.services.notification.url;
  await haven.stopService('notification');
  notification = await notificationProcess();

  const run = randomBytes(3).toString('hex');
  const active = await seedSubscribers(haven, 2_000, 'active', run);
  const pending = await seedSubscribers(haven, 20, 'pending', run);
  const admin = await signedInAdmin(haven, adminEmail);
  const subject = `Kill test ${run}`;
  const sent = await admin.post('/api/newsletter/send', { subject, content: '<p>Nobody left out, please.</p>' });
  expect(sent.status).toBe(200);
  expect(sent.body).toEqual({ sentCount: 2_000 });

  await eventually('the first 200 copies accepted', () => smtp.total(subject) >= 200, {
    timeoutMs: 120_000,
    intervalMs: 20,
  });
  await notification.kill('SIGKILL');
  const beforeKill = smtp.total(subject);
  expect(beforeKill).toBeLessThan(2_000);
  notification = await notificationProcess();

  await eventually('every active subscriber with a copy', () => smtp.copies(subject).size >= 2_000, {
    timeoutMs: 240_000,
    intervalMs: 500,
  });
  await deliveryLogSettled(haven, 2_000);

  const copies = smtp.copies(subject);
  expect(active.filter((email) => !copies.has(email))).toEqual([]);
  expect(pending.filter((email) => copies.has(email))).toEqual([]);
  const twice = active.filter((email) => copies.get(email)! > 1);
  expect(smtp.total(subject) - copies.size).toBeLessThanOrEqual(inFlightBound);
  // A copy sent again is the same message to the reader's mail client: one Message-ID per recipient and send.
  const messageIds = smtp.messageIds(subject);
  expect(twice.filter((email) => new Set(messageIds.get(email)).size !== 1)).toEqual([]);
  // And counted: each is a delivery claimed more than once.
  if (twice.length > 0) {
    const deliveries = await haven.collection('notification', 'deliveries');
    const claimedAgain = await deliveries
      .find({ kind: 'newsletter', to: { $in: twice }, attempts: { $gte: 2 } }, { projection: { to: 1 } })
      .toArray();
    expect(claimedAgain.map((delivery) => delivery.to).sort()).toEqual([...twice].sort());
  }
}, 420_000);
