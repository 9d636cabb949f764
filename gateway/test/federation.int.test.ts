import { ApiClient, uniqueEmail } from '../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../tools/testing/haven';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

it('answers one query with fields from every subgraph, for the signed-in user only', async () => {
  const client = new ApiClient(haven.gatewayUrl);
  const email = uniqueEmail('fed');
  await client.post('/api/auth/register', { email, password: 'federation works' });

  const response = await client.graphql<Record<string, unknown>>(`{
    me {
      email
      stats { totalQuotes totalEntries favoriteQuotes }
      subscriptionStatus { planType status needsSetup hasActiveSubscription isTrialing cancelAtPeriodEnd }
      emailPreferences { marketingEmails productUpdates securityNotifications newsletter }
    }
    gdprConfig { gdprEnabled cookieBannerEnabled enhancedConsentEnabled }
  }`);
  expect(response.body.errors).toBeUndefined();
  expect(response.body.data).toEqual({
    me: {
      email,
      stats: { totalQuotes: 0, totalEntries: 0, favoriteQuotes: 0 },
      subscriptionStatus: {
        planType: 'free',
        status: 'none',
        needsSetup: true,
        hasActiveSubscription: false,
        isTrialing: false,
        cancelAtPeriodEnd: false,
      },
      emailPreferences: {
        marketingEmails: false,
        productUpdates: true,
        securityNotifications: true,
        newsletter: false,
      },
    },
    gdprConfig: { gdprEnabled: true, cookieBannerEnabled: true, enhancedConsentEnabled: false },
  });
});

it('keeps the spec’s field names on the REST side', async () => {
  const client = new ApiClient(haven.gatewayUrl);
  await client.post('/api/auth/register', { email: uniqueEmail('rest'), password: 'federation works' });

  const status = await client.get('/api/subscription-status');
  expect(status.status).toBe(200);
  expect(status.body).toEqual({
    planType: 'free',
    status: 'none',
    isTrialing: false,
    needsSetup: true,
    trialEnd: null,
    current_period_end: null,
    cancel_at_period_end: false,
  });
  expect((await client.get('/api/user/stats')).body).toEqual({ totalQuotes: 0, totalEntries: 0, favoriteQuotes: 0 });
  expect((await new ApiClient(haven.gatewayUrl).get('/api/gdpr/config')).body).toEqual({
    gdprEnabled: true,
    cookieBannerEnabled: true,
    enhancedConsentEnabled: false,
  });
  expect((await new ApiClient(haven.gatewayUrl).get('/api/subscription-status')).status).toBe(401);
});

it('answers 503 naming the service when a subgraph is down', async () => {
  const client = new ApiClient(haven.gatewayUrl);
  await client.post('/api/auth/register', { email: uniqueEmail('down'), password: 'federation works' });
  await haven.services.billing.stop();
  const response = await client.get('/api/subscription-status');
  expect(response.status).toBe(503);
  expect(response.body).toEqual({ message: 'The billing service is unavailable. Please try again shortly.' });
});

it('echoes the caller’s correlation id, and makes one when none or a strange one is offered', async () => {
  const traced = await fetch(`${haven.gatewayUrl}/api/gdpr/config`, {
    headers: { 'x-correlation-id': 'support-ticket-42' },
  });
  expect(traced.headers.get('x-correlation-id')).toBe('support-ticket-42');
  const fresh = await fetch(`${haven.gatewayUrl}/api/gdpr/config`);
  expect(fresh.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  const strange = await fetch(`${haven.gatewayUrl}/api/gdpr/config`, {
    headers: { 'x-correlation-id': '<script>'.repeat(40) },
  });
  expect(strange.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
});
