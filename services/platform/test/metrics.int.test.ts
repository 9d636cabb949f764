import { topicOf } from '@haven/proto';
import type { RunningGateway } from '../../../gateway/src/app';
import { loadGatewayConfig, startGateway } from '../../../gateway/src/main';
import { eventually } from '../../../tools/testing/eventually';
import { serviceNames, startTestHaven, type ServiceName, type TestHaven } from '../../../tools/testing/haven';
import { uniqueEmail } from '../../../tools/testing/http';
import { metricValue, scrapeMetrics } from '../../../tools/testing/metrics';
import { signedUpPerson } from '../../../tools/testing/subscription';

let haven: TestHaven;
/** A second gateway on the same database, with its internal metrics port open. */
let gateway: RunningGateway;

beforeAll(async () => {
  haven = await startTestHaven();
  gateway = await startGateway(loadGatewayConfig({ ...haven.gatewayEnv, METRICS_PORT: '0' }));
});

afterAll(async () => {
  await gateway?.stop();
  await haven?.stop();
});

const metricsUrlOf = (service: ServiceName) => new URL('/metrics', haven.services[service].url).toString();

describe('metrics', () => {
  it('counts a sign-up’s event as published by the user service’s relay, handled by a consumer, and the backlog empties', async () => {
    const userMetrics = metricsUrlOf('user');
    const notificationMetrics = metricsUrlOf('notification');
    const published = metricValue(await scrapeMetrics(userMetrics), 'haven_outbox_published_total');
    const userTopic = { topic: topicOf('user') };
    const handled = metricValue(
      await scrapeMetrics(notificationMetrics),
      'haven_consumer_events_handled_total',
      userTopic,
    );

    await signedUpPerson(haven.gatewayUrl, 'metrics');

    await eventually('the user service’s relay counting the sign-up’s event, with nothing left waiting', async () => {
      const text = await scrapeMetrics(userMetrics);
      return (
        metricValue(text, 'haven_outbox_published_total') > published &&
        metricValue(text, 'haven_outbox_backlog_read_ok') === 1 &&
        text.includes('haven_outbox_backlog_entities{service="user"} 0') &&
        text.includes('haven_outbox_oldest_pending_age_seconds{service="user"} 0')
      );
    });
    await eventually('the notification service counting the sign-up’s event as handled', async () => {
      const text = await scrapeMetrics(notificationMetrics);
      return metricValue(text, 'haven_consumer_events_handled_total', userTopic) > handled;
    });
  });

  it('labels requests by route template and status, and no label holds a person’s id or address', async () => {
    const email = uniqueEmail('metrics.labels');
    const { client, userId } = await signedUpPerson(haven.gatewayUrl, 'labels', email);
    // Requests through the second gateway, whose metrics this test reads.
    const headers = { cookie: client.cookie!, origin: new URL(haven.gatewayEnv!.APP_URL!).origin };
    expect((await fetch(`${gateway.url}/api/user`, { headers })).status).toBe(200);
    // A route with an id in its path: the person is no administrator, and the label is the template.
    const refused = await fetch(`${gateway.url}/api/admin/users/${userId}`, { method: 'DELETE', headers });
    expect(refused.status).toBe(403);

    const gatewayText = await scrapeMetrics(`http://127.0.0.1:${gateway.metricsPort}/metrics`);
    expect(
      metricValue(gatewayText, 'haven_http_request_duration_seconds_count', { route: '/api/user', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metricValue(gatewayText, 'haven_http_request_duration_seconds_count', {
        route: '/api/admin/users/:id',
        status: '403',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(gatewayText).toContain('haven_process_cpu_user_seconds_total');

    const texts = [gatewayText, ...(await Promise.all(serviceNames.map((name) => scrapeMetrics(metricsUrlOf(name)))))];
    for (const text of texts) {
      expect(text).toContain('haven_http_request_duration_seconds');
      expect(text).not.toContain(userId);
      expect(text).not.toContain(email);
      expect(text).not.toContain(email.split('@')[0]!);
    }
  });

  it('is not served through the gateway’s public port', async () => {
    const paths = [
      '/metrics',
      '/hooks/user/metrics',
      '/hooks/notification/metrics',
      '/api/metrics',
      '/graphql/metrics',
    ];
    for (const path of paths) {
      const reply = await fetch(`${haven.gatewayUrl}${path}`);
      const body = await reply.text();
      expect({ path, body: body.includes('haven_') || body.includes('# HELP') }).toEqual({ path, body: false });
    }
  });
});
