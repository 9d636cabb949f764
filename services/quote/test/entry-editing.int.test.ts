/**
 * A person changes one of their own entries within a week: its ratings, time of day and notes. The entry shows the
 * change (its notes and all 15 ratings, to its writer), progress, analytics, the export and the weekly summary's
 * tally follow, and the message stays, unless the entry now shows crisis signals. Nobody else's entry can be
 * changed, an older one cannot, and bad input changes nothing.
 */
import { decodeEvent, type DecodedEvent } from '@haven/proto';
import { calmRatings, heavyRatings } from '../../../tools/testing/check-ins';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import type { ApiClient } from '../../../tools/testing/http';
import { watchPublishedEvents, type PublishedEvents } from '../../../tools/testing/published-events';
import { subscribedUser } from '../../../tools/testing/subscribed-user';
import { openedEvent, testKeyring, weeklyTallyDays } from '../../../tools/testing/person-keys';
import { ratingsOfCheckIn, type CheckInRecord } from '../src/model/check-in';

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

interface EditedEntry {
  quote: {
    id: string;
    text: string;
    timeOfDay: string;
    notes: string | null;
    editedAt: string | null;
    emotionalState: { stressLevel: number; hopeForFuture: number };
    ratings: Record<string, number> | null;
  };
  supportResources: { region: string } | null;
}

const entryFields = `quote { id text timeOfDay notes editedAt emotionalState { stressLevel hopeForFuture }
  ratings { stressLevel sleepQuality hopeForFuture } } supportResources { region }`;

const editEntry = (client: ApiClient, quoteId: string, input: Record<string, unknown>) =>
  client.graphql<{ editEntry: EditedEntry }>(
    `mutation($quoteId: ID!, $input: EntryEditInput!) { editEntry(quoteId: $quoteId, input: $input) { ${entryFields} } }`,
    { quoteId, input },
  );

async function entriesOf(client: ApiClient): Promise<Array<EditedEntry['quote']>> {
  const answer = await client.graphql<{ me: { recentQuotes: Array<EditedEntry['quote']> } }>(
    `{ me { recentQuotes(limit: 10) { id text timeOfDay notes editedAt emotionalState { stressLevel hopeForFuture }
      ratings { stressLevel sleepQuality hopeForFuture } } } }`,
  );
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.me.recentQuotes;
}

async function moodsOf(client: ApiClient) {
  const answer = await client.graphql<{
    me: {
      progress: { averageMood: number; totalEntries: number };
      analytics: { moodTrends: { moodHistory: number[] } };
    };
  }>('{ me { progress { averageMood totalEntries } analytics { moodTrends { moodHistory } } } }');
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.me;
}

async function checkIn(client: ApiClient, ratings: Record<string, unknown>) {
  const answer = await client.post<{ quote: { id: string; text: string } }>('/api/quotes/generate', ratings);
  expect(answer.status).toBe(200);
  return answer.body.quote;
}

it('changes ratings, time of day and notes; the message stays, and progress, analytics and the export follow', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'edit-entry');
  await checkIn(client, calmRatings);
  const written = await checkIn(client, { ...heavyRatings, timeOfDayPreference: 'morning', notes: 'A slow start' });
  expect((await moodsOf(client)).progress.averageMood).toBeCloseTo(3);

  const notes = `Better than I first said ${Math.random().toString(36).slice(2)}`;
  const edited = await editEntry(client, written.id, {
    ...calmRatings,
    sleepQuality: 5,
    timeOfDayPreference: 'evening',
    notes,
  });
  expect(edited.body.errors).toBeUndefined();
  const reply = edited.body.data!.editEntry;
  expect(reply.supportResources).toBeNull();
  expect(reply.quote).toMatchObject({
    id: written.id,
    text: written.text,
    timeOfDay: 'evening',
    notes,
    emotionalState: { stressLevel: 2, hopeForFuture: 4 },
    ratings: { stressLevel: 2, sleepQuality: 5, hopeForFuture: 4 },
  });
  expect(Date.parse(reply.quote.editedAt!)).toBeLessThanOrEqual(Date.now());

  // The journey shows the entry as changed; an entry never edited says so.
  const [latest, earlier] = await entriesOf(client);
  expect(latest).toEqual(reply.quote);
  expect(earlier!.editedAt).toBeNull();
  const moods = await moodsOf(client);
  expect(moods.progress.totalEntries).toBe(2);
  expect(moods.progress.averageMood).toBeCloseTo(4);
  expect(moods.analytics.moodTrends.moodHistory).toEqual([4, 4]);

  // Only what was given changes: a later edit of the notes alone keeps the new ratings.
  const notesOnly = await editEntry(client, written.id, { notes: null });
  expect(notesOnly.body.data?.editEntry.quote).toMatchObject({ notes: null, ratings: { sleepQuality: 5 } });

  const exported = await client.get('/api/user/data-export');
  expect(JSON.stringify(exported.body)).not.toContain('A slow start');
  const quote = await (await haven.collection('quote', 'quotes')).findOne({ _id: written.id as never });
  const stored = (await (
    await haven.collection('quote', 'check_ins')
  ).findOne({
    _id: quote!.checkInId,
  })) as unknown as CheckInRecord;
  expect(stored).toMatchObject({ timeOfDay: 'evening', notes: null });
  expect(await ratingsOfCheckIn(testKeyring(haven), stored)).toMatchObject({ sleepQuality: 5, stressLevel: 2 });

  // The event carries numbers only: the mood before and after, never the notes.
  const message = await published.waitFor(userId, 'quote.entry_edited');
  const event = await openedEvent(haven, decodeEvent(message.value) as DecodedEvent<'quote.entry_edited'>);
  expect(event.payload).toMatchObject({ userId, quoteId: written.id, moodScore: 4, previousMoodScore: 2 });
  expect(Buffer.from(message.value).toString('latin1')).not.toContain('Better than I first said');
});

it("moves the weekly summary's tally to the entry's new mood", async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'edit-tally');
  const written = await checkIn(client, heavyRatings);
  const moodSum = async () => (await weeklyTallyDays(haven, userId))?.reduce((sum, day) => sum + day.moodSum, 0);
  await eventually('the check-in in the tally', async () => (await moodSum()) === 2);
  expect((await editEntry(client, written.id, calmRatings)).body.errors).toBeUndefined();
  await eventually("the tally at the entry's new mood", async () => (await moodSum()) === 4);
});

it('answers crisis words added in an edit with the crisis reply and the lines of the given country', async () => {
  const { client } = await subscribedUser(haven.gatewayUrl, 'edit-crisis');
  const written = await checkIn(client, { sleepQuality: 4, hopeForFuture: 4 });
  const edited = await editEntry(client, written.id, {
    notes: 'I said I was fine. honestly i want to end it all and nobody knows.',
    country: 'GB',
  });
  expect(edited.body.errors).toBeUndefined();
  const reply = edited.body.data!.editEntry;
  expect(reply.supportResources?.region).toBe('GB');
  expect(reply.quote.text).not.toBe(written.text);
  expect(reply.quote.text).toContain('Samaritans');
});

it('does not keep notes given in an edit when the person keeps none', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'edit-no-notes');
  const written = await checkIn(client, {});
  expect((await client.post('/api/user/privacy-settings', { keepNotes: false })).status).toBe(200);
  const edited = await editEntry(client, written.id, { notes: 'Not to be kept', stressLevel: 2 });
  expect(edited.body.data?.editEntry.quote).toMatchObject({ notes: null, ratings: { stressLevel: 2 } });
  const checkIns = await haven.collection('quote', 'check_ins');
  expect(await checkIns.countDocuments({ userId, notes: 'Not to be kept' })).toBe(0);
});

it("refuses someone else's entry, an older one, a deleted one and bad input, changing nothing", async () => {
  const owner = await subscribedUser(haven.gatewayUrl, 'edit-owner');
  const other = await subscribedUser(haven.gatewayUrl, 'edit-other');
  const written = await checkIn(owner.client, { ...heavyRatings, notes: 'Mine as written' });
  const before = await entriesOf(owner.client);

  const stranger = await editEntry(other.client, written.id, { stressLevel: 1 });
  expect(stranger.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  const malformed = await editEntry(owner.client, 'not-an-id', { stressLevel: 1 });
  expect(malformed.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'quoteId' });
  const outOfRange = await editEntry(owner.client, written.id, { stressLevel: 6, hopeForFuture: 1 });
  expect(outOfRange.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'stressLevel' });
  const noTime = await editEntry(owner.client, written.id, { timeOfDayPreference: 'night' });
  expect(noTime.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'timeOfDayPreference' });
  const nothing = await editEntry(owner.client, written.id, { country: 'GB' });
  expect(nothing.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input' });
  expect(await entriesOf(owner.client)).toEqual(before);
  expect(before[0]).toMatchObject({ notes: 'Mine as written', ratings: { stressLevel: 4 } });

  // Eight days on, the entry is history.
  const old = await checkIn(owner.client, {});
  const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
  await (
    await haven.collection('quote', 'quotes')
  ).updateOne({ _id: old.id as never }, { $set: { createdAt: eightDaysAgo } });
  const tooOld = await editEntry(owner.client, old.id, { stressLevel: 1 });
  expect(tooOld.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'quoteId' });
  expect(tooOld.body.errors?.[0]?.message).toMatch(/7 days/);

  const deleted = await owner.client.graphql('mutation($quoteId: ID!) { deleteEntry(quoteId: $quoteId) { quoteId } }', {
    quoteId: written.id,
  });
  expect(deleted.body.errors).toBeUndefined();
  const gone = await editEntry(owner.client, written.id, { stressLevel: 1 });
  expect(gone.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
});
