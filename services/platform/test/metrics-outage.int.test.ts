import { topicOf } from '@haven/proto';
import express from 'express';
import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  consumerLagMetrics,
  createKafka,
  createLogger,
  createMetricsRegistry,
  EventConsumer,
  metricsEndpoint,
  type EventHandlers,
} from '../src';
import { skipEarlierFilesEvents, untilEveryConsumerJoined } from '../../../tools/testing/consumer-groups';
import { eventuallyExpect } from '../../../tools/testing/eventually';
import { startTestHaven, type ServiceName, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestKafka, stopTestKafka, testInfra } from '../../../tools/testing/infra-control';
import { metricSamples, metricValue, scrapeMetrics } from '../../../tools/testing/metrics';
import { signedUpPerson } from '../../../tools/testing/subscription';

let haven: TestHaven | undefined;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await startTestKafka(); // the broker runs for the next file, even after a failure
  if (!haven) return;
  const running = haven;
  try {
    await untilEveryConsumerJoined(running);
  } finally {
    await running.stop();
  }
}, 180_000);

const runningHaven = (): TestHaven => {
  if (!haven) throw new Error('the file’s Haven is not running');
  return haven;
};

const metricsUrlOf = (service: ServiceName) => new URL('/metrics', runningHaven().services[service].url).toString();

it('counts the outbox backlog while Kafka is down, answers /metrics without a lag figure, and both return to 0 once it is back', async () => {
  const running = runningHaven();
  const userMetrics = metricsUrlOf('user');
  const notificationMetrics = metricsUrlOf('notification');
  // The mailer's group on the user service's topic: where a sign-up's verification e-mail comes from.
  const mailer = { group: 'notification', topic: topicOf('user') };
  await running.services.notification.eventsReady;
  await eventuallyExpect('the user service’s backlog empty and the mailer caught up, before the outage', async () => {
    const [userText, notificationText] = await Promise.all([
      scrapeMetrics(userMetrics),
      scrapeMetrics(notificationMetrics),
    ]);
    expect(metricSamples(userText, 'haven_outbox_backlog_entities')).toEqual([0]);
    expect(metricSamples(notificationText, 'haven_consumer_lag_messages', mailer)).toEqual([0]);
  });
  const handledBefore = metricValue(
    await scrapeMetrics(notificationMetrics),
    'haven_consumer_events_handled_total',
    mailer,
  );

  await stopTestKafka();
  try {
    const response = await new ApiClient(running.gatewayUrl).post('/api/auth/register', {
      email: uniqueEmail('metrics.outage'),
      password: 'kafka is away for a while',
    });
    expect(response.status).toBe(201);
    await eventuallyExpect('the user service counting the sign-up’s event as waiting', async () => {
      const text = await scrapeMetrics(userMetrics);
      expect(metricValue(text, 'haven_outbox_backlog_read_ok')).toBe(1);
      expect(metricValue(text, 'haven_outbox_backlog_entities')).toBeGreaterThanOrEqual(1);
      expect(metricValue(text, 'haven_outbox_oldest_pending_age_seconds')).toBeGreaterThan(0);
    });
    // Kafka away: the scrape still answers within its bound (two seconds for Kafka, and slack for a busy
    // machine), and says it has no lag figure rather than showing a stale one.
    const text = await scrapeMetrics(notificationMetrics, 10_000);
    expect(metricValue(text, 'haven_consumer_lag_read_ok')).toBe(0);
    expect(metricSamples(text, 'haven_consumer_lag_messages')).toEqual([]);
  } finally {
    await startTestKafka();
  }

  await eventuallyExpect(
    'the user service’s backlog empty again after Kafka restarted',
    async () => {
      const text = await scrapeMetrics(userMetrics);
      expect(metricValue(text, 'haven_outbox_backlog_read_ok')).toBe(1);
      expect(metricSamples(text, 'haven_outbox_backlog_entities')).toEqual([0]);
      expect(metricSamples(text, 'haven_outbox_oldest_pending_age_seconds')).toEqual([0]);
    },
    { timeoutMs: 120_000 },
  );
  await eventuallyExpect(
    'the mailer’s group handling the sign-up’s event and its lag back to 0',
    async () => {
      const text = await scrapeMetrics(notificationMetrics);
      expect(metricValue(text, 'haven_consumer_lag_read_ok')).toBe(1);
      expect(metricValue(text, 'haven_consumer_events_handled_total', mailer)).toBeGreaterThan(handledBefore);
      expect(metricSamples(text, 'haven_consumer_lag_messages', mailer)).toEqual([0]);
    },
    { timeoutMs: 120_000 },
  );
}, 300_000);

it('counts a stopped consumer group’s lag on its topic as events are published, and 0 once it has caught up', async () => {
  const running = runningHaven();
  const log = createLogger('metrics-outage-test', 'silent');
  const kafka = createKafka('metrics-outage-test', testInfra().kafkaBrokers, log);
  const groupId = `lag-test-${randomBytes(4).toString('hex')}`;
  const topic = topicOf('user');
  // The group starts at the topic's end: earlier files' events are not this test's.
  await skipEarlierFilesEvents(testInfra().kafkaBrokers, { [groupId]: [topic] });
  const registered: string[] = [];
  const handlers: EventHandlers = {
    'user.registered': async (payload) => void registered.push(payload.userId),
  };
  // A consumer in this process with its lag on a /metrics of its own, made as a service makes them.
  const registry = createMetricsRegistry('lag-test');
  const lagMetrics = consumerLagMetrics(registry, kafka, [{ groupId, topics: [topic] }], log);
  const app = express();
  app.get('/metrics', metricsEndpoint(registry));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const metricsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  const labels = { group: groupId, topic };
  const lagNow = async () => {
    const text = await scrapeMetrics(metricsUrl);
    expect(metricValue(text, 'haven_consumer_lag_read_ok')).toBe(1);
    return metricSamples(text, 'haven_consumer_lag_messages', labels);
  };
  const connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: `lag_${randomBytes(4).toString('hex')}` })
    .asPromise();
  const newConsumer = () => new EventConsumer({ kafka, connection, log, spec: { groupId, topics: [topic], handlers } });
  const consumers: EventConsumer[] = [];
  try {
    const first = newConsumer();
    consumers.push(first);
    first.supervise();
    await first.ready;
    await eventuallyExpect('the group’s lag at 0 before anything is published', async () => {
      expect(await lagNow()).toEqual([0]);
    });
    await first.stop();

    const { userId } = await signedUpPerson(running.gatewayUrl, 'lag');
    await eventuallyExpect('the stopped group’s lag counting the sign-up’s event', async () => {
      expect((await lagNow())[0]).toBeGreaterThanOrEqual(1);
    });
    expect(registered).not.toContain(userId);

    const second = newConsumer();
    consumers.push(second);
    second.supervise();
    await eventuallyExpect(
      'the group’s lag back to 0 once its consumer runs again',
      async () => {
        expect(registered).toContain(userId);
        expect(await lagNow()).toEqual([0]);
      },
      { timeoutMs: 120_000 },
    );
  } finally {
    await Promise.all(consumers.map((consumer) => consumer.stop()));
    await lagMetrics.close();
    await new Promise((resolve) => server.close(resolve));
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
  }
}, 180_000);
