/**
 * The newsletter and e-mail preferences through the REST facade, against the real stack (database,
 * Kafka, maildev): double opt-in, both unsubscribe paths with one-click, the preference switch and the
 * list moving together, the admin's send reaching every active subscriber once, and bad input refused
 * with nothing stored or sent.
 */
import { createHash, randomUUID } from 'node:crypto';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, testLinkKey, type TestHaven } from '../../../tools/testing/haven';
import { unsubscribeTokenOf } from '../src/domain/newsletter';
import { mailbox, type CaughtEmail } from '../../../tools/testing/infra-control';
import { verifyByEmailLink } from '../../../tools/testing/verification';

const adminEmail = uniqueEmail('admin');
const password = 'correct horse battery';
let haven: TestHaven;
const inbox = mailbox();

beforeAll(async () => {
  haven = await startTestHaven({ env: { ADMIN_EMAIL: adminEmail } });
  await haven.services.notification.eventsReady;
});

afterAll(async () => {
  await haven?.stop();
});

const subscribers = () => haven.collection('notification', 'newsletter_subscribers');
const addressed = (email: string) => (caught: CaughtEmail) =>
  caught.to.some((to) => to.address.toLowerCase() === email.toLowerCase());

async function signUp(email: string): Promise<{ client: ApiClient; userId: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const response = await client.post<{ user: { id: string } }>('/api/auth/register', { email, password });
  expect(response.status).toBe(201);
  return { client, userId: response.body.user.id };
}

/** The token of the link in an e-mail (the first `?token=` link). */
function tokenIn(caught: CaughtEmail): string {
  const match = /[?&]token=([A-Za-z0-9_-]+)/.exec(caught.text ?? '');
  if (!match?.[1]) throw new Error(`no token link in "${caught.subject}"`);
  return match[1];
}

/** Subscribes an address and uses the link of the new confirmation e-mail it gets. */
async function subscribeAndConfirm(email: string): Promise<void> {
  const seen = new Set((await inbox.listEmails({ to: email })).map((caught) => caught.id));
  const client = new ApiClient(haven.gatewayUrl);
  expect((await client.post('/api/newsletter/subscribe', { email, subscriptionSource: 'website' })).status).toBe(200);
  const confirmation = await inbox.waitForEmail(
    (caught) => !seen.has(caught.id) && /newsletter/i.test(caught.subject),
    { to: email, what: `the confirmation e-mail to ${email}` },
  );
  expect((await client.get(`/api/newsletter/confirm?token=${tokenIn(confirmation)}`)).status).toBe(200);
}

describe('double opt-in', () => {
  it('stores a pending subscriber with a hashed token, e-mails the link, and the link confirms once', async () => {
    const email = uniqueEmail('reader');
    const visitor = new ApiClient(haven.gatewayUrl);
    const answer = await visitor.post('/api/newsletter/subscribe', {
      email: email.toUpperCase(),
      // Someone else's id is ignored (a visitor's form says nothing about accounts); text that is no id is a 400.
      userId: randomUUID(),
      subscriptionSource: 'website',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: expect.stringMatching(/check your inbox/i) });

    const stored = await (await subscribers()).findOne({ email });
    expect(stored).toMatchObject({ status: 'pending', source: 'website', userId: null });

    const confirmation = await inbox.waitForEmail({ to: email, what: `the confirmation e-mail to ${email}` });
    expect(confirmation.subject).toMatch(/confirm/i);
    const token = tokenIn(confirmation);
    expect(confirmation.text).toContain(`/confirm-newsletter?token=${token}`);
    // Only the hash is kept.
    expect(stored?.confirmTokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);

    const confirmed = await visitor.get(`/api/newsletter/confirm?token=${token}`);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ confirmed: true, message: expect.any(String) });
    expect(await (await subscribers()).findOne({ email })).toMatchObject({ status: 'active', confirmTokenHash: null });

    const reused = await visitor.get(`/api/newsletter/confirm?token=${token}`);
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ message: 'This confirmation link is invalid or has expired.' });
  });

  it('answers the same for an address already on the list, and sends it nothing', async () => {
    const email = uniqueEmail('again');
    await subscribeAndConfirm(email);
    const fresh = await new ApiClient(haven.gatewayUrl).post('/api/newsletter/subscribe', {
      email: uniqueEmail('new'),
    });
    const known = await new ApiClient(haven.gatewayUrl).post('/api/newsletter/subscribe', { email });
    expect(known.status).toBe(fresh.status);
    expect(known.body).toEqual(fresh.body);
    expect(await (await subscribers()).countDocuments({ email })).toBe(1);
    expect(await inbox.listEmails({ to: email })).toHaveLength(1);
  });

  it('links the address to the caller only when the userId is the caller’s own', async () => {
    const email = uniqueEmail('member');
    const { client, userId } = await signUp(email);
    expect((await client.post('/api/newsletter/subscribe', { email, userId })).status).toBe(200);
    expect(await (await subscribers()).findOne({ email })).toMatchObject({ userId });
  });

  it.each([
    ['a missing e-mail', {}, 'email'],
    ['a malformed e-mail', { email: 'not-an-address' }, 'email'],
    ['an e-mail of the wrong type', { email: 42 }, 'email'],
    ['an odd source', { email: 'fine@example.com', subscriptionSource: '<script>' }, 'subscriptionSource'],
    ['a userId that is no user id', { email: 'fine@example.com', userId: 'someone-else' }, 'userId'],
  ])('refuses %s with a 400 naming the field, storing nothing', async (_case, body, field) => {
    const before = await (await subscribers()).countDocuments();
    const response = await new ApiClient(haven.gatewayUrl).post('/api/newsletter/subscribe', body);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain(field);
    expect(await (await subscribers()).countDocuments()).toBe(before);
  });

  it.each([
    ['no token', ''],
    ['an unknown token', '?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a malformed token', '?token=%3Cscript%3E'],
  ])('refuses a confirmation with %s', async (_case, query) => {
    const response = await new ApiClient(haven.gatewayUrl).get(`/api/newsletter/confirm${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: expect.any(String) });
  });
});

describe('unsubscribe', () => {
  it('by the personal link: a second click and the one-click POST answer success and change nothing', async () => {
    const email = uniqueEmail('leaver');
    await subscribeAndConfirm(email);
    const unsubscribeToken = unsubscribeTokenOf(
      testLinkKey,
      String((await (await subscribers()).findOne({ email }))!._id),
    );
    const visitor = new ApiClient(haven.gatewayUrl);
    const first = await visitor.get(`/api/newsletter/unsubscribe?token=${unsubscribeToken}`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ unsubscribed: true, message: "You won't receive any more newsletters from us." });
    const after = await (await subscribers()).findOne({ email });
    expect(after).toMatchObject({ status: 'unsubscribed' });

    expect((await visitor.get(`/api/newsletter/unsubscribe?token=${unsubscribeToken}`)).status).toBe(200);
    const oneClick = await visitor.request(
      'POST',
      `/hooks/notification/newsletter/one-click?token=${unsubscribeToken}`,
      {
        rawBody: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    );
    expect(oneClick.status).toBe(200);
    expect(await (await subscribers()).findOne({ email })).toEqual(after);

    const unknown = await visitor.get('/api/newsletter/unsubscribe?token=BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB');
    expect(unknown.status).toBe(400);
  });

  it('by the form: the same answer whether or not the address was on the list', async () => {
    const email = uniqueEmail('formleaver');
    await subscribeAndConfirm(email);
    const visitor = new ApiClient(haven.gatewayUrl);
    const listed = await visitor.post('/api/newsletter/unsubscribe', { email });
    const unlisted = await visitor.post('/api/newsletter/unsubscribe', { email: uniqueEmail('stranger') });
    expect(listed.status).toBe(200);
    expect(unlisted.status).toBe(200);
    expect(unlisted.body).toEqual(listed.body);
    expect(await (await subscribers()).findOne({ email })).toMatchObject({ status: 'unsubscribed' });
    expect(await (await subscribers()).countDocuments({ status: 'unsubscribed', email: /stranger/ })).toBe(0);

    const bad = await visitor.post('/api/newsletter/unsubscribe', { email: 'nope' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('email');
  });
});

describe('e-mail preferences', () => {
  it('starts from the spec’s defaults, saves 0/1 values, and refuses someone else’s userId or other values', async () => {
    const { client, userId } = await signUp(uniqueEmail('prefs'));
    const initial = await client.get('/api/user/email-preferences');
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({
      preferences: {
        marketingEmails: false,
        productUpdates: true,
        securityNotifications: true,
        newsletter: false,
        weeklySummary: false,
        checkInReminder: false,
        reminderHour: 19,
      },
      consentStatus: { emailVerified: false, consentGivenAt: null },
    });

    const body = { userId, marketingEmails: 1, productUpdates: 0, securityNotifications: 1, newsletter: 0 };
    expect((await client.post('/api/user/email-preferences', body)).status).toBe(200);
    const saved = await client.get<{ preferences: unknown; consentStatus: { consentGivenAt: string } }>(
      '/api/user/email-preferences',
    );
    expect(saved.body.preferences).toEqual({
      marketingEmails: true,
      productUpdates: false,
      securityNotifications: true,
      newsletter: false,
      weeklySummary: false,
      checkInReminder: false,
      reminderHour: 19,
    });
    expect(Date.parse(saved.body.consentStatus.consentGivenAt)).not.toBeNaN();

    const other = await client.post('/api/user/email-preferences', { ...body, userId: 'not-me', marketingEmails: 0 });
    expect(other.status).toBe(403);
    const two = await client.post('/api/user/email-preferences', { ...body, marketingEmails: 2 });
    expect(two.status).toBe(400);
    expect(JSON.stringify(two.body)).toContain('marketingEmails');
    const text = await client.post('/api/user/email-preferences', { ...body, marketingEmails: 'yes' });
    expect(text.status).toBe(400);
    expect((await client.get('/api/user/email-preferences')).body).toEqual(saved.body);

    expect((await new ApiClient(haven.gatewayUrl).get('/api/user/email-preferences')).status).toBe(401);
  });

  it('moves the newsletter switch and the list together, both ways', async () => {
    const email = uniqueEmail('switch');
    const { client, userId } = await signUp(email);
    // The account must have reached the notification service (its user projection) first.
    await eventually('the account reaching the notification service', async () =>
      (await haven.collection('notification', 'known_users')).findOne({ _id: userId }),
    );
    const on = { marketingEmails: 0, productUpdates: 1, securityNotifications: 1, newsletter: 1 };
    expect((await client.post('/api/user/email-preferences', on)).status).toBe(200);
    // Not verified yet: double opt-in applies.
    expect(await (await subscribers()).findOne({ email })).toMatchObject({ status: 'pending', userId });
    const confirmation = await inbox.waitForEmail((caught) => /newsletter/i.test(caught.subject), {
      to: email,
      what: `the newsletter confirmation to ${email}`,
    });
    expect((await client.get(`/api/newsletter/confirm?token=${tokenIn(confirmation)}`)).status).toBe(200);

    const unsubscribeToken = unsubscribeTokenOf(
      testLinkKey,
      String((await (await subscribers()).findOne({ email }))!._id),
    );
    expect((await client.get(`/api/newsletter/unsubscribe?token=${unsubscribeToken}`)).status).toBe(200);
    const afterLink = await client.get<{ preferences: { newsletter: boolean } }>('/api/user/email-preferences');
    expect(afterLink.body.preferences.newsletter).toBe(false);

    await subscribeAndConfirm(email);
    expect((await client.post('/api/user/email-preferences', { ...on, newsletter: 0 })).status).toBe(200);
    expect(await (await subscribers()).findOne({ email })).toMatchObject({ status: 'unsubscribed' });
  });
});

describe('the admin composer', () => {
  let admin: ApiClient;
  beforeAll(async () => {
    ({ client: admin } = await signUp(adminEmail));
    // The admin is the configured address once it is verified.
    await verifyByEmailLink(haven.gatewayUrl, adminEmail, admin);
  });

  it('refuses everyone but the admin, changing nothing', async () => {
    const { client } = await signUp(uniqueEmail('member'));
    const campaigns = await haven.collection('notification', 'newsletter_campaigns');
    const before = await campaigns.countDocuments();
    expect((await client.get('/api/admin/newsletter/stats')).status).toBe(403);
    expect((await client.post('/api/newsletter/send', { subject: 'Hi', content: 'Hello' })).status).toBe(403);
    expect((await client.get('/api/admin/export-subscribers')).status).toBe(403);
    expect(
      (await new ApiClient(haven.gatewayUrl).post('/api/newsletter/send', { subject: 'a', content: 'b' })).status,
    ).toBe(401);
    expect(await campaigns.countDocuments()).toBe(before);
  });

  it('refuses an empty or oversized message, sending nothing', async () => {
    const campaigns = await haven.collection('notification', 'newsletter_campaigns');
    const before = await campaigns.countDocuments();
    const empty = await admin.post('/api/newsletter/send', { subject: '  ', content: '<p>Hi</p>' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ message: 'Please fill in both subject and content.' });
    expect((await admin.post('/api/newsletter/send', { subject: 'Hi' })).status).toBe(400);
    expect((await admin.post('/api/newsletter/send', { subject: 'Hi', content: 7 })).status).toBe(400);
    const huge = await admin.post('/api/newsletter/send', { subject: 'Hi', content: 'x'.repeat(15_001) });
    expect(huge.status).toBe(400);
    const onlyScript = await admin.post('/api/newsletter/send', {
      subject: 'Hi',
      content: '<script>alert(1)</script>',
    });
    expect(onlyScript.status).toBe(400);
    expect(await campaigns.countDocuments()).toBe(before);
  });

  it('sends one sanitised copy to every active subscriber, none to pending or unsubscribed ones', async () => {
    const active = [uniqueEmail('active'), uniqueEmail('active')];
    for (const email of active) await subscribeAndConfirm(email);
    const pending = uniqueEmail('pending');
    expect((await admin.post('/api/newsletter/subscribe', { email: pending })).status).toBe(200);
    const gone = uniqueEmail('gone');
    await subscribeAndConfirm(gone);
    expect((await admin.post('/api/newsletter/unsubscribe', { email: gone })).status).toBe(200);

    const stats = await admin.get<{ total: number; active: number; pending: number }>('/api/admin/newsletter/stats');
    expect(stats.status).toBe(200);
    expect(stats.body.pending).toBe(stats.body.total - stats.body.active);
    const activeNow = await (await subscribers()).countDocuments({ status: 'active' });
    expect(stats.body.active).toBe(activeNow);

    const subject = `This week at Haven ${Date.now()}`;
    const sent = await admin.post('/api/newsletter/send', {
      subject,
      content: '<h2>Small steps</h2><p>Take a breath.</p><script>steal()</script><a href="javascript:x()">x</a>',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ sentCount: activeNow });

    await eventuallyExpect(
      'one copy for every active subscriber',
      async () => {
        const copies = await inbox.listEmails({ subject });
        expect(copies).toHaveLength(activeNow);
      },
      { timeoutMs: 60_000 },
    );
    const copies = await inbox.listEmails({ subject });
    for (const email of active) expect(copies.filter(addressed(email))).toHaveLength(1);
    expect(copies.filter(addressed(pending))).toHaveLength(0);
    expect(copies.filter(addressed(gone))).toHaveLength(0);
    const copy = copies.find(addressed(active[0]!))!;
    expect(copy.html).toContain('<h2>Small steps</h2>');
    expect(copy.html).not.toMatch(/script|javascript:/);
    const unsubscribeToken = unsubscribeTokenOf(
      testLinkKey,
      String((await (await subscribers()).findOne({ email: active[0] }))!._id),
    );
    expect(copy.headers['list-unsubscribe']).toContain(
      `/hooks/notification/newsletter/one-click?token=${unsubscribeToken}`,
    );
    expect(copy.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(copy.text).toContain(`/unsubscribe-newsletter?token=${unsubscribeToken}`);

    await eventuallyExpect('the delivery log in the stats', async () => {
      const after = await admin.get<{ lastCampaign: { subject: string; sent: number } }>('/api/admin/newsletter/stats');
      expect(after.body.lastCampaign).toMatchObject({ subject, sent: activeNow });
    });
  });

  describe('care before a send', () => {
    const campaigns = () => haven.collection('notification', 'newsletter_campaigns');
    const deliveries = () => haven.collection('notification', 'deliveries');
    const audienceQuery = '{ newsletterAudience { activeSubscribers } }';
    const testSend = `mutation Test($subject: String!, $content: String!) {
      sendTestNewsletter(subject: $subject, content: $content) { sentTo } }`;
    const send = `mutation Send($subject: String!, $content: String!) {
      sendNewsletter(subject: $subject, content: $content) { sentCount } }`;
    /** The newsletter's largest content: exactly 15,000 characters of HTML with text in it. */
    const contentOfLength = (length: number) => `<p>${'a'.repeat(length - 7)}</p>`;
    /** A JSON body with every character of its strings spelled `\uXXXX`: the most bytes valid JSON can take. */
    const fullyEscapedJson = (body: Record<string, string>) =>
      `{${Object.entries(body)
        .map(
          ([key, value]) =>
            `"${key}":"${[...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`,
        )
        .join(',')}}`;

    it('counts the active subscribers a send would reach, never pending or unsubscribed ones', async () => {
      const audience = async () =>
        (await admin.graphql<{ newsletterAudience: { activeSubscribers: number } }>(audienceQuery)).body.data!
          .newsletterAudience.activeSubscribers;
      const before = await audience();
      expect(before).toBe(await (await subscribers()).countDocuments({ status: 'active' }));

      for (const email of [uniqueEmail('counted'), uniqueEmail('counted')]) await subscribeAndConfirm(email);
      expect((await admin.post('/api/newsletter/subscribe', { email: uniqueEmail('waiting') })).status).toBe(200);
      const leaving = uniqueEmail('leaving');
      await subscribeAndConfirm(leaving);
      expect((await admin.post('/api/newsletter/unsubscribe', { email: leaving })).status).toBe(200);

      expect(await audience()).toBe(before + 2);
      const rest = await admin.get('/api/admin/newsletter/audience');
      expect(rest.body).toEqual({ activeSubscribers: before + 2 });
    });

    it('sends a test to the admin alone, with [Test] before the subject, and records no campaign', async () => {
      const reader = uniqueEmail('reader');
      await subscribeAndConfirm(reader);
      const campaignsBefore = await (await campaigns()).countDocuments();
      const listCopiesBefore = await (await deliveries()).countDocuments({ kind: 'newsletter' });
      const subject = `A quiet Sunday ${Date.now()}`;

      const answer = await admin.graphql<{ sendTestNewsletter: { sentTo: string } }>(testSend, {
        subject,
        content: '<p>One slow breath before the week.</p><script>steal()</script>',
      });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data?.sendTestNewsletter.sentTo).toBe(adminEmail);

      const copy = await inbox.waitForEmail({ subject: `[Test] ${subject}`, what: 'the test copy' });
      expect(copy.to.map((to) => to.address.toLowerCase())).toEqual([adminEmail.toLowerCase()]);
      // The same rendering as the real send: the sanitised content, the unsubscribe link and the care footer.
      expect(copy.html).toContain('<p>One slow breath before the week.</p>');
      expect(copy.html).not.toContain('script');
      expect(copy.text).toContain('/unsubscribe-newsletter?token=');
      expect(copy.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

      const all = (await inbox.listEmails()).filter((caught) => caught.subject.endsWith(subject));
      expect(all).toHaveLength(1);
      expect(await (await campaigns()).countDocuments()).toBe(campaignsBefore);
      expect(await (await deliveries()).countDocuments({ kind: 'newsletter' })).toBe(listCopiesBefore);
      const stats = await admin.get<{ lastCampaign: { subject: string } | null }>('/api/admin/newsletter/stats');
      expect(stats.body.lastCampaign?.subject).not.toBe(subject);
    });

    it('answers FORBIDDEN to anyone but the admin, for the audience and the test send, sending nothing', async () => {
      const { client } = await signUp(uniqueEmail('member'));
      const subject = `Not for members ${Date.now()}`;
      const audience = await client.graphql(audienceQuery);
      expect(audience.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const test = await client.graphql(testSend, { subject, content: '<p>Hello</p>' });
      expect(test.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect((await client.get('/api/admin/newsletter/audience')).status).toBe(403);
      expect((await client.post('/api/admin/newsletter/test', { subject, content: '<p>Hello</p>' })).status).toBe(403);
      expect((await inbox.listEmails()).filter((caught) => caught.subject.endsWith(subject))).toHaveLength(0);
    });

    it('refuses content one over the limit through REST (400 naming the field) and GraphQL, storing nothing', async () => {
      const before = await (await campaigns()).countDocuments();
      const subject = `One too many ${Date.now()}`;
      const over = contentOfLength(15_001);

      const rest = await admin.request('POST', '/api/newsletter/send', {
        rawBody: fullyEscapedJson({ subject, content: over }),
      });
      expect(rest.status).toBe(400);
      expect(rest.body).toMatchObject({ field: 'content', message: expect.stringMatching(/at most 15,000/) });
      const restTest = await admin.post('/api/admin/newsletter/test', { subject, content: over });
      expect(restTest.status).toBe(400);
      expect(restTest.body).toMatchObject({ field: 'content' });

      const graphql = await admin.graphql(send, { subject, content: over });
      expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'content' });
      const graphqlTest = await admin.graphql(testSend, { subject, content: over });
      expect(graphqlTest.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'content' });

      // Past the route's own body limit, the answer still names the field.
      const huge = await admin.request('POST', '/api/newsletter/send', {
        rawBody: fullyEscapedJson({ subject, content: contentOfLength(16_000) }),
      });
      expect(huge.status).toBe(400);
      expect(huge.body).toMatchObject({ field: 'content', message: expect.stringMatching(/at most 15,000/) });

      expect(await (await campaigns()).countDocuments()).toBe(before);
      expect((await inbox.listEmails()).filter((caught) => caught.subject.endsWith(subject))).toHaveLength(0);
    });

    it('accepts content exactly at the limit through REST, however its JSON spells it', async () => {
      const subject = `${Date.now()} ${'S'.repeat(200)}`.slice(0, 200);
      const body = fullyEscapedJson({ subject, content: contentOfLength(15_000) });
      // Far past the facade's usual 16 kB: the route admits the largest valid newsletter.
      expect(Buffer.byteLength(body)).toBeGreaterThan(90_000);
      const active = await (await subscribers()).countDocuments({ status: 'active' });
      const sent = await admin.request('POST', '/api/newsletter/send', { rawBody: body });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ sentCount: active });
      expect(await (await campaigns()).countDocuments({ subject })).toBe(1);
    });
  });

  it('exports the subscribers as a dated CSV file', async () => {
    const response = await fetch(`${haven.gatewayUrl}/api/admin/export-subscribers`, {
      headers: { cookie: (admin as unknown as { cookie: string }).cookie },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/subscribers-\d{4}-\d{2}-\d{2}\.csv/);
    const csv = await response.text();
    expect(csv.split('\r\n')[0]).toBe('email,status,source,subscribedAt,confirmedAt,unsubscribedAt');
    expect(csv.trim().split('\r\n').length - 1).toBe(await (await subscribers()).countDocuments());
  });
});
