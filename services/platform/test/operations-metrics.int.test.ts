/**
 * The operator's counts of e-mails and rate-limit refusals on /metrics: a verification e-mail through the mail
 * catcher counted as sent with its latency; a mail server's refusal and its absence counted as failed, by kind
 * and reason (the test's own SMTP server, which it refuses with and then stops); rate-limit refusals counted by
 * field and class where they happen: a sign-in and a data export at the gateway, a reset's per-recipient budget at
 * the user service. No label names the person, their address or their client.
 */
import { createLogger, createMetricsRegistry } from '@haven/platform';
import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { RunningGateway } from '../../../gateway/src/app';
import { loadGatewayConfig, startGateway } from '../../../gateway/src/main';
import { createMailer, createTransport, mailMetrics } from '../../notification/src/providers/mailer';
import { deliveryModel } from '../../notification/src/model/delivery';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { mailbox } from '../../../tools/testing/infra-control';
import { metricSamples, metricValue, scrapeMetrics } from '../../../tools/testing/metrics';
import { postFrom } from '../../../tools/testing/raw-http';
import { signedUpPerson } from '../../../tools/testing/subscription';
import { testInfra } from '../../../tools/testing/test-env';

const signInLimit = 5;
const mailLimit = 2;
const log = createLogger('operations-metrics-test', 'silent');
let haven: TestHaven;
/** A second gateway on the same database, with its internal metrics port open. */
let gateway: RunningGateway;
let connection: mongoose.Connection;

beforeAll(async () => {
  haven = await startTestHaven({
    env: {
      RATE_LIMIT_AUTH_MAX: String(signInLimit),
      RATE_LIMIT_MAIL_MAX: String(mailLimit),
      RATE_LIMIT_EXPORT_MAX: '1',
    },
  });
  gateway = await startGateway(loadGatewayConfig({ ...haven.gatewayEnv, METRICS_PORT: '0' }));
  connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `opsmetrics_${randomBytes(4).toString('hex')}` })
    .asPromise();
  await haven.services.notification.eventsReady;
});

afterAll(async () => {
  await connection?.dropDatabase().catch(() => undefined);
  await connection?.close();
  await gateway?.stop();
  await haven?.stop();
});

const notificationMetricsUrl = () => new URL('/metrics', haven.services.notification.url).toString();

it('counts a verification e-mail as sent by its kind, with the time from the sign-up to the mail server’s accept', async () => {
  const kind = { kind: 'verify-email' };
  const before = await scrapeMetrics(notificationMetricsUrl());
  const sent = metricValue(before, 'haven_emails_sent_total', kind);
  const timed = metricValue(before, 'haven_email_delivery_latency_seconds_count', kind);
  // Every kind's failure series is there before any failure, at 0, so a failure ratio has both counts.
  expect(metricSamples(before, 'haven_emails_failed_total', { kind: 'password-reset', reason: 'refused' })).toEqual([
    0,
  ]);

  const email = uniqueEmail('metrics.sent');
  const api = new ApiClient(haven.gatewayUrl);
  expect((await api.post('/api/auth/register', { email, password: 'a long password' })).status).toBe(201);
  await mailbox().waitForEmail({ to: email, what: `the verification e-mail to ${email}` });

  const after = await eventually('the notification service counting the e-mail as sent and timed', async () => {
    const text = await scrapeMetrics(notificationMetricsUrl());
    return metricValue(text, 'haven_emails_sent_total', kind) > sent &&
      metricValue(text, 'haven_email_delivery_latency_seconds_count', kind) > timed
      ? text
      : null;
  });
  // The sign-up's e-mail goes out within seconds, so the wait was under a minute.
  expect(metricValue(after, 'haven_email_delivery_latency_seconds_bucket', { ...kind, le: '60' })).toBeGreaterThan(
    metricValue(before, 'haven_email_delivery_latency_seconds_bucket', { ...kind, le: '60' }),
  );
  expect(after).not.toContain(email);
  expect(after).not.toContain(email.split('@')[0]);
});

it('counts an e-mail the mail server refuses, and one sent while it is down, as failed by kind and reason', async () => {
  const refused = uniqueEmail('metrics.refused');
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address === refused)
        callback(Object.assign(new Error('No such mailbox here'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const registry = createMetricsRegistry('notification');
  const metrics = mailMetrics(registry);
  const from = 'Haven <hello@haven.local>';
  // The mailer as main.ts builds it, counting on a registry of its own (the service's would mix in other files' mail).
  const mailer = createMailer(
    createTransport({ host: '127.0.0.1', port, secure: false, from, maxConnections: 1 }),
    from,
    deliveryModel(connection),
    log,
    { metrics },
  );
  const request = (to: string) => ({
    eventId: randomBytes(8).toString('hex'),
    occurredAt: new Date(),
    kind: 'password-reset' as const,
    userId: randomBytes(8).toString('hex'),
    to,
    email: { subject: 'Reset your password', text: 'A link', html: '<p>A link</p>', headers: {} },
  });
  const count = async (name: string, labels: Record<string, string>) =>
    metricValue(await registry.metrics(), name, { kind: 'password-reset', ...labels });
  try {
    expect(await mailer.deliverOnce(request(uniqueEmail('metrics.accepted')))).toBe('sent');
    expect(await mailer.deliverOnce(request(refused))).toBe('refused');
    expect(await count('haven_emails_sent_total', {})).toBe(1);
    expect(await count('haven_emails_failed_total', { reason: 'refused' })).toBe(1);
    expect(await count('haven_email_delivery_latency_seconds_count', {})).toBe(1);

    mailer.close(); // the pooled connection goes with the server
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // The same counts, for a mailer whose server is gone: nothing is handed over, and the send is one to try again.
    const down = createMailer(
      createTransport({ host: '127.0.0.1', port, secure: false, from }),
      from,
      deliveryModel(connection),
      log,
      { metrics },
    );
    try {
      await expect(down.deliverOnce(request(uniqueEmail('metrics.down')))).rejects.toThrow(/not sent yet/);
    } finally {
      down.close();
    }
    expect(await count('haven_emails_failed_total', { reason: 'retryable' })).toBe(1);
    expect(await count('haven_emails_failed_total', { reason: 'refused' })).toBe(1);
    expect(await count('haven_emails_sent_total', {})).toBe(1);
    const text = await registry.metrics();
    expect(text).not.toContain(refused);
  } finally {
    mailer.close();
    server.close();
  }
});

it('counts a refused sign-in at the gateway by its field and class, never by the client', async () => {
  const client = '127.0.9.7';
  const gatewayMetrics = `http://127.0.0.1:${gateway.metricsPort}/metrics`;
  const before = metricValue(await scrapeMetrics(gatewayMetrics), 'haven_rate_limit_refusals_total', {
    class: 'SIGN_IN',
  });
  const statuses: number[] = [];
  for (let attempt = 0; attempt <= signInLimit; attempt += 1) {
    const reply = await postFrom(gateway.url, client, '/api/auth/login', {
      email: 'nobody@example.com',
      password: 'guess-guess',
    });
    statuses.push(reply.status);
  }
  expect(statuses).toEqual([...Array<number>(signInLimit).fill(401), 429]);

  const text = await scrapeMetrics(gatewayMetrics);
  expect(metricValue(text, 'haven_rate_limit_refusals_total', { class: 'SIGN_IN' })).toBe(before + 1);
  expect(metricValue(text, 'haven_rate_limit_refusals_total', { field: 'login', class: 'SIGN_IN' })).toBe(1);
  expect(text).not.toContain(client);
  expect(text).not.toContain('nobody@example.com');
});

it('counts a refused data export at the gateway under its own name and class', async () => {
  const { client, userId } = await signedUpPerson(haven.gatewayUrl, 'metrics.export');
  // Through the second gateway, whose metrics this test reads; the budget is the account's, on the shared database.
  const headers = { cookie: client.cookie!, origin: new URL(haven.gatewayEnv!.APP_URL!).origin };
  const gatewayMetrics = `http://127.0.0.1:${gateway.metricsPort}/metrics`;
  const labels = { field: 'dataExport', class: 'EXPORT' };
  const before = metricValue(await scrapeMetrics(gatewayMetrics), 'haven_rate_limit_refusals_total', labels);
  expect((await fetch(`${gateway.url}/api/user/data-export`, { headers })).status).toBe(200);
  expect((await fetch(`${gateway.url}/api/user/data-export`, { headers })).status).toBe(429);

  const text = await scrapeMetrics(gatewayMetrics);
  expect(metricValue(text, 'haven_rate_limit_refusals_total', labels)).toBe(before + 1);
  expect(text).not.toContain(userId);
});

it('counts a reset refused for its recipient at the user service, which owns the field, never naming the address', async () => {
  const email = uniqueEmail('metrics.reset');
  expect(
    (await new ApiClient(haven.gatewayUrl).post('/api/auth/register', { email, password: 'a long password' })).status,
  ).toBe(201);
  const userMetrics = new URL('/metrics', haven.services.user.url).toString();
  const labels = { field: 'requestPasswordReset', class: 'MAIL' };
  const before = metricValue(await scrapeMetrics(userMetrics), 'haven_rate_limit_refusals_total', labels);
  // From as many clients as attempts: only the address's own budget can refuse.
  const statuses: number[] = [];
  for (let attempt = 1; attempt <= mailLimit + 1; attempt += 1) {
    statuses.push(
      (await postFrom(haven.gatewayUrl, `127.0.6.${attempt}`, '/api/auth/forgot-password', { email })).status,
    );
  }
  expect(statuses).toEqual([...Array<number>(mailLimit).fill(200), 429]);

  const text = await scrapeMetrics(userMetrics);
  expect(metricValue(text, 'haven_rate_limit_refusals_total', labels)).toBe(before + 1);
  expect(text).not.toContain(email);
});
