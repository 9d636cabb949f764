/**
 * The holes a security review found, each shut at its mechanism: rate limits on every spelling of an operation,
 * X-Forwarded-For from nobody, subgraphs that answer the gateway only and hold the same limits,
 * errors that leave no internals.
 */
import { startTestHaven, testSubgraphSecret, type TestHaven } from '../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../tools/testing/http';
import { rawPost, type RawReply } from '../../tools/testing/raw-http';

let haven: TestHaven;
const max = 3;

beforeAll(async () => {
  haven = await startTestHaven({ env: { RATE_LIMIT_AUTH_MAX: String(max) } });
});

afterAll(async () => {
  await haven?.stop();
});

const graphql = (query: string, variables?: Record<string, unknown>) => JSON.stringify({ query, variables });
const loginArgs = 'input: { email: "nobody@example.com", password: "guess-guess" }';

/** The code of the first error, or 'ok' when there was none. */
const outcome = (reply: RawReply) => (reply.json.errors?.[0]?.extensions?.code as string | undefined) ?? 'ok';

describe('rate limits count the operation as it runs, whatever its spelling', () => {
  const spellings: Array<[string, string, Record<string, unknown>?]> = [
    ['a plain root field', `mutation { login(${loginArgs}) { user { id } } }`],
    ['an inline fragment', `mutation { ... on Mutation { login(${loginArgs}) { user { id } } } }`],
    [
      'a named fragment spread',
      `mutation { ...Guess } fragment Guess on Mutation { login(${loginArgs}) { user { id } } }`,
    ],
    [
      'variables and an alias inside nested fragments',
      'mutation ($input: LoginInput!, $yes: Boolean!) { ... { ... @include(if: $yes) { attempt: login(input: $input) { user { id } } } } }',
      { input: { email: 'nobody@example.com', password: 'guess-guess' }, yes: true },
    ],
  ];

  it.each(
    spellings.map(([name, query, variables], index) => ({ name, query, variables, from: `127.0.1.${index + 1}` })),
  )('login spelled as $name: refused once the limit is used up', async ({ query, variables, from }) => {
    const outcomes: string[] = [];
    for (let attempt = 0; attempt <= max; attempt += 1) {
      outcomes.push(outcome(await rawPost(`${haven.gatewayUrl}/graphql`, graphql(query, variables), { from })));
    }
    expect(outcomes).toEqual([...Array<string>(max).fill('UNAUTHENTICATED'), 'TOO_MANY_REQUESTS']);
  });

  it('counts the spellings together: one client, three spellings, one bucket', async () => {
    const from = '127.0.1.10';
    const send = (index: number) =>
      rawPost(`${haven.gatewayUrl}/graphql`, graphql(spellings[index]![1], spellings[index]![2]), { from });
    expect([outcome(await send(0)), outcome(await send(1)), outcome(await send(2))]).toEqual(
      Array(3).fill('UNAUTHENTICATED'),
    );
    const refused = await send(3);
    expect(outcome(refused)).toBe('TOO_MANY_REQUESTS');
    expect(refused.json.errors?.[0]?.message).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
  });

  it('refuses twenty aliased sign-ups in one fragment as a whole: no account is made', async () => {
    const emails = Array.from({ length: 20 }, () => uniqueEmail('alias'));
    const aliases = emails
      .map((email, i) => `r${i}: register(input: { email: "${email}", password: "long enough" }) { user { id } }`)
      .join('\n');
    const reply = await rawPost(
      `${haven.gatewayUrl}/graphql`,
      graphql(`mutation { ...Many } fragment Many on Mutation { ${aliases} }`),
      { from: '127.0.1.20' },
    );
    expect(outcome(reply)).toBe('TOO_MANY_REQUESTS');
    expect(reply.json.data ?? null).toBeNull();
    const users = await haven.collection('user', 'users');
    expect(await users.countDocuments({ email: { $in: emails } })).toBe(0);
  });

  it('gives a spoofed X-Forwarded-For nothing: the bucket is the connection’s address', async () => {
    const from = '127.0.1.30';
    const outcomes: string[] = [];
    for (let attempt = 0; attempt <= max + 2; attempt += 1) {
      const reply = await rawPost(
        `${haven.gatewayUrl}/api/auth/login`,
        JSON.stringify({ email: 'x@example.com', password: 'guess-guess' }),
        {
          from,
          headers: { 'x-forwarded-for': `203.0.113.${attempt + 1}` },
        },
      );
      outcomes.push(String(reply.status));
    }
    expect(outcomes).toEqual([...Array<string>(max).fill('401'), '429', '429', '429']);
  });
});

describe('subgraphs answer the gateway only, and hold the same limits', () => {
  it('refuses a request without the gateway’s secret (401) or with a wrong one (403)', async () => {
    const query = graphql(`mutation { login(${loginArgs}) { user { id } } }`);
    const none = await rawPost(haven.services.user.url, query, { from: '127.0.0.1' });
    expect(none.status).toBe(401);
    expect(none.json).toEqual({ message: 'This service answers the Haven gateway only' });
    const wrong = await rawPost(haven.services.user.url, query, {
      from: '127.0.0.1',
      headers: { 'x-haven-subgraph-secret': 'not-the-secret-at-all' },
    });
    expect(wrong.status).toBe(403);
  });

  it('rate-limits a subgraph reached with the secret, on every spelling, by the client the gateway names', async () => {
    const headers = { 'x-haven-subgraph-secret': testSubgraphSecret, 'x-haven-client-address': '198.51.100.7' };
    const outcomes: string[] = [];
    for (let attempt = 0; attempt <= max; attempt += 1) {
      const query = attempt % 2 ? spellingsForSubgraph.fragment : spellingsForSubgraph.plain;
      outcomes.push(outcome(await rawPost(haven.services.user.url, graphql(query), { from: '127.0.0.1', headers })));
    }
    expect(outcomes).toEqual([...Array<string>(max).fill('UNAUTHENTICATED'), 'TOO_MANY_REQUESTS']);
  });

  it('refuses a query with thousands of aliases straight at a subgraph', async () => {
    const aliases = Array.from({ length: 2_000 }, (_, i) => `m${i}: me { id }`).join(' ');
    const reply = await rawPost(haven.services.user.url, graphql(`{ ${aliases} }`), {
      from: '127.0.0.1',
      headers: { 'x-haven-subgraph-secret': testSubgraphSecret },
    });
    expect(reply.json.errors?.[0]?.message).toMatch(/^Query selects too many fields/);
  });

  it('listens on loopback only in development and tests', () => {
    expect(new URL(haven.services.user.url).hostname).toBe('127.0.0.1');
  });
});

const spellingsForSubgraph = {
  plain: `mutation { login(${loginArgs}) { user { id } } }`,
  fragment: `mutation { ...G } fragment G on Mutation { again: login(${loginArgs}) { user { id } } }`,
};

describe('errors leave no internals', () => {
  const leaks = /<html|<pre|at \w+ \(|\/work\/|node_modules|stacktrace/i;

  it.each([
    ['malformed JSON', '{"query": ', {}, /^Malformed JSON in request body$/],
    ['a body over the limit', JSON.stringify({ query: `{ me { id } }${' '.repeat(200_000)}` }), {}, /too large/],
    ['an unknown Content-Encoding', '{}', { 'content-encoding': 'x-bogus' }, /Content-Encoding that is not supported/],
    ['a body that is not what its encoding says', 'not brotli', { 'content-encoding': 'br' }, /could not be read/],
  ])('%s on /graphql: a JSON 400 that says what was wrong', async (_name, body, headers, message) => {
    const reply = await rawPost(`${haven.gatewayUrl}/graphql`, body, { from: '127.0.0.1', headers });
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toMatch(/application\/json/);
    expect(reply.json.message).toMatch(message);
    expect(reply.text).not.toMatch(leaks);
    expect(reply.headers['x-correlation-id']).toBeTruthy();
  });

  it('the same on a subgraph', async () => {
    const reply = await rawPost(haven.services.quote.url, '{"query": ', {
      from: '127.0.0.1',
      headers: { 'x-haven-subgraph-secret': testSubgraphSecret },
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ message: 'Malformed JSON in request body' });
  });

  it('a GraphQL error carries no stack trace', async () => {
    const reply = await rawPost(`${haven.gatewayUrl}/graphql`, graphql('{ me { nope } }'), { from: '127.0.0.1' });
    expect(reply.json.errors?.length).toBeGreaterThan(0);
    expect(reply.text).not.toMatch(leaks);
  });
});

describe('one account per visible address', () => {
  let next = 0;
  const register = (email: string) =>
    rawPost(`${haven.gatewayUrl}/api/auth/register`, JSON.stringify({ email, password: 'long enough' }), {
      from: `127.0.2.${(next += 1)}`,
    });
  const tag = () => Math.random().toString(36).slice(2, 8);

  it.each([
    ['precomposed and decomposed é', (t: string) => [`ren\u00e9.${t}@example.com`, `rene\u0301.${t}@example.com`]],
    ['a trailing dot', (t: string) => [`ann.${t}@example.com`, `ann.${t}@example.com.`]],
    ['upper and lower case', (t: string) => [`ann.${t}@example.com`, `ANN.${t.toUpperCase()}@Example.COM`]],
    [
      'an IDN domain in Unicode and in punycode',
      (t: string) => [`ann.${t}@bücher.example`, `ann.${t}@xn--bcher-kva.example`],
    ],
  ])('%s: the second spelling finds the first account', async (_name, spell) => {
    const [first, second] = spell(tag()) as [string, string];
    expect((await register(first)).status).toBe(201);
    const again = await register(second);
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('An account with this email already exists');
  });

  it.each([
    ['a Cyrillic look-alike', (t: string) => `\u0430nn.${t}@example.com`, /different alphabets/],
    ['full-width letters', (t: string) => `ａｎｎ.${t}@example.com`, /full-width/],
    ['a zero-width space', (t: string) => `ann.${t}\u200b@example.com`, /invisible character/],
    ['markup', (t: string) => `<script>${t}</script>@x.co`, /^Email must be a valid email address$/],
  ])('%s is refused with a message naming the field, and nothing is stored', async (_name, spell, message) => {
    const t = tag();
    const reply = await register(spell(t));
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ field: 'email', message: expect.stringMatching(message) });
    const users = await haven.collection('user', 'users');
    expect(await users.countDocuments({ email: { $regex: t } })).toBe(0);
  });
});

describe('signing out by a link', () => {
  const signedIn = async () => {
    const client = new ApiClient(haven.gatewayUrl);
    const registered = await client.post('/api/auth/register', {
      email: uniqueEmail('leave'),
      password: 'long enough',
    });
    expect(registered.status).toBe(201);
    return client;
  };

  it('without proof of a same-origin navigation, shows a page with a button instead of signing out', async () => {
    const client = await signedIn();
    // An older browser sends no Sec-Fetch-Site; a link on any site looks exactly like this.
    const page = await client.get<string>('/api/logout');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.body).toMatch(/Sign out of Haven\?/);
    expect(page.body).toMatch(/<form method="post" action="\/api\/logout"><button type="submit">Sign out<\/button>/);
    expect((await client.get('/api/user')).status).toBe(200);

    const confirmed = await client.request('POST', '/api/logout', { headers: { origin: 'http://localhost:4000' } });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('/');
    expect((await client.get('/api/user')).status).toBe(401);
  });

  it('signs out at once when the Referer shows the navigation came from Haven', async () => {
    const client = await signedIn();
    const left = await client.request('GET', '/api/logout', { headers: { referer: 'http://localhost:4000/settings' } });
    expect(left.status).toBe(302);
    expect((await client.get('/api/user')).status).toBe(401);
  });

  it('refuses the button when the form was posted from another site', async () => {
    const client = await signedIn();
    const forged = await client.request('POST', '/api/logout', { headers: { origin: 'https://evil.example' } });
    expect(forged.status).toBe(403);
    expect((await client.get('/api/user')).status).toBe(200);
  });
});
