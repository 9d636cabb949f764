/**
 * Cookie consent through the REST facade and GraphQL, against the real stack: a visitor's choice kept under
 * the gateway's consent cookie, a signed-in user's under the account, 404 before any choice, the visitor's
 * choice moving to the account at sign-in (the newer one wins), and bad input refused with nothing stored.
 */
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';

let haven: TestHaven;
const password = 'a long enough password';

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

const userConsents = () => haven.collection('compliance', 'cookie_consents');
const visitorConsents = () => haven.collection('compliance', 'visitor_cookie_consents');

interface Consent {
  necessary: boolean;
  analytics: boolean;
  marketing: boolean;
  preferences: boolean;
  consentGivenAt: string;
  policyVersion: string;
}

const acceptAll = { necessary: true, analytics: true, marketing: true, preferences: true };
const essentialOnly = { necessary: true, analytics: false, marketing: false, preferences: false };
const custom = { necessary: true, analytics: false, marketing: true, preferences: true };

async function register(client: ApiClient, email = uniqueEmail('consent')): Promise<{ userId: string; email: string }> {
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', { email, password });
  expect(registered.status).toBe(201);
  return { userId: registered.body.user.id, email };
}

describe('a visitor (signed out)', () => {
  it('has no choice at first (404) and gets no cookie for asking', async () => {
    const visitor = new ApiClient(haven.gatewayUrl);
    const before = await visitor.get('/api/gdpr/cookie-consent');
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ message: expect.any(String) });
    expect(before.headers.getSetCookie()).toEqual([]);
  });

  it('saves a choice under a first-party, httpOnly consent cookie and reads it back', async () => {
    const visitor = new ApiClient(haven.gatewayUrl);
    const started = Date.now();
    const saved = await visitor.post<Consent>('/api/gdpr/cookie-consent', custom);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...custom, consentGivenAt: expect.any(String), policyVersion: '2025-01-28' });
    const givenAt = Date.parse(saved.body.consentGivenAt);
    expect(givenAt).toBeGreaterThanOrEqual(started - 1000);
    expect(givenAt).toBeLessThanOrEqual(Date.now() + 1000);

    const [cookie] = saved.headers.getSetCookie();
    expect(cookie).toMatch(/^haven_consent=[0-9a-f-]{36}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=31536000$/);
    const visitorId = visitor.cookieValue('haven_consent')!;
    expect(await (await visitorConsents()).findOne({ _id: visitorId })).toMatchObject({
      ...custom,
      policyVersion: '2025-01-28',
    });

    const read = await visitor.get<Consent>('/api/gdpr/cookie-consent');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(saved.body);

    // Another browser knows nothing of it.
    expect((await new ApiClient(haven.gatewayUrl).get('/api/gdpr/cookie-consent')).status).toBe(404);
  });

  it('changes its choice in place (one record per browser)', async () => {
    const visitor = new ApiClient(haven.gatewayUrl);
    await visitor.post('/api/gdpr/cookie-consent', acceptAll);
    const visitorId = visitor.cookieValue('haven_consent')!;
    const changed = await visitor.post<Consent>('/api/gdpr/cookie-consent', essentialOnly);
    expect(changed.status).toBe(200);
    expect(visitor.cookieValue('haven_consent')).toBe(visitorId);
    expect(await (await visitorConsents()).countDocuments({ _id: visitorId })).toBe(1);
    expect((await visitor.get<Consent>('/api/gdpr/cookie-consent')).body).toMatchObject(essentialOnly);
  });

  it('ignores a consent cookie it never issued', async () => {
    const response = await fetch(`${haven.gatewayUrl}/api/gdpr/cookie-consent`, {
      headers: { cookie: 'haven_consent=../../etc' },
    });
    expect(response.status).toBe(404);
  });
});

describe('a signed-in user', () => {
  it('has no choice at first, then keeps it on the account (no visitor cookie)', async () => {
    const client = new ApiClient(haven.gatewayUrl);
    const { userId } = await register(client);
    expect((await client.get('/api/gdpr/cookie-consent')).status).toBe(404);

    const saved = await client.post<Consent>('/api/gdpr/cookie-consent', acceptAll);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject(acceptAll);
    expect(client.cookieValue('haven_consent')).toBeUndefined();
    expect(await (await userConsents()).findOne({ _id: userId })).toMatchObject({ ...acceptAll });

    expect((await client.get<Consent>('/api/gdpr/cookie-consent')).body).toEqual(saved.body);
  });

  it('reads the choice on the federated User, and in compliance’s part of the data export', async () => {
    const client = new ApiClient(haven.gatewayUrl);
    await register(client);
    const exportedConsents = async () => {
      const part = await client.graphql<{ me: { complianceExport: { sections: string } } }>(
        '{ me { complianceExport { sections } } }',
      );
      expect(part.body.errors).toBeUndefined();
      return JSON.parse(part.body.data!.me.complianceExport.sections) as unknown;
    };
    const none = await client.graphql<{ me: { cookieConsent: Consent | null } }>(
      '{ me { cookieConsent { analytics } } }',
    );
    expect(none.body).toEqual({ data: { me: { cookieConsent: null } } });
    expect(await exportedConsents()).toEqual({ consents: { cookies: null } });
    await client.post('/api/gdpr/cookie-consent', custom);
    const read = await client.graphql<{ me: { cookieConsent: Consent } }>(
      '{ me { cookieConsent { necessary analytics marketing preferences consentGivenAt policyVersion } } }',
    );
    expect(read.body.data?.me.cookieConsent).toMatchObject(custom);
    expect(await exportedConsents()).toEqual({ consents: { cookies: read.body.data?.me.cookieConsent } });
  });

  it('cannot read another user’s choice', async () => {
    const owner = new ApiClient(haven.gatewayUrl);
    const { userId } = await register(owner);
    await owner.post('/api/gdpr/cookie-consent', acceptAll);
    const other = new ApiClient(haven.gatewayUrl);
    await register(other);
    const read = await other.graphql(
      'query ($id: ID!) { user(id: $id) { cookieConsent { analytics } complianceExport { sections } } }',
      { id: userId },
    );
    expect(read.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(JSON.stringify(read.body.data ?? null)).not.toMatch(/analytics|consents/);
  });
});

describe('moving a visitor’s choice to the account', () => {
  it('adopts the choice made before registering, and drops the visitor record and cookie', async () => {
    const browser = new ApiClient(haven.gatewayUrl);
    const chosen = await browser.post<Consent>('/api/gdpr/cookie-consent', custom);
    const visitorId = browser.cookieValue('haven_consent')!;
    const { userId } = await register(browser);

    const read = await browser.get<Consent>('/api/gdpr/cookie-consent');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(chosen.body);
    expect(browser.cookieValue('haven_consent')).toBeUndefined();
    expect(await (await visitorConsents()).findOne({ _id: visitorId })).toBeNull();
    expect(await (await userConsents()).findOne({ _id: userId })).toMatchObject(custom);
  });

  it('lets a newer visitor choice replace the account’s at sign-in', async () => {
    const first = new ApiClient(haven.gatewayUrl);
    const { email, userId } = await register(first);
    await first.post('/api/gdpr/cookie-consent', acceptAll);

    const laptop = new ApiClient(haven.gatewayUrl);
    await laptop.post('/api/gdpr/cookie-consent', essentialOnly);
    expect((await laptop.post('/api/auth/login', { email, password })).status).toBe(200);
    expect((await laptop.get<Consent>('/api/gdpr/cookie-consent')).body).toMatchObject(essentialOnly);
    expect(await (await userConsents()).findOne({ _id: userId })).toMatchObject(essentialOnly);
    // The first browser sees the account's choice, now the newer one.
    expect((await first.get<Consent>('/api/gdpr/cookie-consent')).body).toMatchObject(essentialOnly);
  });

  it('keeps the account’s choice when it is the newer one', async () => {
    const laptop = new ApiClient(haven.gatewayUrl);
    await laptop.post('/api/gdpr/cookie-consent', essentialOnly);
    const visitorId = laptop.cookieValue('haven_consent')!;

    const phone = new ApiClient(haven.gatewayUrl);
    const { email, userId } = await register(phone);
    await phone.post('/api/gdpr/cookie-consent', acceptAll);

    expect((await laptop.post('/api/auth/login', { email, password })).status).toBe(200);
    expect((await laptop.get<Consent>('/api/gdpr/cookie-consent')).body).toMatchObject(acceptAll);
    expect(await (await userConsents()).findOne({ _id: userId })).toMatchObject(acceptAll);
    expect(await (await visitorConsents()).findOne({ _id: visitorId })).toBeNull();
  });
});

describe('bad input', () => {
  it.each([
    ['necessary switched off', { ...acceptAll, necessary: false }, 'necessary'],
    ['a category that is not a boolean', { ...essentialOnly, analytics: 'yes' }, 'analytics'],
    ['a number for a category', { ...essentialOnly, preferences: 1 }, 'preferences'],
    ['a missing category', { necessary: true, analytics: false, preferences: false }, 'marketing'],
  ])('refuses %s with a 400 naming the field, storing nothing', async (_case, body, field) => {
    const before = [await (await visitorConsents()).countDocuments(), await (await userConsents()).countDocuments()];
    for (const signedIn of [false, true]) {
      const client = new ApiClient(haven.gatewayUrl);
      if (signedIn) await register(client);
      const response = await client.post('/api/gdpr/cookie-consent', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ field, message: expect.stringMatching(new RegExp(field, 'i')) });
      expect(client.cookieValue('haven_consent')).toBeUndefined();
      expect((await client.get('/api/gdpr/cookie-consent')).status).toBe(404);
    }
    expect([await (await visitorConsents()).countDocuments(), await (await userConsents()).countDocuments()]).toEqual(
      before,
    );
  });

  it('refuses a body that is not a JSON object', async () => {
    const visitor = new ApiClient(haven.gatewayUrl);
    const response = await visitor.request('POST', '/api/gdpr/cookie-consent', { rawBody: '[true]' });
    expect(response.status).toBe(400);
    expect(visitor.cookieValue('haven_consent')).toBeUndefined();
  });
});
