/**
 * Each `@rateLimit` class, driven to its limit and one past it through the gateway, with small limits set
 * in the environment: sign-in per client, mail per recipient (whatever client asks), costly per account
 * with its own words, ordinary per account, the data export per account at the gateway. The last attempt is a 429 with Retry-After on REST and
 * TOO_MANY_REQUESTS on GraphQL.
 */
import { postFrom as postClientFrom, type ReplyFrom } from '../../tools/testing/raw-http';
import { eventually } from '../../tools/testing/eventually';
import { ApiClient, uniqueEmail } from '../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../tools/testing/haven';
import { mailbox, type CaughtEmail } from '../../tools/testing/infra-control';
import { startTrial } from '../../tools/testing/subscription';
import { verifyByEmailLink } from '../../tools/testing/verification';

const limits = { signIn: 20, mail: 3, costly: 4, ordinary: 5, export: 1 };
const password = 'a password for limits';
const adminEmail = uniqueEmail('limits-admin');
let haven: TestHaven;
const inbox = mailbox();

beforeAll(async () => {
  haven = await startTestHaven({
    env: {
      RATE_LIMIT_AUTH_MAX: String(limits.signIn),
      RATE_LIMIT_MAIL_MAX: String(limits.mail),
      RATE_LIMIT_COSTLY_MAX: String(limits.costly),
      RATE_LIMIT_ORDINARY_MAX: String(limits.ordinary),
      RATE_LIMIT_EXPORT_MAX: String(limits.export),
      ADMIN_EMAIL: adminEmail,
    },
  });
  await haven.services.notification.eventsReady;
});

afterAll(async () => {
  await haven?.stop();
});

/** A REST POST from a chosen loopback address, the client as the gateway sees it. */
const postFrom = (from: string, path: string, body: unknown) => postClientFrom(haven.gatewayUrl, from, path, body);

async function signUp(email = uniqueEmail('limits')): Promise<{ client: ApiClient; email: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const registered = await client.post('/api/auth/register', { email, password });
  expect(registered.status).toBe(201);
  return { client, email };
}

const positiveSeconds = (value: string | undefined) => Number(value) >= 1;

it('sign-in: a client gets its attempts, then a 429 with Retry-After', async () => {
  const statuses: number[] = [];
  let last: ReplyFrom | undefined;
  for (let attempt = 0; attempt <= limits.signIn; attempt += 1) {
    last = await postFrom('127.0.4.1', '/api/auth/login', { email: 'nobody@example.com', password: 'guess-guess' });
    statuses.push(last.status);
  }
  expect(statuses).toEqual([...Array<number>(limits.signIn).fill(401), 429]);
  expect(positiveSeconds(last!.retryAfter)).toBe(true);
});

it('mail: forty reset requests for one address from forty clients send at most the per-recipient number', async () => {
  const { email } = await signUp();
  const replies = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      postFrom(`127.0.5.${i + 1}`, '/api/auth/forgot-password', { email: email.toUpperCase() }),
    ),
  );
  const statuses = replies.map((reply) => reply.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(limits.mail);
  expect(statuses.filter((status) => status === 429)).toHaveLength(40 - limits.mail);
  expect(replies.filter((reply) => reply.status === 429).every((reply) => positiveSeconds(reply.retryAfter))).toBe(
    true,
  );
  // Every request is answered and the refused ones ran nothing, so the accepted ones are all the mail there is.
  const resets = (emails: CaughtEmail[]) => emails.filter((caught) => /reset/i.test(caught.subject));
  await eventually(`${limits.mail} reset e-mails to ${email}`, async () => {
    const count = resets(await inbox.listEmails({ to: email })).length;
    if (count > limits.mail) throw new Error(`${count} reset e-mails arrived`);
    return count === limits.mail;
  });
  expect(resets(await inbox.listEmails({ to: email }))).toHaveLength(limits.mail);

  // Another address is a budget of its own.
  const other = await signUp();
  expect((await postFrom('127.0.5.200', '/api/auth/forgot-password', { email: other.email })).status).toBe(200);
});

it('mail: thirty newsletter toggles send a bounded number of confirmations', async () => {
  const { client, email } = await signUp();
  const outcomes: number[] = [];
  for (let toggle = 0; toggle < 30; toggle += 1) {
    const reply = await client.post('/api/user/email-preferences', {
      marketingEmails: 0,
      productUpdates: 1,
      securityNotifications: 1,
      newsletter: toggle % 2 === 0 ? 1 : 0,
    });
    outcomes.push(reply.status);
  }
  expect(outcomes).toEqual([...Array<number>(limits.mail).fill(200), ...Array<number>(30 - limits.mail).fill(429)]);
  const switchedOn = Math.ceil(limits.mail / 2);
  const confirmations = (emails: CaughtEmail[]) => emails.filter((caught) => /newsletter/i.test(caught.subject));
  await eventually(`at most ${switchedOn} newsletter confirmations to ${email}`, async () => {
    const count = confirmations(await inbox.listEmails({ to: email })).length;
    if (count > switchedOn) throw new Error(`${count} confirmations arrived`);
    return count >= 1;
  });
  expect(confirmations(await inbox.listEmails({ to: email })).length).toBeLessThanOrEqual(switchedOn);
});

it('costly: check-ins over the budget are refused kindly, saying when to come back', async () => {
  const { client } = await signUp();
  await startTrial(client);
  const statuses: number[] = [];
  let last: Awaited<ReturnType<typeof client.post>> | undefined;
  for (let attempt = 0; attempt <= limits.costly; attempt += 1) {
    last = await client.post('/api/quotes/generate', { sleepQuality: 3 });
    statuses.push(last.status);
  }
  expect(statuses).toEqual([...Array<number>(limits.costly).fill(200), 429]);
  expect(positiveSeconds(last!.headers.get('retry-after') ?? undefined)).toBe(true);
  expect(last!.body).toMatchObject({
    message: expect.stringMatching(
      /^You've checked in a lot this hour\. Take a breath — you can check in again in \d+ (minutes|seconds)\.$/,
    ),
  });

  const graphql = await client.graphql('mutation { generateQuote(input: { sleepQuality: 3 }) { quote { id } } }');
  expect(graphql.body.errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');

  // The budget is the account's: another account checks in.
  const other = await signUp();
  await startTrial(other.client);
  expect((await other.client.post('/api/quotes/generate', { sleepQuality: 3 })).status).toBe(200);
});

/** One more than the ORDINARY budget of `query` from `client`, one after another: each answer's error code, or "ok". */
async function ordinaryOutcomes(client: ApiClient, query: string): Promise<string[]> {
  const outcomes: string[] = [];
  for (let attempt = 0; attempt <= limits.ordinary; attempt += 1) {
    const reply = await client.graphql(query);
    outcomes.push((reply.body.errors?.[0]?.extensions?.code as string | undefined) ?? 'ok');
  }
  return outcomes;
}

const ordinaryBudgetThenRefused = [...Array<string>(limits.ordinary).fill('ok'), 'TOO_MANY_REQUESTS'];

it('ordinary: an account gets its saves, then TOO_MANY_REQUESTS', async () => {
  const { client } = await signUp();
  const save = 'mutation { updateProfile(input: { firstName: "Sam" }) { id } }';
  expect(await ordinaryOutcomes(client, save)).toEqual(ordinaryBudgetThenRefused);
});

it("ordinary: the admin's reads of every account are limited like writes", async () => {
  const { client: admin } = await signUp(adminEmail);
  await verifyByEmailLink(haven.gatewayUrl, adminEmail, admin);
  expect(await ordinaryOutcomes(admin, '{ adminUsers { total } }')).toEqual(ordinaryBudgetThenRefused);
});

it('export: one per window per account, whichever export route, then a clear 429', async () => {
  const { client } = await signUp();
  const first = await client.get('/api/user/data-export');
  expect(first.status).toBe(200);
  for (const path of ['/api/user/data-export', '/api/user/export']) {
    const again = await client.get(path);
    expect(again.status).toBe(429);
    expect(positiveSeconds(again.headers.get('retry-after') ?? undefined)).toBe(true);
    expect(again.body).toMatchObject({
      message: expect.stringMatching(
        /^Your data was exported a moment ago\. You can export it again in \d+ (minutes|seconds)\.$/,
      ),
    });
  }
  // Another account's budget is its own.
  expect((await (await signUp()).client.get('/api/user/data-export')).status).toBe(200);
});

it('export through GraphQL: all of the history once per window, aliases counted, then TOO_MANY_REQUESTS', async () => {
  const exportOnce = async (client: ApiClient, query: string) => {
    const reply = await client.graphql<{ me: Record<string, { sections: string } | null> | null }>(query);
    return reply.body.errors?.map((error) => error.extensions?.code as string) ?? [];
  };
  const { client } = await signUp();
  expect(await exportOnce(client, '{ me { quoteExport { sections } } }')).toEqual([]);
  const again = await client.graphql('{ me { quoteExport { sections } } }');
  expect(again.body.errors?.[0]).toMatchObject({
    message: expect.stringMatching(
      /^Your data was exported a moment ago\. You can export it again in \d+ (minutes|seconds)\.$/,
    ),
    extensions: { code: 'TOO_MANY_REQUESTS' },
  });
  // Two aliases in one request are two exports: a fresh account gets the first and is refused the second.
  const aliased = await exportOnce(
    (await signUp()).client,
    '{ me { a: quoteExport { sections } b: quoteExport { sections } } }',
  );
  expect(aliased).toEqual(['TOO_MANY_REQUESTS']);
});
