import { deletionProgress, tracesOf } from '../../../tools/testing/erasure';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import type { ApiClient, ApiResponse } from '../../../tools/testing/http';
import { subscribedUser } from '../../../tools/testing/subscribed-user';
import { keyedCheckInId } from '../src/domain/idempotency';

let haven: TestHaven;

beforeAll(async () => {
  // Twenty check-ins of one user at once, and more: well inside the hourly budget of check-ins.
  haven = await startTestHaven({ env: { RATE_LIMIT_COSTLY_MAX: '200' } });
});

afterAll(async () => {
  await haven?.stop();
});

interface GenerateReply {
  quote: { id: string; text: string; createdAt: string };
  supportResources: unknown;
}

const checkIn = {
  stressLevel: 4,
  confidenceLevel: 2,
  motivationLevel: 3,
  anxietyLevel: 4,
  hopeForFuture: 4,
  gratitudeLevels: 5,
  sleepQuality: 2,
  timeOfDayPreference: 'evening',
  notes: 'A long day at work.',
};

const send = (client: ApiClient, key?: string) =>
  client.request<GenerateReply>('POST', '/api/quotes/generate', {
    json: checkIn,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

const stored = async (name: 'check_ins' | 'quotes', userId: string) =>
  (await haven.collection('quote', name)).countDocuments({ userId });

const totalEntries = async (client: ApiClient) =>
  (await client.get<{ totalEntries: number }>('/api/user/stats')).body.totalEntries;

function expectAnswered(replies: Array<ApiResponse<GenerateReply>>): GenerateReply[] {
  for (const reply of replies) expect({ status: reply.status, body: reply.body }).toMatchObject({ status: 200 });
  return replies.map((reply) => reply.body);
}

it('twenty check-ins of one user at once are all answered, stored and counted, the streak one day', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'crowd');

  const replies = expectAnswered(await Promise.all(Array.from({ length: 20 }, () => send(client))));

  expect(new Set(replies.map((reply) => reply.quote.id)).size).toBe(20);
  expect(await stored('check_ins', userId)).toBe(20);
  expect(await stored('quotes', userId)).toBe(20);
  expect(await totalEntries(client)).toBe(20);
  const analytics = await client.get<{
    totalEntries: number;
    moodTrends: { averageMood: number };
    streaks: { currentStreak: number; longestStreak: number };
  }>('/api/user/analytics');
  expect(analytics.status).toBe(200);
  // The same ratings twenty times: (6−4 + 2 + 3 + 6−4 + 4 + 5) / 6.
  expect(analytics.body.moodTrends.averageMood).toBeCloseTo(18 / 6, 10);
  expect(analytics.body).toMatchObject({ totalEntries: 20, streaks: { currentStreak: 1, longestStreak: 1 } });
  const progress = await client.graphql<{ me: { progress: { totalEntries: number; dayStreak: number } } }>(
    'query { me { progress { totalEntries dayStreak } } }',
  );
  expect(progress.body.data?.me.progress).toEqual({ totalEntries: 20, dayStreak: 1 });
  // Every check-in folded into the kept progress, none lost to another.
  expect(await (await haven.collection('quote', 'progress')).findOne({ _id: userId })).toMatchObject({ entries: 20 });
});

it('the same check-in sent again with its idempotency key is stored once and answered the same', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'double-tap');
  const key = 'submission-1f3a9c';

  const [first, again] = expectAnswered([await send(client, key), await send(client, key)]);

  expect(again).toEqual(first);
  expect(await stored('check_ins', userId)).toBe(1);
  expect(await stored('quotes', userId)).toBe(1);
  expect(await totalEntries(client)).toBe(1);
  // The key is the same through GraphQL: the app's retry of a submission the facade first carried.
  const retried = await client.graphql<{ generateQuote: { quote: { id: string; text: string } } }>(
    'mutation ($input: AssessmentInput!) { generateQuote(input: $input) { quote { id text } } }',
    { input: { ...checkIn, idempotencyKey: key } },
  );
  expect(retried.body.data?.generateQuote.quote).toEqual({ id: first!.quote.id, text: first!.quote.text });
  expect(await stored('check_ins', userId)).toBe(1);
});

it('the same check-in sent several times at once with one key is stored once, every reply the same', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'double-click');
  const key = 'a'.repeat(200);

  const replies = expectAnswered(await Promise.all(Array.from({ length: 5 }, () => send(client, key))));

  for (const reply of replies) expect(reply).toEqual(replies[0]);
  expect(await stored('check_ins', userId)).toBe(1);
  expect(await stored('quotes', userId)).toBe(1);
  expect(await totalEntries(client)).toBe(1);
  expect(await (await haven.collection('quote', 'progress')).findOne({ _id: userId })).toMatchObject({ entries: 1 });
});

it('a check-in whose request failed after storing it, before its progress, is folded in by its repeat, once', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'lost-fold');
  const key = 'submission-lost-fold';
  const progress = await haven.collection('quote', 'progress');
  const analytics = async () =>
    (
      await client.get<{ moodTrends: { averageMood: number }; streaks: { currentStreak: number } }>(
        '/api/user/analytics',
      )
    ).body;
  const [first] = expectAnswered([await send(client, key)]);
  // The state such a failure leaves: the check-in and its quote stored, the progress without them.
  await progress.deleteOne({ _id: userId });
  expect(await analytics()).toMatchObject({ moodTrends: { averageMood: 0 }, streaks: { currentStreak: 0 } });

  const repeats = expectAnswered([await send(client, key), await send(client, key)]);

  for (const reply of repeats) expect(reply).toEqual(first);
  expect(await progress.findOne({ _id: userId })).toMatchObject({ entries: 1 });
  expect(await analytics()).toMatchObject({
    moodTrends: { averageMood: expect.closeTo(18 / 6, 10) },
    streaks: { currentStreak: 1 },
  });
});

it("another user's same idempotency key stores that user's own check-in", async () => {
  const [one, other] = await Promise.all([
    subscribedUser(haven.gatewayUrl, 'key-one'),
    subscribedUser(haven.gatewayUrl, 'key-other'),
  ]);
  const key = 'shared-key-42';

  const [first, second] = expectAnswered([await send(one.client, key), await send(other.client, key)]);

  expect(second!.quote.id).not.toBe(first!.quote.id);
  expect(await stored('check_ins', one.userId)).toBe(1);
  expect(await stored('check_ins', other.userId)).toBe(1);
  expect(await totalEntries(other.client)).toBe(1);
});

it('a malformed idempotency key is refused with 400 naming it, and nothing is stored', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'bad-key');

  for (const key of ['', 'k'.repeat(201)]) {
    const refused = await send(client, key);
    expect({ key, status: refused.status, field: (refused.body as unknown as { field: string }).field }).toEqual({
      key,
      status: 400,
      field: 'idempotencyKey',
    });
    expect((refused.body as unknown as { message: string }).message).toMatch(/idempotency key/i);
  }
  // Outside printable ASCII: a header cannot carry these, the GraphQL argument can.
  for (const key of ['café-1', 'line\nbreak', 'tab\there']) {
    const refused = await client.graphql(
      'mutation ($input: AssessmentInput!) { generateQuote(input: $input) { quote { id } } }',
      { input: { ...checkIn, idempotencyKey: key } },
    );
    expect({ key, error: refused.body.errors?.[0]?.extensions }).toMatchObject({
      key,
      error: { code: 'BAD_USER_INPUT', field: 'idempotencyKey' },
    });
  }

  expect(await stored('check_ins', userId)).toBe(0);
  expect(await stored('quotes', userId)).toBe(0);
  expect(await totalEntries(client)).toBe(0);
});

it('keeps the key only as its check-in, so erasing the account erases the key', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'key-erased');
  const key = `erase-me-${userId}-submission`;
  expectAnswered([await send(client, key)]);
  const checkIns = await haven.collection('quote', 'check_ins');
  expect(await checkIns.countDocuments({ _id: keyedCheckInId(userId, key) })).toBe(1);
  // The key's text is stored nowhere: the check-in's id stands for it.
  expect(await tracesOf(haven, [key])).toEqual([]);

  const deleted = await client.request<{ requestId: string }>('DELETE', '/api/user/delete-account');
  expect(deleted.status).toBe(200);
  await eventually('the quote service erasing the account', async () => {
    const progress = await deletionProgress(haven, deleted.body.requestId);
    return progress.services.some((each) => each.service === 'quote' && each.erased);
  });

  expect(await checkIns.countDocuments({ _id: keyedCheckInId(userId, key) })).toBe(0);
  expect(await stored('check_ins', userId)).toBe(0);
});
