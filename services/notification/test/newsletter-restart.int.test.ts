/**
 * A newsletter send survives the notification service going down in the middle: 2,000 active
 * subscribers, the service stopped once some copies are out, started again on the same database and
 * Kafka groups; every active subscriber ends with exactly one copy, pending and unsubscribed ones none.
 * The copies are counted by a plain SMTP server (tools/testing/smtp-sink.ts), not a mail catcher.
 */
import { randomBytes } from 'node:crypto';
import { eventually } from '../../../tools/testing/eventually';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { startCountingSmtp, type CountingSmtp } from '../../../tools/testing/smtp-sink';
import { subscriberDocument, type SeededStatus } from './subscribers';

const adminEmail = uniqueEmail('admin');
let haven: TestHaven;
let smtp: CountingSmtp;

beforeAll(async () => {
  smtp = await startCountingSmtp();
  haven = await startTestHaven({ env: { ADMIN_EMAIL: adminEmail, SMTP_PORT: String(smtp.port) } });
  await haven.services.notification.eventsReady;
}, 180_000);

afterAll(async () => {
  await haven?.stop();
  await smtp?.close();
});

/** Subscribers written straight into the service's database: the list as a send finds it. */
async function seed(count: number, status: SeededStatus, run: string): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, index) => `${status}-${index}-${run}@example.com`);
  const collection = await haven.collection('notification', 'newsletter_subscribers');
  await collection.insertMany(emails.map((email) => subscriberDocument(email, status) as never));
  return emails;
}

it('delivers exactly one copy to each of 2,000 active subscribers across a restart mid-send', async () => {
  const run = randomBytes(3).toString('hex');
  const active = await seed(2_000, 'active', run);
  const pending = await seed(20, 'pending', run);
  const unsubscribed = await seed(20, 'unsubscribed', run);

  const admin = new ApiClient(haven.gatewayUrl);
  expect(
    (await admin.post('/api/auth/register', { email: adminEmail, password: 'correct horse battery' })).status,
  ).toBe(201);
  // The admin is the configured address once it is verified (its e-mail went to the counting sink).
  await (
    await haven.collection('user', 'users')
  ).updateOne({ email: adminEmail }, { $set: { emailVerifiedAt: new Date() } });
  // Only a session opened after verification is an admin's.
  expect((await admin.post('/api/auth/login', { email: adminEmail, password: 'correct horse battery' })).status).toBe(
    200,
  );
  const subject = `Restart test ${run}`;
  const sent = await admin.post('/api/newsletter/send', { subject, content: '<p>One copy each, please.</p>' });
  expect(sent.status).toBe(200);
  expect(sent.body).toEqual({ sentCount: 2_000 });

  await eventually('the first 200 copies accepted', () => smtp.total(subject) >= 200, { timeoutMs: 120_000 });
  const beforeRestart = smtp.total(subject);
  await haven.restart('notification');
  expect(beforeRestart).toBeLessThan(2_000);

  await eventually('all 2,000 copies accepted', () => smtp.total(subject) >= 2_000, {
    timeoutMs: 240_000,
    intervalMs: 500,
  });
  // Every copy is in the delivery log as sent; none is still being sent (a late duplicate would be).
  const deliveries = await haven.collection('notification', 'deliveries');
  await eventually('the delivery log settled', async () => {
    const [sentCount, inFlight] = await Promise.all([
      deliveries.countDocuments({ kind: 'newsletter', status: 'sent' }),
      deliveries.countDocuments({ kind: 'newsletter', status: { $in: ['sending', 'retryable'] } }),
    ]);
    return sentCount === 2_000 && inFlight === 0;
  });

  const copies = smtp.copies(subject);
  const notOnce = active.filter((email) => copies.get(email) !== 1);
  expect(notOnce).toEqual([]);
  expect([...pending, ...unsubscribed].filter((email) => copies.has(email))).toEqual([]);
  expect(smtp.total(subject)).toBe(2_000);
}, 420_000);
