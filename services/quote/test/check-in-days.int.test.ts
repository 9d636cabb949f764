/** The dashboard calendar's marks and the year view: the days with a check-in, in the user's own time zone. */
import { storeCheckInAt } from '../../../tools/testing/check-ins';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient } from '../../../tools/testing/http';
import { eventually } from '../../../tools/testing/eventually';
import { subscribedUser } from '../../../tools/testing/subscribed-user';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

const checkInDays = `query CheckInDays($month: String!) { checkInDays(month: $month) }`;

const checkInAt = (userId: string, instant: string) => storeCheckInAt(haven, userId, new Date(instant));

async function daysOf(client: ApiClient, month: string): Promise<string[]> {
  const reply = await client.graphql<{ checkInDays: string[] }>(checkInDays, { month });
  expect(reply.body.errors).toBeUndefined();
  return reply.body.data!.checkInDays;
}

it("marks the month's days with a check-in in the user's time zone, and no one else's", async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'calendar');
  const updated = await client.graphql(
    `mutation { updateProfile(input: { timeZone: "Pacific/Auckland" }) { id timeZone } }`,
  );
  expect(updated.body.errors).toBeUndefined();
  await eventually(
    'the quote service learning the user is in Auckland',
    async () =>
      (await (await haven.collection('quote', 'user_time_zones')).findOne({ _id: userId as never }))?.timeZone ===
      'Pacific/Auckland',
  );
  // Auckland is 13 hours ahead of UTC in November (daylight saving).
  await checkInAt(userId, '2026-10-31T12:00:00Z'); // 1 November, 01:00 in Auckland
  await checkInAt(userId, '2026-11-15T09:00:00Z'); // 15 November, 22:00
  await checkInAt(userId, '2026-11-15T20:00:00Z'); // 16 November, 09:00
  await checkInAt(userId, '2026-11-16T01:00:00Z'); // 16 November again, 14:00
  await checkInAt(userId, '2026-11-30T12:00:00Z'); // 1 December, 01:00
  const someoneElse = await subscribedUser(haven.gatewayUrl, 'calendar-other');
  await checkInAt(someoneElse.userId, '2026-11-10T00:00:00Z');

  expect(await daysOf(client, '2026-11')).toEqual(['2026-11-01', '2026-11-15', '2026-11-16']);
  expect(await daysOf(client, '2026-12')).toEqual(['2026-12-01']);
  expect(await daysOf(client, '2026-10')).toEqual([]);
  expect(await daysOf(someoneElse.client, '2026-11')).toEqual(['2026-11-10']);
});

it('says clearly when the month is not a month', async () => {
  const { client } = await subscribedUser(haven.gatewayUrl, 'calendar-bad');
  for (const month of ['2026-13', '2026-1', 'November', '2026-11-27', '']) {
    const reply = await client.graphql(checkInDays, { month });
    expect([month, reply.body.errors?.[0]?.extensions?.code]).toEqual([month, 'BAD_USER_INPUT']);
    expect(reply.body.errors?.[0]?.message).toMatch(/month must be a month written yyyy-mm/);
  }
});

it('answers only a signed-in subscriber', async () => {
  const visitor = new ApiClient(haven.gatewayUrl);
  const reply = await visitor.graphql(checkInDays, { month: '2026-11' });
  expect(reply.body.data).toBeNull();
  expect(reply.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
});

const yearInMoods = `query YearInMoods($year: String!) { yearInMoods(year: $year) { date mood colour entries } }`;

it("gives the year view each day of the year with a check-in, its mood and count, and no one else's", async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'year');
  const other = await subscribedUser(haven.gatewayUrl, 'year-other');
  // All-3 check-ins: mood 3, yellow. The last hour of 2025 in UTC (the account's zone) is not 2026.
  await checkInAt(userId, '2026-03-03T09:00:00Z');
  await checkInAt(userId, '2026-03-03T21:00:00Z');
  await checkInAt(userId, '2025-12-31T23:00:00Z');
  await checkInAt(other.userId, '2026-05-01T12:00:00Z');

  const reply = await client.graphql<{ yearInMoods: unknown[] }>(yearInMoods, { year: '2026' });
  expect(reply.body.errors).toBeUndefined();
  expect(reply.body.data?.yearInMoods).toEqual([{ date: '2026-03-03', mood: 3, colour: 'yellow', entries: 2 }]);

  for (const year of ['26', 'twenty', '2026-03', '']) {
    const refused = await client.graphql(yearInMoods, { year });
    const { code, field } = refused.body.errors?.[0]?.extensions ?? {};
    expect([year, code, field]).toEqual([year, 'BAD_USER_INPUT', 'year']);
    expect(refused.body.errors?.[0]?.message).toMatch(/year must be a year written yyyy/);
  }
});
