/**
 * The scheduled e-mails on the real stack (database, Kafka, maildev): the weekly summary and the daily check-in
 * reminder. Subscribed users check in through the gateway, the quote service's `quote.generated` events reach
 * the notification service's tally, and passes of the schedulers at chosen instants (two "replicas" at once)
 * send each e-mail once, at the person's own time: the summary with the right numbers and nothing of the notes
 * or quotes, the reminder in the hour each person picked in their own zone, never on a day they checked in.
 * Also their stop links and the REST preferences: optional, bad values refused with a 400 naming the field.
 */
import { createLogger } from '@haven/platform';
import { dateOfDay, dayNumber, weekStartDay } from '@haven/domain';
import mongoose from 'mongoose';
import { stopToken } from '../src/domain/stop-links';
import { localHour, summaryWeekAt } from '../src/domain/weekly-summary';
import { checkInReminderSender } from '../src/jobs/check-in-reminders';
import { weeklySummaryKey, weeklySummarySender } from '../src/jobs/weekly-summary';
import { deliveryModel } from '../src/model/delivery';
import { knownUserModel } from '../src/model/known-user';
import { preferencesModel } from '../src/model/preferences';
import { weeklyCheckInsModel } from '../src/model/weekly-check-ins';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, testLinkKey, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { mailbox } from '../../../tools/testing/infra-control';
import { startTrial } from '../../../tools/testing/subscription';
import { testKeyring, weeklyTallyDays } from '../../../tools/testing/person-keys';
import { testInfra } from '../../../tools/testing/test-env';
import { verifyByEmailLink } from '../../../tools/testing/verification';
import { testMailer, testLinks } from './support';

let haven: TestHaven;
const inbox = mailbox();
const connections: mongoose.Connection[] = [];
const closers: Array<() => void> = [];

beforeAll(async () => {
  // The service's own passes wait half an hour: every pass in this file is the test's, at the instant it picks.
  haven = await startTestHaven({
    env: { WEEKLY_SUMMARY_INTERVAL_MS: '1800000', CHECK_IN_REMINDER_INTERVAL_MS: '1800000' },
  });
  await haven.services.notification.eventsReady;
});

afterAll(async () => {
  closers.forEach((close) => close());
  await Promise.all(connections.map((connection) => connection.close()));
  await haven?.stop();
});

const summarySubject = 'Your week with Haven';
const summariesTo = async (email: string) => inbox.listEmails({ to: email.toLowerCase(), subject: summarySubject });

/** One more replica's scheduler work: its own connection to the service's database and its own SMTP pool. */
async function replicaDeps() {
  const infra = testInfra();
  const connection = await mongoose
    .createConnection(infra.mongoUrl, { dbName: haven.dbName('notification') })
    .asPromise();
  connections.push(connection);
  const deliveries = deliveryModel(connection);
  const log = createLogger('weekly-summary-test', 'silent');
  const mailer = testMailer({ host: infra.smtpHost, port: infra.smtpPort, deliveries, log });
  closers.push(() => mailer.close());
  return {
    tallies: weeklyCheckInsModel(connection),
    keyring: testKeyring(haven),
    knownUsers: knownUserModel(connection),
    preferences: preferencesModel(connection),
    deliveries,
    mailer,
    ...testLinks,
    log,
  };
}

const replica = async () => weeklySummarySender(await replicaDeps());
const reminderReplica = async () => checkInReminderSender(await replicaDeps());

const password = 'a calm week ahead';
const newYork = 'America/New_York';
const weekly = (on: 0 | 1) => ({
  marketingEmails: 0,
  productUpdates: 1,
  securityNotifications: 1,
  newsletter: 0,
  weeklySummary: on,
});

/** A verified, subscribed user (in New York unless told), with the weekly summary switched as asked. */
async function member(
  prefix: string,
  weeklySummary: 0 | 1,
  choices: { timeZone?: string; checkInReminder?: 0 | 1; reminderHour?: number } = {},
): Promise<{ client: ApiClient; email: string; id: string }> {
  const email = uniqueEmail(prefix);
  const client = new ApiClient(haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email,
    password,
    timeZone: choices.timeZone ?? newYork,
  });
  expect(registered.status).toBe(201);
  await verifyByEmailLink(haven.gatewayUrl, email, client);
  await startTrial(client);
  const { timeZone: _zone, ...reminder } = choices;
  expect((await client.post('/api/user/email-preferences', { ...weekly(weeklySummary), ...reminder })).status).toBe(
    200,
  );
  return { client, email, id: registered.body.user.id };
}

// Moods (the mean of 6 − stress, confidence, motivation, 6 − anxiety, hope, gratitude): 4 and 16/6.
const brighter = {
  stressLevel: 2,
  confidenceLevel: 4,
  motivationLevel: 4,
  anxietyLevel: 2,
  hopeForFuture: 4,
  gratitudeLevels: 4,
  notes: 'private-note-walk-with-sam',
};
const heavier = {
  stressLevel: 4,
  confidenceLevel: 2,
  motivationLevel: 3,
  anxietyLevel: 3,
  hopeForFuture: 3,
  gratitudeLevels: 3,
  notes: 'private-note-long-shift',
};

async function checkIn(client: ApiClient, ratings: Record<string, unknown>): Promise<string> {
  const reply = await client.post<{ quote: { text: string } }>('/api/quotes/generate', ratings);
  expect(reply.status).toBe(200);
  return reply.body.quote.text;
}

/** 15:00 UTC on the Sunday after `instant`'s week in New York: 10:00 EST or 11:00 EDT, inside the window. */
function sundayAfter(instant: Date, weeksLater = 0): Date {
  const sunday = weekStartDay(dayNumber(instant, newYork)) + 7 * (weeksLater + 1);
  return new Date(`${dateOfDay(sunday)}T15:00:00Z`);
}

describe('the weekly summary e-mail', () => {
  it('goes once, in the window, to a user who turned it on and checked in that week, with numbers only', async () => {
    const [reader, switchedOff, quiet] = await Promise.all([
      member('weekly', 1),
      member('weekly-off', 0),
      member('weekly-quiet', 1),
    ]);
    const started = new Date();
    const quotes = [await checkIn(reader.client, brighter), await checkIn(reader.client, heavier)];
    await checkIn(switchedOff.client, brighter);

    // The quote service's events reach the notification service's tally (and the user's zone its projection).
    const tallies = await haven.collection('notification', 'weekly_check_ins');
    const tally = await eventually('both check-ins reaching the weekly tally', async () => {
      const found = await tallies.findOne({ _id: reader.id });
      return (found?.recentQuoteIds as string[] | undefined)?.length === 2 ? found : null;
    });
    await eventually('the other check-in reaching the tally', () => tallies.findOne({ _id: switchedOff.id }));
    expect(JSON.stringify(tally)).not.toMatch(/private-note/);
    // Each day's moods are stored sealed under the reader's key, and open to the two check-ins.
    expect(typeof tally?.days).toBe('string');
    expect((await weeklyTallyDays(haven, reader.id))?.reduce((sum, day) => sum + day.checkIns, 0)).toBe(2);
    const known = await (await haven.collection('notification', 'known_users')).findOne({ _id: reader.id });
    expect(known?.timeZone).toBe(newYork);

    const now = sundayAfter(started);
    expect(summaryWeekAt(now, newYork)).not.toBeNull();
    const [one, two] = await Promise.all([replica(), replica()]);

    // Two replicas' passes at the same instant: one e-mail between them.
    const [sentByOne, sentByTwo] = await Promise.all([one.sendDue(now), two.sendDue(now)]);
    expect(sentByOne + sentByTwo).toBe(1);
    const summary = await inbox.waitForEmail({
      to: reader.email.toLowerCase(),
      subject: summarySubject,
      what: `the weekly summary to ${reader.email}`,
    });
    expect(summary.text).toContain('You checked in 2 times.');
    // (4 + 16/6) / 2 = 3.33…, shown with one decimal; no week before to compare with.
    expect(summary.text).toContain('Your average mood was 3.3 out of 5.');
    expect(summary.text).not.toContain('week before');
    expect(summary.text).toContain('http://localhost:4000/email-preferences');
    for (const secret of ['private-note', ...quotes.map((quote) => quote.slice(0, 40))]) {
      expect(summary.text).not.toContain(secret);
      expect(summary.html).not.toContain(secret);
    }

    // A second pass in the same window sends nothing more.
    const again = await Promise.all([one.sendDue(now), two.sendDue(now)]);
    expect(again).toEqual([0, 0]);
    expect(await summariesTo(reader.email)).toHaveLength(1);
    const deliveries = await haven.collection('notification', 'deliveries');
    expect(await deliveries.countDocuments({ kind: 'weekly-summary', userId: reader.id })).toBe(1);
    expect(await deliveries.findOne({ _id: weeklySummaryKey(reader.id, summaryWeekAt(now, newYork)!) })).toMatchObject({
      status: 'sent',
    });

    // The switch off, or no check-in that week: nothing.
    expect(await summariesTo(switchedOff.email)).toEqual([]);
    expect(await summariesTo(quiet.email)).toEqual([]);
    expect(
      await deliveries.countDocuments({ kind: 'weekly-summary', userId: { $in: [switchedOff.id, quiet.id] } }),
    ).toBe(0);

    // The Sunday after: that week had no check-in, so nothing goes.
    expect(await one.sendDue(sundayAfter(started, 1))).toBe(0);
    expect(await summariesTo(reader.email)).toHaveLength(1);
  });
});

describe('the stop link of the weekly summary', () => {
  const preferencesOf = async (client: ApiClient) =>
    (await client.get<{ preferences: Record<string, boolean> }>('/api/user/email-preferences')).body.preferences;
  const stopByGraphql = (token: unknown) =>
    new ApiClient(haven.gatewayUrl).post<{
      data?: { stopEmailsByLink: { stopped: boolean; preference: string; message: string } } | null;
      errors?: Array<{ message: string; extensions?: { code?: string; field?: string } }>;
    }>('/graphql', {
      query: 'mutation ($token: String!) { stopEmailsByLink(token: $token) { stopped preference message } }',
      variables: { token },
    });
  const oneClick = (token: string) =>
    fetch(`${haven.gatewayUrl}/hooks/notification/emails/one-click?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      redirect: 'manual',
    });

  it('stops the summary in one click without signing in, and a link not minted for it changes nothing', async () => {
    const [reader, bystander] = await Promise.all([member('weekly-stop', 1), member('weekly-bystander', 1)]);
    const started = new Date();
    await checkIn(reader.client, brighter);
    const tallies = await haven.collection('notification', 'weekly_check_ins');
    await eventually('the check-in reaching the weekly tally', () => tallies.findOne({ _id: reader.id }));
    expect(await (await replica()).sendDue(sundayAfter(started))).toBeGreaterThanOrEqual(1);
    const summary = await inbox.waitForEmail({
      to: reader.email.toLowerCase(),
      subject: summarySubject,
      what: `the weekly summary to ${reader.email}`,
    });

    // The footer's page link and the mail client's one-click header carry the same token.
    const pageLink = /Stop it in one click: (\S+)/.exec(summary.text ?? '')?.[1] ?? '';
    const token = new URL(pageLink).searchParams.get('token') ?? '';
    expect(pageLink).toBe(`http://localhost:4000/stop-emails?token=${token}`);
    expect(summary.headers['list-unsubscribe']).toBe(
      `<http://localhost:4000/hooks/notification/emails/one-click?token=${token}>`,
    );
    expect(summary.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const before = await preferencesOf(reader.client);
    expect(before.weeklySummary).toBe(true);

    // Forged, altered or another kind's: refused naming the token, every switch as it was.
    const [encodedUser, , mac] = token.split('.') as [string, string, string];
    const forgeries = [
      `${encodedUser}.weekly-summary.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${encodedUser}.marketing.${mac}`,
      `${Buffer.from(bystander.id).toString('base64url')}.weekly-summary.${mac}`,
      'not-a-token',
      '',
    ];
    for (const forged of forgeries) {
      const refused = await stopByGraphql(forged);
      expect(refused.body.errors?.[0]).toMatchObject({
        message:
          'This link to stop emails is not valid. You can still choose which emails you get in your email preferences.',
        extensions: { code: 'BAD_USER_INPUT', field: 'token' },
      });
      expect((await oneClick(forged)).status).toBe(400);
    }
    expect((await stopByGraphql(42)).status).toBe(400);
    expect(await preferencesOf(reader.client)).toEqual(before);
    expect((await preferencesOf(bystander.client)).weeklySummary).toBe(true);

    // A person opening the one-click address lands on the app's page for it.
    const opened = await fetch(`${haven.gatewayUrl}/hooks/notification/emails/one-click?token=${token}`, {
      redirect: 'manual',
    });
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe(`/stop-emails?token=${token}`);
    expect((await preferencesOf(reader.client)).weeklySummary).toBe(true);

    // The mail client's one-click POST: the summary alone is off; a second click answers the same.
    for (let click = 1; click <= 2; click += 1) {
      const stopped = await oneClick(token);
      expect(stopped.status).toBe(200);
      expect(await stopped.json()).toEqual({
        stopped: true,
        preference: 'weeklySummary',
        message: "You won't get the weekly summary any more. You can turn it back on in your email preferences.",
      });
    }
    expect(await preferencesOf(reader.client)).toEqual({ ...before, weeklySummary: false });
    expect((await preferencesOf(bystander.client)).weeklySummary).toBe(true);

    // The page's mutation with the same link: the same answer, nothing else moves.
    const again = await stopByGraphql(token);
    expect(again.body.data?.stopEmailsByLink).toMatchObject({ stopped: true, preference: 'weeklySummary' });
    expect(await preferencesOf(reader.client)).toEqual({ ...before, weeklySummary: false });

    // A link minted for a product update stops those alone, with the other switches kept.
    const productLink = stopToken(testLinkKey, reader.id, 'product-update');
    expect((await stopByGraphql(productLink)).body.data?.stopEmailsByLink.preference).toBe('productUpdates');
    expect(await preferencesOf(reader.client)).toEqual({ ...before, weeklySummary: false, productUpdates: false });
  });
});

describe('the weekly summary switch over REST', () => {
  it('is off by default, takes 0 or 1, may be left out, and refuses anything else naming the field', async () => {
    const client = new ApiClient(haven.gatewayUrl);
    expect((await client.post('/api/auth/register', { email: uniqueEmail('weekly-rest'), password })).status).toBe(201);
    const initial = await client.get<{ preferences: Record<string, boolean> }>('/api/user/email-preferences');
    expect(initial.body.preferences).toEqual({
      marketingEmails: false,
      productUpdates: true,
      securityNotifications: true,
      newsletter: false,
      weeklySummary: false,
      checkInReminder: false,
      reminderHour: 19,
    });

    const on = await client.post<{ message: string; preferences: Record<string, boolean> }>(
      '/api/user/email-preferences',
      weekly(1),
    );
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ message: 'Preferences Updated', preferences: { weeklySummary: true } });

    // The first four alone (a client that does not know the fifth) leave it as it was.
    const { weeklySummary: _left, ...specFour } = weekly(0);
    const four = await client.post<{ preferences: Record<string, boolean> }>('/api/user/email-preferences', specFour);
    expect(four.status).toBe(200);
    expect(four.body.preferences.weeklySummary).toBe(true);
    const saved = await client.get('/api/user/email-preferences');

    for (const wrong of [true, '1', 2, null]) {
      const refused = await client.post<{ message: string; field: string }>('/api/user/email-preferences', {
        ...weekly(0),
        weeklySummary: wrong,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.field).toBe('weeklySummary');
      expect(refused.body.message).toMatch(/weekly ?summary/i);
    }
    expect((await client.get('/api/user/email-preferences')).body).toEqual(saved.body);

    const off = await client.post<{ preferences: Record<string, boolean> }>('/api/user/email-preferences', weekly(0));
    expect(off.body.preferences.weeklySummary).toBe(false);
  });
});

describe('the daily check-in reminder', () => {
  const reminderSubject = 'A minute for you, from Haven';
  const remindersTo = async (email: string) => inbox.listEmails({ to: email.toLowerCase(), subject: reminderSubject });
  const tokyo = 'Asia/Tokyo';

  /** The instant at half past `hour` on today's date in `timeZone` (today as that zone counts it). */
  function todayAt(timeZone: string, hour: number): Date {
    const today = dayNumber(new Date(), timeZone);
    for (let offset = -14; offset <= 38; offset += 1) {
      const instant = new Date(`${dateOfDay(today)}T00:30:00Z`);
      instant.setUTCHours(offset, 30);
      if (dayNumber(instant, timeZone) === today && localHour(instant, timeZone) === hour) return instant;
    }
    throw new Error(`no ${hour}:30 today in ${timeZone}`);
  }

  it('reminds each person once in the hour they picked on their own clock, never on a day they checked in', async () => {
    const [early, late, checkedIn, switchedOff] = await Promise.all([
      member('remind-ny', 0, { checkInReminder: 1, reminderHour: 7 }),
      member('remind-tokyo', 0, { timeZone: tokyo, checkInReminder: 1, reminderHour: 21 }),
      member('remind-done', 0, { checkInReminder: 1, reminderHour: 5 }),
      member('remind-off', 0, { reminderHour: 7 }),
    ]);
    await checkIn(checkedIn.client, brighter);
    const tallies = await haven.collection('notification', 'weekly_check_ins');
    await eventually('the check-in reaching the tally', () => tallies.findOne({ _id: checkedIn.id }));
    const [one, two] = await Promise.all([reminderReplica(), reminderReplica()]);

    // 12:30 UTC on a winter day: 07:30 in New York and 21:30 in Tokyo, both their hours.
    const bothHours = new Date('2026-12-10T12:30:00Z');
    expect(await one.sendDue(new Date('2026-12-10T11:59:00Z'))).toBe(0); // 06:59 and 20:59
    const [sentByOne, sentByTwo] = await Promise.all([one.sendDue(bothHours), two.sendDue(bothHours)]);
    expect(sentByOne + sentByTwo).toBe(2);
    for (const person of [early, late]) {
      await inbox.waitForEmail({ to: person.email.toLowerCase(), subject: reminderSubject, what: 'a reminder' });
    }
    // Later in the same hour, and the hour after: nothing more.
    expect(
      await Promise.all([one.sendDue(new Date('2026-12-10T12:55:00Z')), two.sendDue(new Date('2026-12-10T13:30:00Z'))]),
    ).toEqual([0, 0]);
    expect(await remindersTo(early.email)).toHaveLength(1);
    expect(await remindersTo(late.email)).toHaveLength(1);
    const [reminder] = await remindersTo(late.email);
    expect(reminder!.text).toContain('You asked for this reminder at 21:00.');
    expect(reminder!.text).toContain('Check in: http://localhost:4000/sliders');

    // Today at 05:30 in New York, the hour of the one who checked in today: not reminded.
    expect(await one.sendDue(todayAt(newYork, 5))).toBe(0);
    expect(await remindersTo(checkedIn.email)).toEqual([]);
    expect(await remindersTo(switchedOff.email)).toEqual([]);
    const deliveries = await haven.collection('notification', 'deliveries');
    expect(await deliveries.countDocuments({ kind: 'check-in-reminder', userId: early.id })).toBe(1);
    expect(
      await deliveries.countDocuments({ kind: 'check-in-reminder', userId: { $in: [checkedIn.id, switchedOff.id] } }),
    ).toBe(0);

    // The next day in the same hours: one more each, as invited.
    expect(await one.sendDue(new Date('2026-12-11T12:30:00Z'))).toBe(2);
    await eventually(
      'the next day’s reminders',
      async () => (await remindersTo(early.email)).length === 2 && (await remindersTo(late.email)).length === 2,
    );

    // Its stop link, clicked by the mail client: no more reminders, the other switches as they were.
    const token = new URL(/Stop it in one click: (\S+)/.exec(reminder!.text ?? '')?.[1] ?? '').searchParams.get(
      'token',
    );
    const stopped = await fetch(`${haven.gatewayUrl}/hooks/notification/emails/one-click?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(await stopped.json()).toMatchObject({ stopped: true, preference: 'checkInReminder' });
    const after = await late.client.get<{ preferences: Record<string, unknown> }>('/api/user/email-preferences');
    expect(after.body.preferences).toMatchObject({ checkInReminder: false, reminderHour: 21, productUpdates: true });
    expect(await one.sendDue(new Date('2026-12-12T12:30:00Z'))).toBe(1); // New York's only
    await eventually('the third day’s reminder in New York', async () => (await remindersTo(early.email)).length === 3);
    expect(await remindersTo(late.email)).toHaveLength(2);
  });

  it('takes its switch as 0 or 1 and its hour as a whole hour from 0 to 23, refusing anything else by name', async () => {
    const client = new ApiClient(haven.gatewayUrl);
    expect((await client.post('/api/auth/register', { email: uniqueEmail('remind-rest'), password })).status).toBe(201);
    const initial = await client.get<{ preferences: Record<string, unknown> }>('/api/user/email-preferences');
    expect(initial.body.preferences).toMatchObject({ checkInReminder: false, reminderHour: 19 });

    const on = await client.post<{ preferences: Record<string, unknown> }>('/api/user/email-preferences', {
      ...weekly(0),
      checkInReminder: 1,
      reminderHour: 0,
    });
    expect(on.status).toBe(200);
    expect(on.body.preferences).toMatchObject({ checkInReminder: true, reminderHour: 0 });
    const saved = await client.get('/api/user/email-preferences');

    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ reminderHour: 24 }, 'reminderHour'],
      [{ reminderHour: -1 }, 'reminderHour'],
      [{ reminderHour: 7.5 }, 'reminderHour'],
      [{ reminderHour: '7' }, 'reminderHour'],
      [{ checkInReminder: 2 }, 'checkInReminder'],
      [{ checkInReminder: true }, 'checkInReminder'],
    ];
    for (const [wrong, field] of refusals) {
      const refused = await client.post<{ message: string; field: string }>('/api/user/email-preferences', {
        ...weekly(1),
        checkInReminder: 0,
        ...wrong,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.field).toBe(field);
      expect(refused.body.message).toMatch(field === 'reminderHour' ? /reminder ?hour/i : /check ?in ?reminder/i);
    }
    expect((await client.get('/api/user/email-preferences')).body).toEqual(saved.body);

    // Left out, both stay as they were.
    const untouched = await client.post<{ preferences: Record<string, unknown> }>(
      '/api/user/email-preferences',
      weekly(0),
    );
    expect(untouched.body.preferences).toMatchObject({ checkInReminder: true, reminderHour: 0 });
  });
});
