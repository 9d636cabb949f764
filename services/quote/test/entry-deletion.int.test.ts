/**
 * A person deletes one of their own entries for good: the check-in with its notes and its quote leave every view
 * (the journey, counts, progress, streak, analytics, favourites, the export) and the database; the weekly summary's
 * tally follows the event. Nobody else's entry can be deleted, and bad input changes nothing.
 */
import { decodeEvent, timestampDate, type DecodedEvent } from '@haven/proto';
import { calmRatings, heavyRatings } from '../../../tools/testing/check-ins';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import type { ApiClient } from '../../../tools/testing/http';
import { watchPublishedEvents, type PublishedEvents } from '../../../tools/testing/published-events';
import { subscribedUser } from '../../../tools/testing/subscribed-user';
import { openedEvent, weeklyTallyDays } from '../../../tools/testing/person-keys';

let haven: TestHaven;
let published: PublishedEvents;

beforeAll(async () => {
  haven = await startTestHaven();
  published = await watchPublishedEvents(['quote']);
});

afterAll(async () => {
  await published?.stop();
  await haven?.stop();
});

const deleteEntry = (client: ApiClient, quoteId: string) =>
  client.graphql<{ deleteEntry: { quoteId: string } }>(
    'mutation($quoteId: ID!) { deleteEntry(quoteId: $quoteId) { quoteId } }',
    { quoteId },
  );

interface Journal {
  recentQuotes: Array<{ id: string }>;
  favoriteQuotes: Array<{ id: string }>;
  stats: { totalEntries: number; totalQuotes: number; favoriteQuotes: number };
  progress: { totalEntries: number; averageMood: number; dayStreak: number };
  analytics: { totalEntries: number; streaks: { currentStreak: number }; moodTrends: { moodHistory: number[] } };
}

async function journalOf(client: ApiClient): Promise<Journal> {
  const answer = await client.graphql<{ me: Journal }>(
    `{ me {
      recentQuotes(limit: 10) { id } favoriteQuotes { id }
      stats { totalEntries totalQuotes favoriteQuotes }
      progress { totalEntries averageMood dayStreak }
      analytics { totalEntries streaks { currentStreak } moodTrends { moodHistory } }
    } }`,
  );
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.me;
}

async function checkIn(client: ApiClient, ratings: Record<string, unknown>): Promise<string> {
  const answer = await client.post<{ quote: { id: string } }>('/api/quotes/generate', ratings);
  expect(answer.status).toBe(200);
  return answer.body.quote.id;
}

it('deletes an entry for good: its check-in, notes and quote leave every view, the database and the export', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'delete-entry');
  // A calm check-in (mood 4) kept, and a heavier one (mood 2) with notes, saved as a favourite, then deleted.
  const kept = await checkIn(client, calmRatings);
  const notes = `Words only this entry holds ${Math.random().toString(36).slice(2)}`;
  const gone = await checkIn(client, { ...heavyRatings, notes });
  expect((await client.request('PATCH', `/api/quotes/${gone}/favorite`, { json: { isFavorite: true } })).status).toBe(
    200,
  );
  const before = await journalOf(client);
  expect(before.stats).toEqual({ totalEntries: 2, totalQuotes: 2, favoriteQuotes: 1 });
  expect(before.progress.averageMood).toBeCloseTo(3);

  const deleted = await deleteEntry(client, gone);
  expect(deleted.body).toEqual({ data: { deleteEntry: { quoteId: gone } } });

  const after = await journalOf(client);
  expect(after.recentQuotes.map((quote) => quote.id)).toEqual([kept]);
  expect(after.favoriteQuotes).toEqual([]);
  expect(after.stats).toEqual({ totalEntries: 1, totalQuotes: 1, favoriteQuotes: 0 });
  expect(after.progress).toMatchObject({ totalEntries: 1, dayStreak: 1 });
  expect(after.progress.averageMood).toBeCloseTo(4);
  expect(after.analytics.totalEntries).toBe(1);
  expect(after.analytics.moodTrends.moodHistory).toEqual([4]);

  // The export no longer holds it, and neither does any document of the quote service once its events are out.
  const exported = await client.get('/api/user/data-export');
  expect(exported.status).toBe(200);
  expect(JSON.stringify(exported.body)).not.toContain(notes);
  expect(JSON.stringify(exported.body)).not.toContain(gone);
  const [checkIns, quotes] = await Promise.all([
    haven.collection('quote', 'check_ins'),
    haven.collection('quote', 'quotes'),
  ]);
  expect(await checkIns.countDocuments({ userId })).toBe(1);
  expect(await checkIns.countDocuments({ notes })).toBe(0);
  await eventually('the deleted quote gone from the database once its events are published', async () => {
    return (await quotes.countDocuments({ _id: gone as never })) === 0;
  });

  // The event says which entry went, with ids and numbers only, the mood sealed under the person's key.
  const raw = decodeEvent(
    (await published.waitFor(userId, 'quote.entry_deleted')).value,
  ) as DecodedEvent<'quote.entry_deleted'>;
  expect(raw.payload).toMatchObject({ userId, quoteId: gone, moodScore: 0 });
  const event = await openedEvent(haven, raw);
  expect(event.payload).toMatchObject({ userId, quoteId: gone, moodScore: 2 });
  expect(timestampDate(event.payload.createdAt!).getTime()).toBeLessThanOrEqual(Date.now());
});

it("keeps the day's streak while another check-in that day remains, and ends it with the last one", async () => {
  const { client } = await subscribedUser(haven.gatewayUrl, 'delete-streak');
  const first = await checkIn(client, {});
  const second = await checkIn(client, {});
  expect((await journalOf(client)).progress).toMatchObject({ totalEntries: 2, dayStreak: 1 });

  expect((await deleteEntry(client, first)).body.errors).toBeUndefined();
  expect((await journalOf(client)).progress).toMatchObject({ totalEntries: 1, dayStreak: 1 });

  expect((await deleteEntry(client, second)).body.errors).toBeUndefined();
  const empty = await journalOf(client);
  expect(empty.progress).toEqual({ totalEntries: 0, averageMood: 0, dayStreak: 0 });
  expect(empty.analytics.streaks.currentStreak).toBe(0);
});

it("refuses someone else's entry, one already deleted and an id that is none, changing nothing", async () => {
  const owner = await subscribedUser(haven.gatewayUrl, 'delete-owner');
  const other = await subscribedUser(haven.gatewayUrl, 'delete-other');
  const quoteId = await checkIn(owner.client, { notes: 'Mine to keep' });

  const stranger = await deleteEntry(other.client, quoteId);
  expect(stranger.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  const malformed = await deleteEntry(owner.client, 'not-an-id');
  expect(malformed.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'quoteId' });
  expect((await journalOf(owner.client)).recentQuotes.map((quote) => quote.id)).toEqual([quoteId]);

  expect((await deleteEntry(owner.client, quoteId)).body.errors).toBeUndefined();
  const again = await deleteEntry(owner.client, quoteId);
  expect(again.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
});

it("takes the deleted entry out of the weekly summary's tally", async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'delete-tally');
  await checkIn(client, {});
  const gone = await checkIn(client, {});
  const checkInsToday = async () =>
    (await weeklyTallyDays(haven, userId))?.reduce((sum, day) => sum + day.checkIns, 0) ?? 0;
  await eventually('both check-ins in the tally', async () => (await checkInsToday()) === 2);
  expect((await deleteEntry(client, gone)).body.errors).toBeUndefined();
  await eventually('the deleted check-in out of the tally', async () => (await checkInsToday()) === 1);
});
