/**
 * Routes that are not GraphQL: a service mounts the plain HTTP routes its catalog entry declares (raw body
 * for a webhook's signature, a form POST) and the gateway forwards /hooks/<service>/… to exactly those, untouched.
 */
import {
  baseConfigShape,
  loadConfig,
  loadTypeDefs,
  serviceHttpRoutes,
  startService,
  type RunningService,
} from '@haven/platform';
import express from 'express';
import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { RunningGateway } from '../src/app';
import { loadGatewayConfig, startGateway } from '../src/main';
import { repoRoot } from '../../tools/infra';
import { testKeys } from '../../tools/testing/haven';
import { testInfra } from '../../tools/testing/infra-control';

const signingKey = 'whsec_test_only';
const secret = randomBytes(24).toString('hex');
let service: RunningService;
let forms: RunningService;
let gateway: RunningGateway;

beforeAll(async () => {
  const infra = testInfra();
  const runId = randomBytes(4).toString('hex');
  const common = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.HAVEN_TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    MONGO_URL: infra.mongoUrl,
    KAFKA_BROKERS: infra.kafkaBrokers.join(','),
    JWT_PUBLIC_KEY: testKeys().publicKey,
    SUBGRAPH_SECRET: secret,
  };
  // Billing's declared webhook: the signature is over the exact bytes sent, so the body is read raw.
  const webhook = serviceHttpRoutes('billing', {
    'POST /stripe/webhook': [
      express.raw({ type: 'application/json' }),
      (req, res) => {
        const body = req.body as Buffer;
        const expected = createHmac('sha256', signingKey).update(body).digest('hex');
        if (req.header('x-signature') !== expected) {
          res.status(400).json({ message: 'Bad signature' });
          return;
        }
        res.json({
          received: JSON.parse(body.toString('utf8')) as unknown,
          bytes: body.length,
          query: req.query,
          // The gateway-to-service headers as they arrived, so a test can tell who set them.
          haven: Object.fromEntries(Object.entries(req.headers).filter(([name]) => name.startsWith('x-haven-'))),
        });
      },
    ],
  });
  // Notification's declared routes: a form POST answered with HTML, and a GET that never answers (the
  // gateway's deadline decides).
  const form = serviceHttpRoutes('notification', {
    'POST /newsletter/one-click': [
      express.urlencoded({ extended: false }),
      (req, res) => {
        res.type('html').send(`<p>Unsubscribed ${String((req.body as Record<string, string>).list)}</p>`);
      },
    ],
    'GET /newsletter/one-click': [() => undefined],
    'POST /emails/one-click': [(_req, res) => void res.status(204).end()],
    'GET /emails/one-click': [(_req, res) => void res.status(204).end()],
  });
  const config = loadConfig(baseConfigShape('billing', 0), { ...common, MONGO_DB: `t${runId}_hooks` });
  service = await startService('billing', config, () => ({
    typeDefs: loadTypeDefs(join(repoRoot, 'services', 'billing', 'src', 'schema.graphql')),
    resolvers: {},
    httpRoutes: webhook,
  }));
  const formsConfig = loadConfig(baseConfigShape('notification', 0), { ...common, MONGO_DB: `t${runId}_forms` });
  forms = await startService('notification', formsConfig, () => ({
    typeDefs: loadTypeDefs(join(repoRoot, 'services', 'notification', 'src', 'schema.graphql')),
    resolvers: {},
    httpRoutes: form,
  }));
  const unused = 'http://127.0.0.1:9/graphql';
  gateway = await startGateway(
    loadGatewayConfig({
      ...common,
      MONGO_DB: `t${runId}_gateway`,
      SUBGRAPH_TIMEOUT_MS: '1000',
      USER_SERVICE_URL: unused,
      QUOTE_SERVICE_URL: unused,
      BILLING_SERVICE_URL: service.url,
      NOTIFICATION_SERVICE_URL: forms.url,
      COMPLIANCE_SERVICE_URL: unused,
      WEB_DIST_DIR: join(repoRoot, 'web', 'dist'),
    }),
  );
});

afterAll(async () => {
  await gateway?.stop();
  await service?.stop();
  await forms?.stop();
});

it('passes a webhook through with its raw body, so the signature checks out', async () => {
  // Spacing and key order a JSON round trip would lose.
  const body = '{"type":  "invoice.paid",   "id": "evt_1"}';
  const signature = createHmac('sha256', signingKey).update(body).digest('hex');
  const response = await fetch(`${gateway.url}/hooks/billing/stripe/webhook?attempt=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': signature },
    body,
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({
    received: { type: 'invoice.paid', id: 'evt_1' },
    bytes: body.length,
    query: { attempt: '1' },
  });

  const forged = await fetch(`${gateway.url}/hooks/billing/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': signature },
    body: body.replace('evt_1', 'evt_2'),
  });
  expect(forged.status).toBe(400);
});

it('drops every x-haven-* header the client sent: the service hears only what the gateway set', async () => {
  const body = '{"type":"invoice.paid","id":"evt_3"}';
  const response = await fetch(`${gateway.url}/hooks/billing/stripe/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature': createHmac('sha256', signingKey).update(body).digest('hex'),
      // A visitor id of someone else's consent record, and names the gateway or the services use.
      'x-haven-visitor': '0b7c4a62-5a0e-4f43-9a53-2d8c8f1e0a11',
      'x-haven-sessions-ended': 'someone',
      'x-haven-client-address': '203.0.113.9',
      'x-haven-anything-new': 'spoofed',
    },
    body,
  });
  expect(response.status).toBe(200);
  const { haven } = (await response.json()) as { haven: Record<string, string> };
  expect(Object.keys(haven).sort()).toEqual(['x-haven-client-address', 'x-haven-subgraph-secret']);
  expect(haven['x-haven-client-address']).not.toBe('203.0.113.9');
  expect(haven['x-haven-subgraph-secret']).toBe(secret);
});

it('passes a form POST and the service’s HTML reply', async () => {
  const response = await fetch(`${gateway.url}/hooks/notification/newsletter/one-click`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'list=newsletter',
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/text\/html/);
  expect(await response.text()).toBe('<p>Unsubscribed newsletter</p>');
});

it('answers 404 for an unknown service, an undeclared route or method, and 503 when the route does not answer in time', async () => {
  expect((await fetch(`${gateway.url}/hooks/nobody/webhook`, { method: 'POST' })).status).toBe(404);
  expect((await fetch(`${gateway.url}/hooks/billing/webhook`, { method: 'POST' })).status).toBe(404);
  expect((await fetch(`${gateway.url}/hooks/billing/stripe/webhook`)).status).toBe(404);
  expect((await fetch(`${gateway.url}/hooks/billing/graphql`, { method: 'POST' })).status).toBe(404);
  const slow = await fetch(`${gateway.url}/hooks/notification/newsletter/one-click`);
  expect(slow.status).toBe(503);
  expect(await slow.json()).toEqual({
    message: 'The notification service did not answer in time. Please try again shortly.',
  });
});

it('keeps the service’s routes closed to anyone but the gateway', async () => {
  const direct = await fetch(forms.url.replace('/graphql', '/http/newsletter/one-click'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'list=newsletter',
  });
  expect(direct.status).toBe(401);
});
