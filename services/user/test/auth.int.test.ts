import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

const password = 'correct horse battery';

async function storedUsers() {
  return (await haven.collection('user', 'users')).countDocuments();
}

describe('sign-up and sign-in through the REST facade', () => {
  it('creates an account, signs it in with an httpOnly cookie, and stores only a password hash', async () => {
    const client = new ApiClient(haven.gatewayUrl);
    const email = uniqueEmail('Ann');
    const response = await client.post('/api/auth/register', {
      email: `  ${email.toUpperCase()} `,
      password,
      firstName: 'Ann',
    });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      user: { email: email.toLowerCase(), firstName: 'Ann', lastName: null, emailVerified: false },
    });
    expect(JSON.stringify(response.body)).not.toMatch(/password|token/i);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^haven_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);

    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: email.toLowerCase(), firstName: 'Ann' });

    const stored = await (await haven.collection('user', 'users')).findOne({ email: email.toLowerCase() });
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(stored)).not.toContain(password);
  });

  it('refuses a second account for the same address, however it is typed', async () => {
    const email = uniqueEmail('dup');
    expect((await new ApiClient(haven.gatewayUrl).post('/api/auth/register', { email, password })).status).toBe(201);
    const before = await storedUsers();

    const again = await new ApiClient(haven.gatewayUrl).post('/api/auth/register', {
      email: email.toUpperCase(),
      password,
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'An account with this email already exists' });
    expect(await storedUsers()).toBe(before);
  });

  it('says only "Invalid email or password" for a wrong password or an unknown address', async () => {
    const email = uniqueEmail('bob');
    await new ApiClient(haven.gatewayUrl).post('/api/auth/register', { email, password });

    const wrongPassword = await new ApiClient(haven.gatewayUrl).post('/api/auth/login', {
      email,
      password: 'not the password',
    });
    const unknownEmail = await new ApiClient(haven.gatewayUrl).post('/api/auth/login', {
      email: uniqueEmail('nobody'),
      password,
    });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'Invalid email or password' });
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  it('signs in, and signing out clears the cookie, redirects home and revokes the old token', async () => {
    const email = uniqueEmail('carol');
    await new ApiClient(haven.gatewayUrl).post('/api/auth/register', { email, password });
    const client = new ApiClient(haven.gatewayUrl);
    const login = await client.post('/api/auth/login', { email: email.toUpperCase(), password });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ user: { email } });
    const sessionCookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;

    const logout = await client.request('GET', '/api/logout', { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe('/');
    expect(logout.headers.get('set-cookie')).toMatch(/haven_session=;.*Max-Age=0/);
    expect((await client.get('/api/user')).status).toBe(401);

    // The token from before the logout no longer signs anyone in.
    const replay = await fetch(`${haven.gatewayUrl}/api/user`, { headers: { cookie: sessionCookie } });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ message: 'Not signed in' });
  });

  it('answers 401 on /api/user when signed out', async () => {
    const response = await new ApiClient(haven.gatewayUrl).get('/api/user');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Not signed in' });
  });
});

describe('sign-in providers that are not configured', () => {
  it.each([
    ['/api/auth/google', 'google'],
    ['/api/login', 'platform'],
  ])('%s leads back to /auth with a note', async (path, provider) => {
    const response = await new ApiClient(haven.gatewayUrl).get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/auth?signin=unavailable&provider=${provider}`);
  });
});

describe('bad input gets a 400 naming the problem and stores nothing', () => {
  const cases: Array<{
    name: string;
    send: (client: ApiClient) => ReturnType<ApiClient['request']>;
    message: RegExp;
    field?: string;
  }> = [
    {
      name: 'missing e-mail',
      send: (c) => c.post('/api/auth/register', { password }),
      message: /^Email is required$/,
      field: 'email',
    },
    {
      name: 'empty e-mail',
      send: (c) => c.post('/api/auth/register', { email: ' ', password }),
      message: /^Email is required$/,
      field: 'email',
    },
    {
      name: 'malformed e-mail',
      send: (c) => c.post('/api/auth/register', { email: 'ann.example.com', password }),
      message: /valid email/,
      field: 'email',
    },
    {
      name: 'short password',
      send: (c) => c.post('/api/auth/register', { email: uniqueEmail(), password: 'seven77' }),
      message: /^Password must be at least 8 characters$/,
      field: 'password',
    },
    {
      name: 'missing password',
      send: (c) => c.post('/api/auth/register', { email: uniqueEmail() }),
      message: /^Password is required$/,
      field: 'password',
    },
    {
      name: 'e-mail of the wrong type',
      send: (c) => c.post('/api/auth/register', { email: 42, password }),
      message: /^Email must be a string$/,
      field: 'email',
    },
    {
      name: 'password of the wrong type',
      send: (c) => c.post('/api/auth/register', { email: uniqueEmail(), password: 12345678 }),
      message: /^Password must be a string$/,
      field: 'password',
    },
    {
      name: 'first name of the wrong type',
      send: (c) => c.post('/api/auth/register', { email: uniqueEmail(), password, firstName: ['Ann'] }),
      message: /^First name must be a string$/,
      field: 'firstName',
    },
    {
      name: 'malformed JSON',
      send: (c) => c.request('POST', '/api/auth/register', { rawBody: '{"email": "a@b.co", "password": ' }),
      message: /^Malformed JSON in request body$/,
    },
    {
      name: 'a JSON array instead of an object',
      send: (c) => c.request('POST', '/api/auth/register', { rawBody: '[]' }),
      message: /must be a JSON object/,
    },
    {
      name: 'no JSON content type',
      send: (c) =>
        c.request('POST', '/api/auth/register', {
          rawBody: 'email=a@b.co',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      message: /must be a JSON object/,
    },
    {
      name: 'an oversized body',
      send: (c) => c.post('/api/auth/register', { email: uniqueEmail(), password, firstName: 'x'.repeat(20_000) }),
      message: /too large/,
    },
    {
      name: 'login without password',
      send: (c) => c.post('/api/auth/login', { email: uniqueEmail() }),
      message: /^Password is required$/,
      field: 'password',
    },
  ];

  it.each(cases)('$name', async ({ send, message, field }) => {
    const before = await storedUsers();
    const response = await send(new ApiClient(haven.gatewayUrl));
    expect(response.status).toBe(400);
    const body = response.body as { message: string; field?: string };
    expect(body.message).toMatch(message);
    if (field) expect(body.field).toBe(field);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await storedUsers()).toBe(before);
  });
});

describe('the same through GraphQL', () => {
  it('registers, reads the current user and signs out, with the token only ever in the cookie', async () => {
    const client = new ApiClient(haven.gatewayUrl);
    const email = uniqueEmail('gql');
    const registered = await client.graphql<{ register: { user: { email: string } } }>(
      'mutation ($input: RegisterInput!) { register(input: $input) { user { email } } }',
      { input: { email, password, lastName: 'Lee' } },
    );
    expect(registered.body.errors).toBeUndefined();
    expect(registered.body.data?.register.user.email).toBe(email);
    expect(JSON.stringify(registered.body)).not.toMatch(/eyJ/); // no JWT in the body
    expect(client.hasSession).toBe(true);

    const me = await client.graphql<{
      me: { email: string; lastName: string; subscriptionStatus: { needsSetup: boolean } };
    }>('{ me { email lastName subscriptionStatus { needsSetup hasActiveSubscription planType } } }');
    expect(me.body.data?.me).toMatchObject({
      email,
      lastName: 'Lee',
      subscriptionStatus: { needsSetup: true, hasActiveSubscription: false, planType: 'free' },
    });

    const logout = await client.graphql('mutation { logout }');
    expect(logout.body.data).toEqual({ logout: true });
    expect(client.hasSession).toBe(false);
    expect((await client.graphql('{ me { id } }')).body.data).toEqual({ me: null });
  });

  it('reports a short password with its field', async () => {
    const response = await new ApiClient(haven.gatewayUrl).graphql(
      'mutation ($input: RegisterInput!) { register(input: $input) { user { id } } }',
      { input: { email: uniqueEmail(), password: 'short' } },
    );
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'Password must be at least 8 characters',
      extensions: { code: 'BAD_USER_INPUT', field: 'password' },
    });
  });

  it('refuses queries nested deeper than the limit', async () => {
    const deep =
      '{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } }';
    const response = await new ApiClient(haven.gatewayUrl).graphql(deep);
    expect(response.body.errors?.[0]?.message).toBe('Query is nested too deeply: depth 12, at most 10 allowed');
  });
});

describe('protection', () => {
  it('refuses a state-changing request from another site', async () => {
    const before = await storedUsers();
    const response = await new ApiClient(haven.gatewayUrl).request('POST', '/api/auth/register', {
      json: { email: uniqueEmail(), password },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'Cross-site request refused' });
    expect(await storedUsers()).toBe(before);
  });

  it('does not sign out from a cross-site link', async () => {
    const client = new ApiClient(haven.gatewayUrl);
    await client.post('/api/auth/register', { email: uniqueEmail('keep'), password });
    const response = await client.request('GET', '/api/logout', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatch(/<form method="post" action="\/api\/logout">/);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect((await client.get('/api/user')).status).toBe(200);
  });

  it('rate-limits sign-in attempts per client with a 429 and Retry-After', async () => {
    const limited = await startTestHaven({ env: { RATE_LIMIT_AUTH_MAX: '3' } });
    try {
      const statuses: number[] = [];
      let last;
      for (let attempt = 0; attempt < 5; attempt += 1) {
        last = await new ApiClient(limited.gatewayUrl).post('/api/auth/login', {
          email: 'who@example.com',
          password: 'whatever1',
        });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((last!.body as { message: string }).message).toMatch(/Too many attempts/);
    } finally {
      await limited.stop();
    }
  });
});
