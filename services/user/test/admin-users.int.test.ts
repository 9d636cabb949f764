/**
 * The admin's user management reads against the real stack: the list with search, each status filter,
 * paging and the total; the four counts; billing's statuses arriving through its events (trials started,
 * converted and expired with the local provider and billing's test clock); and every admin operation refused
 * to a member and to a visitor, over REST and GraphQL, with nothing changed.
 */
import { eventuallyExpect } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTrial } from '../../../tools/testing/subscription';
import { verifyByEmailLink } from '../../../tools/testing/verification';
import { advanceBillingClock } from '../../billing/test/support';

const password = 'a long enough password';
const adminEmail = uniqueEmail('admin');
let haven: TestHaven;

interface Row {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  authProvider: string;
  emailVerifiedAt: string | null;
  subscriptionStatus: string;
  createdAt: string;
  trialEndsAt: string | null;
}

interface Person {
  client: ApiClient;
  id: string;
  email: string;
}

const people: Record<'admin' | 'trialing' | 'unverifiedTrial' | 'expired' | 'active' | 'plain', Person> = {} as never;

async function signUp(firstName: string, lastName: string, options: { verified: boolean }): Promise<Person> {
  const client = new ApiClient(haven.gatewayUrl);
  const email = uniqueEmail(firstName.toLowerCase());
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email,
    password,
    firstName,
    lastName,
  });
  expect(registered.status).toBe(201);
  if (options.verified) await verifyByEmailLink(haven.gatewayUrl, email, client);
  return { client, id: registered.body.user.id, email };
}

const day = 24 * 60 * 60;

async function list(query = '', client = people.admin.client) {
  const response = await client.get<Row[]>(`/api/admin/users${query}`);
  return { status: response.status, rows: response.body, total: Number(response.headers.get('x-total-count')) };
}

type Key = keyof typeof people;
const emailsOf = (rows: Array<{ email: string }>) => rows.map((row) => row.email).sort();
const emailsOfPeople = (keys: readonly Key[]) => emailsOf(keys.map((key) => people[key]));
const member = () => people.trialing.client;

beforeAll(async () => {
  haven = await startTestHaven({ env: { ADMIN_EMAIL: adminEmail } });
  await haven.services.user.eventsReady;
  const admin = new ApiClient(haven.gatewayUrl);
  const registered = await admin.post<{ user: { id: string } }>('/api/auth/register', {
    email: adminEmail,
    password,
    firstName: 'Ada',
    lastName: 'Admin',
  });
  expect(registered.status).toBe(201);
  await verifyByEmailLink(haven.gatewayUrl, adminEmail, admin);
  people.admin = { client: admin, id: registered.body.user.id, email: adminEmail };

  // Billing's clock is shared: the trials that must end start (and end) before the ones that must go on.
  people.expired = await signUp('Bertram', 'Okafor', { verified: true });
  people.active = await signUp('Imogen', 'Harlow', { verified: true });
  await startTrial(people.expired.client);
  expect((await people.expired.client.post('/api/subscription/cancel')).status).toBe(200);
  await startTrial(people.active.client);
  await advanceBillingClock(haven, 3 * day + 60);

  people.trialing = await signUp('Zephyr', 'Quinlan', { verified: true });
  people.unverifiedTrial = await signUp('Marisol', 'QUINLAN', { verified: false });
  await startTrial(people.trialing.client);
  await startTrial(people.unverifiedTrial.client);
  people.plain = await signUp('Corinna', 'Vale', { verified: false });

  // Billing's events reach the user service's copy (a bounded wait, generous on a loaded machine).
  await eventuallyExpect(
    'billing’s statuses in the admin list',
    async () => {
      const { rows } = await list('?pageSize=100');
      const statusOf = (person: Person) => rows.find((row) => row.id === person.id)?.subscriptionStatus;
      expect([people.expired, people.active, people.trialing, people.unverifiedTrial].map(statusOf)).toEqual([
        'trial_expired',
        'active',
        'trialing',
        'trialing',
      ]);
    },
    { timeoutMs: 60_000 },
  );
}, 240_000);

afterAll(async () => {
  await haven?.stop();
});

describe('the list', () => {
  it('lists every account, newest first, with the spec’s fields and the total in X-Total-Count', async () => {
    const { status, rows, total } = await list();
    expect(status).toBe(200);
    expect(total).toBe(6);
    expect(rows.map((row) => row.id)).toEqual(
      [people.plain, people.unverifiedTrial, people.trialing, people.active, people.expired, people.admin].map(
        (person) => person.id,
      ),
    );
    const trialing = rows.find((row) => row.id === people.trialing.id)!;
    expect(Object.keys(trialing).sort()).toEqual(
      [
        'authProvider',
        'createdAt',
        'email',
        'emailVerifiedAt',
        'firstName',
        'id',
        'lastName',
        'subscriptionStatus',
        'trialEndsAt',
      ].sort(),
    );
    expect(trialing).toMatchObject({
      email: people.trialing.email,
      firstName: 'Zephyr',
      lastName: 'Quinlan',
      authProvider: 'email',
      subscriptionStatus: 'trialing',
    });
    expect(Date.parse(trialing.emailVerifiedAt!)).not.toBeNaN();
    expect(Date.parse(trialing.createdAt)).not.toBeNaN();
    // The trial ends three days after it started, on billing's (advanced) clock.
    expect(Date.parse(trialing.trialEndsAt!)).toBeGreaterThan(Date.now() + 5 * day * 1000);

    const plain = rows.find((row) => row.id === people.plain.id)!;
    expect(plain).toMatchObject({ emailVerifiedAt: null, subscriptionStatus: 'none', trialEndsAt: null });
  });

  it.each([
    ['quinlan', ['trialing', 'unverifiedTrial']],
    ['QUINLAN', ['trialing', 'unverifiedTrial']],
    ['zephyr quinlan', ['trialing']],
    ['bERTRAM', ['expired']],
    ['harlow', ['active']],
  ] as const)('searches case-insensitively in names: %s', async (q, expected) => {
    const { rows, total } = await list(`?q=${encodeURIComponent(q)}`);
    expect(emailsOf(rows)).toEqual(emailsOfPeople(expected));
    expect(total).toBe(expected.length);
  });

  it('searches in e-mail addresses, typed in any case, and finds nothing for a pattern typed literally', async () => {
    const local = people.plain.email.split('@')[0]!;
    expect(emailsOf((await list(`?q=${encodeURIComponent(local.toUpperCase())}`)).rows)).toEqual([people.plain.email]);
    const nothing = await list(`?q=${encodeURIComponent('.*')}`);
    expect(nothing).toMatchObject({ status: 200, rows: [], total: 0 });
  });

  it.each([
    ['verified', ['admin', 'expired', 'active', 'trialing']],
    ['unverified', ['unverifiedTrial', 'plain']],
    ['active', ['active']],
    ['trial', ['trialing', 'unverifiedTrial']],
    ['expired', ['expired']],
    ['all', ['admin', 'expired', 'active', 'trialing', 'unverifiedTrial', 'plain']],
  ] as const)('filters by status %s', async (status, expected) => {
    const { rows, total } = await list(`?status=${status}`);
    expect(emailsOf(rows)).toEqual(emailsOfPeople(expected));
    expect(total).toBe(expected.length);
  });

  it('combines the search and a filter', async () => {
    const { rows, total } = await list('?q=quinlan&status=unverified');
    expect(emailsOf(rows)).toEqual([people.unverifiedTrial.email]);
    expect(total).toBe(1);
  });

  it('pages through the list without gaps or repeats', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => list(`?page=${page}&pageSize=2`)));
    expect(pages.map((page) => page.rows.length)).toEqual([2, 2, 2, 0]);
    expect(pages.every((page) => page.total === 6)).toBe(true);
    const ids = pages.flatMap((page) => page.rows.map((row) => row.id));
    expect(new Set(ids).size).toBe(6);
    expect(ids).toEqual((await list()).rows.map((row) => row.id));
  });

  // A last page that is not full gives the total itself; full pages and pages past the end count.
  it.each([
    ['?status=verified&pageSize=3', [3, 1, 0], 4],
    ['?q=quinlan&pageSize=1', [1, 1, 0], 2],
    ['?q=quinlan&status=trial&pageSize=2', [2, 0, 0], 2],
  ] as const)('pages through %s with the same total on every page', async (query, sizes, expectedTotal) => {
    const pages = await Promise.all([1, 2, 3].map((page) => list(`${query}&page=${page}`)));
    expect(pages.map((page) => page.rows.length)).toEqual(sizes);
    expect(pages.map((page) => page.total)).toEqual([expectedTotal, expectedTotal, expectedTotal]);
    expect(new Set(pages.flatMap((page) => page.rows.map((row) => row.id))).size).toBe(expectedTotal);
  });

  it.each([
    ['?status=paying', 'status'],
    ['?page=0', 'page'],
    ['?page=abc', 'page'],
    ['?pageSize=101', 'pageSize'],
    ['?pageSize=', 'pageSize'],
    [`?q=${'x'.repeat(101)}`, 'q'],
    ['?q=a&q=b', 'q'],
  ])('refuses %s with a 400 naming the parameter', async (query, field) => {
    const response = await people.admin.client.get(`/api/admin/users${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ field, message: expect.any(String) });
  });

  it('answers the same through GraphQL', async () => {
    const response = await people.admin.client.graphql<{
      adminUsers: { total: number; users: Array<{ email: string }> };
    }>('query ($input: AdminUsersInput) { adminUsers(input: $input) { total users { email } } }', {
      input: { q: 'Quinlan', status: 'trial' },
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data?.adminUsers.total).toBe(2);
  });
});

describe('the counts', () => {
  it('counts users, verified users, active subscriptions and trials', async () => {
    const response = await people.admin.client.get('/api/admin/user-stats');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ totalUsers: 6, verifiedUsers: 4, activeSubscriptions: 1, trialUsers: 2 });
  });
});

describe('anyone but the admin', () => {
  const restReads = [
    '/api/admin/users',
    '/api/admin/users?q=quinlan',
    '/api/admin/user-stats',
    '/api/admin/newsletter/stats',
    '/api/admin/export-subscribers',
  ];
  const graphqlReads = [
    '{ adminUsers { total users { email } } }',
    '{ adminUserStats { totalUsers } }',
    '{ newsletterStats { total } }',
    '{ newsletterSubscribersExport { csv } }',
  ];

  it.each(restReads)('is refused GET %s: 403 for a member, 401 for a visitor', async (path) => {
    const asMember = await member().get(path);
    expect(asMember.status).toBe(403);
    expect(asMember.body).toEqual({
      message: 'Admin access required. Please contact support if you believe this is an error.',
      reason: 'admin_only',
      requiresAuth: false,
    });
    const asVisitor = await new ApiClient(haven.gatewayUrl).get(path);
    expect(asVisitor.status).toBe(401);
    expect(JSON.stringify(asVisitor.body)).not.toContain('@');
  });

  it.each(graphqlReads)('is refused %s over GraphQL', async (query) => {
    const asMember = await member().graphql(query);
    expect(asMember.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(asMember.body.data ?? null).toBeNull();
    const asVisitor = await new ApiClient(haven.gatewayUrl).graphql(query);
    expect(asVisitor.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(asVisitor.body.data ?? null).toBeNull();
  });

  it('cannot send the newsletter, and nothing is stored', async () => {
    const campaigns = await haven.collection('notification', 'newsletter_campaigns');
    const before = await campaigns.countDocuments();
    const body = { subject: 'Hello', content: 'From someone who is not the admin' };
    expect((await member().post('/api/newsletter/send', body)).status).toBe(403);
    expect((await new ApiClient(haven.gatewayUrl).post('/api/newsletter/send', body)).status).toBe(401);
    expect(await campaigns.countDocuments()).toBe(before);
  });

  it('cannot read another account by id', async () => {
    const read = await member().graphql('query ($id: ID!) { user(id: $id) { email } }', { id: people.plain.id });
    expect(read.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
