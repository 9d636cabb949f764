/**
 * A newsletter send survives the notification service going down in the middle: 2,000 active
 * subscribers, the service stopped once some copies are out, started again on the same database and
 * Kafka groups; every active subscriber ends with exactly one copy, pending and unsubscribed ones none.
 * The copies are counted by a plain SMTP server (tools/testing/smtp-sink.ts), not a mail catcher.
 */
import { randomBytes } from 'node:crypto';
import { eventually } from '../../../tools/testing/eventually';
import { uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { startCountingSmtp, type CountingSmtp } from '../../../tools/testing/smtp-sink';
import { deliveryLogSettled, seedSubscribers, signedInAdmin } from './support';

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

it('delivers exactly one copy to each of 2,000 active subscribers across a restart mid-send', async () => {
  const run = randomBytes(3).toString('hex');
  const active = await seedSubscribers(haven, 2_000, 'active', run);
  const pending = await seedSubscribers(haven, 20, 'pending', run);
  const unsubscribed = await seedSubscribers(haven, 20, 'unsubscribed', run);
  const admin = await signedInAdmin(haven, adminEmail);
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
  await deliveryLogSettled(haven, 2_000);

  const copies = smtp.copies(subject);
  const notOnce = active.filter((email) => copies.get(email) !== 1);
  expect(notOnce).toEqual([]);
  expect([...pending, ...unsubscribed].filter((email) => copies.has(email))).toEqual([]);
  expect(smtp.total(subject)).toBe(2_000);
}, 420_000);
