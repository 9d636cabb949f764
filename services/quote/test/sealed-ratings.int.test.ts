/**
 * A check-in's ratings and its quote's emotional state are stored sealed under the person's key. Entries stored
 * before that keep their ratings in clear: every page still reads them as they are, and an edit seals them.
 */
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import type { ApiClient } from '../../../tools/testing/http';
import { calmRatings, heavyRatings } from '../../../tools/testing/check-ins';
import { openedForPerson } from '../../../tools/testing/person-keys';
import { subscribedUser } from '../../../tools/testing/subscribed-user';
import { dimensions, type Ratings } from '../src/domain/assessment';
import { emotionalStateOf, emotionalStateRatings } from '../src/domain/progress';
import { decodeRatings } from '../src/domain/rating-codes';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

/** Mood 2, sleep at its lowest. */
const sleeplessRatings: Ratings = { ...heavyRatings, sleepQuality: 1 };

async function checkIn(client: ApiClient, ratings: Ratings): Promise<string> {
  const answer = await client.post<{ quote: { id: string } }>('/api/quotes/generate', ratings);
  expect(answer.status).toBe(200);
  return answer.body.quote.id;
}

/** Rewrites an entry as entries were stored before the ratings were sealed: one clear field per rating. */
async function storeAsBefore(quoteId: string, ratings: Ratings): Promise<string> {
  const quotes = await haven.collection('quote', 'quotes');
  const checkIns = await haven.collection('quote', 'check_ins');
  const quote = await quotes.findOne({ _id: quoteId as never });
  const checkInId = quote!.checkInId as string;
  await checkIns.updateOne({ _id: checkInId as never }, { $set: { ...ratings }, $unset: { ratings: 1 } });
  await quotes.updateOne({ _id: quoteId as never }, { $set: { emotionalState: emotionalStateOf(ratings) } });
  return checkInId;
}

interface Pages {
  recentQuotes: Array<{
    id: string;
    score: number;
    dotColour: string;
    emotionalState: Record<string, number>;
    ratings: Record<string, number>;
  }>;
  progress: { averageMood: number; totalEntries: number };
  analytics: { moodTrends: { moodHistory: number[] }; recentInsights: Array<{ insightType: string }> };
}

async function pagesOf(client: ApiClient): Promise<Pages> {
  const answer = await client.graphql<{ me: Pages }>(
    `{ me {
      recentQuotes(limit: 10) { id score dotColour emotionalState { stressLevel hopeForFuture } ratings { sleepQuality urgencyOfNeed } }
      progress { averageMood totalEntries }
      analytics { moodTrends { moodHistory } recentInsights { insightType } }
    } }`,
  );
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.me;
}

it('shows entries stored with clear ratings everywhere, and seals them when they are edited', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'sealed-ratings');
  const heavyId = await checkIn(client, sleeplessRatings);
  const calmId = await checkIn(client, calmRatings);
  const heavyCheckInId = await storeAsBefore(heavyId, sleeplessRatings);
  await storeAsBefore(calmId, calmRatings);

  // The journey, the progress page and analytics read the clear ratings as they are.
  const pages = await pagesOf(client);
  expect(pages.recentQuotes.map((quote) => quote.id)).toEqual([calmId, heavyId]);
  expect(pages.recentQuotes[1]).toMatchObject({
    dotColour: 'red',
    emotionalState: { stressLevel: 4, hopeForFuture: 2 },
    ratings: { sleepQuality: 1, urgencyOfNeed: 3 },
  });
  expect(pages.recentQuotes[1]!.score).toBeCloseTo(16 / 7, 5);
  expect(pages.recentQuotes[0]).toMatchObject({ dotColour: 'yellow', emotionalState: { stressLevel: 2 } });
  expect(pages.progress).toEqual({ averageMood: 3, totalEntries: 2 });
  expect(pages.analytics.moodTrends.moodHistory).toEqual([4, 2]);
  expect(pages.analytics.recentInsights.map((insight) => insight.insightType)).toContain('weekly_summary');
  const year = await client.graphql<{ yearInMoods: Array<{ mood: number; entries: number }> }>(
    'query($year: String!) { yearInMoods(year: $year) { mood entries } }',
    { year: String(new Date().getUTCFullYear()) },
  );
  expect(year.body.data?.yearInMoods.reduce((entries, day) => entries + day.entries, 0)).toBe(2);

  // Both exports carry them.
  const exported = await client.get<{
    checkIns: Array<{ id: string; ratings: Record<string, number> }>;
    quotes: Array<{ id: string; emotionalState: Record<string, number> }>;
  }>('/api/user/data-export');
  expect(exported.status).toBe(200);
  expect(exported.body.checkIns.find((each) => each.id === heavyCheckInId)?.ratings).toEqual(sleeplessRatings);
  expect(exported.body.quotes.find((each) => each.id === heavyId)?.emotionalState).toEqual(
    emotionalStateOf(sleeplessRatings),
  );
  const csv = await client.get<string>('/api/user/export');
  expect(csv.status).toBe(200);
  const [header, ...rows] = csv.body.split('\r\n').map((line) => line.split(','));
  const heavyRow = rows.find((row) => row[0] === heavyCheckInId)!;
  expect(dimensions.map((dimension) => Number(heavyRow[header!.indexOf(dimension)]))).toEqual(
    dimensions.map((dimension) => sleeplessRatings[dimension]),
  );

  // An edit stores the entry's ratings sealed, its clear fields gone.
  const edited = await client.graphql(
    'mutation($quoteId: ID!, $input: EntryEditInput!) { editEntry(quoteId: $quoteId, input: $input) { quote { id } } }',
    { quoteId: heavyId, input: { sleepQuality: 5 } },
  );
  expect(edited.body.errors).toBeUndefined();
  const storedCheckIn = await (await haven.collection('quote', 'check_ins')).findOne({ _id: heavyCheckInId as never });
  const storedQuote = await (await haven.collection('quote', 'quotes')).findOne({ _id: heavyId as never });
  for (const dimension of dimensions) expect(storedCheckIn).not.toHaveProperty(dimension);
  expect(storedCheckIn!.ratings).toMatch(/^hp1\./);
  expect(storedQuote!.emotionalState).toMatch(/^hp1\./);
  const ratings = decodeRatings(dimensions, (await openedForPerson(haven, userId, storedCheckIn!.ratings))!);
  expect(ratings).toEqual({ ...sleeplessRatings, sleepQuality: 5 });
  const state = decodeRatings(
    emotionalStateRatings,
    (await openedForPerson(haven, userId, storedQuote!.emotionalState))!,
  );
  expect(state).toEqual(emotionalStateOf(sleeplessRatings));
  const afterEdit = await pagesOf(client);
  expect(afterEdit.recentQuotes[1]).toMatchObject({ id: heavyId, ratings: { sleepQuality: 5 } });
  expect(afterEdit.analytics.moodTrends.moodHistory).toEqual([4, 2]);

  // Deleting an entry stored before takes its mood, read in clear, out of the progress page.
  const deleted = await client.graphql('mutation($quoteId: ID!) { deleteEntry(quoteId: $quoteId) { quoteId } }', {
    quoteId: calmId,
  });
  expect(deleted.body.errors).toBeUndefined();
  expect((await pagesOf(client)).progress).toEqual({ averageMood: 2, totalEntries: 1 });
});
