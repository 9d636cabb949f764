import { decodeEvent } from '@haven/proto';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { eventually } from '../../../tools/testing/eventually';
import { watchPublishedEvents, type PublishedEvents } from '../../../tools/testing/published-events';
import { subscribedUser } from '../../../tools/testing/subscribed-user';
import { openedEvent, openedForPerson } from '../../../tools/testing/person-keys';
import { dimensions } from '../src/domain/assessment';
import { emotionalStateRatings } from '../src/domain/progress';
import { decodeRatings } from '../src/domain/rating-codes';

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

interface QuoteReply {
  id: string;
  text: string;
  createdAt: string;
  isFavorite: boolean;
  emotionalState: Record<string, number>;
}

const subscriber = async (prefix: string): Promise<ApiClient> =>
  (await subscribedUser(haven.gatewayUrl, prefix)).client;

const count = async (name: string) => (await haven.collection('quote', name)).countDocuments();

const chosen = {
  stressLevel: 4,
  confidenceLevel: 2,
  focusClarity: 3,
  motivationLevel: 2,
  anxietyLevel: 4,
  connectionWithOthers: 3,
  supportSystemStrength: 4,
  senseOfPurpose: 3,
  progressTowardGoals: 3,
  hopeForFuture: 4,
  sleepQuality: 1,
  physicalComfort: 3,
  currentChallengeLevel: 3,
  gratitudeLevels: 5,
  urgencyOfNeed: 2,
  timeOfDayPreference: 'evening',
  notes: 'A long week; my sister visits on Sunday.',
};

it('stores a check-in and its quote, lists it, saves it as a favourite, counts it and exports it', async () => {
  const client = await subscriber('journey');
  const generated = await client.post<{ quote: QuoteReply; supportResources: unknown }>('/api/quotes/generate', chosen);
  expect(generated.status).toBe(200);
  const { quote } = generated.body;
  expect(quote.text.length).toBeGreaterThan(20);
  expect(quote.isFavorite).toBe(false);
  expect(generated.body.supportResources).toBeNull();
  expect(quote.emotionalState).toEqual({
    stressLevel: 4,
    confidenceLevel: 2,
    motivationLevel: 2,
    anxietyLevel: 4,
    hopeForFuture: 4,
    gratitudeLevels: 5,
    focusClarity: 3,
    senseOfPurpose: 3,
  });

  const storedQuote = (await (await haven.collection('quote', 'quotes')).findOne({ _id: quote.id }))!;
  const stored = await (await haven.collection('quote', 'check_ins')).findOne({ _id: storedQuote.checkInId as string });
  expect(stored).toMatchObject({ timeOfDay: 'evening' });
  // The ratings, the notes and the message are kept sealed under the person's own key: unreadable in the database.
  expect(stored).not.toHaveProperty('sleepQuality');
  expect(typeof storedQuote.emotionalState).toBe('string');
  const openedRatings = await openedForPerson(haven, storedQuote.userId as string, stored!.ratings as string);
  expect(decodeRatings(dimensions, openedRatings!)).toMatchObject({ sleepQuality: 1, urgencyOfNeed: 2 });
  const openedState = await openedForPerson(haven, storedQuote.userId as string, storedQuote.emotionalState as string);
  expect(decodeRatings(emotionalStateRatings, openedState!)).toEqual(quote.emotionalState);
  expect(stored!.notes).not.toContain(chosen.notes);
  expect(storedQuote.text).not.toContain(quote.text);
  expect(await openedForPerson(haven, storedQuote.userId as string, stored!.notes as string)).toBe(chosen.notes);
  expect(await openedForPerson(haven, storedQuote.userId as string, storedQuote.text as string)).toBe(quote.text);

  const recent = await client.get<{ quotes: QuoteReply[] }>('/api/quotes/recent');
  expect(recent.status).toBe(200);
  expect(recent.body.quotes.map((each) => each.id)).toEqual([quote.id]);
  expect(recent.body.quotes[0]!.emotionalState.stressLevel).toBe(4);

  const saved = await client.request<{ quote: QuoteReply }>('PATCH', `/api/quotes/${quote.id}/favorite`, {
    json: { isFavorite: true },
  });
  expect(saved.status).toBe(200);
  expect(saved.body.quote.isFavorite).toBe(true);
  const favorites = await client.get<{ quotes: QuoteReply[] }>('/api/quotes/favorites');
  expect(favorites.body.quotes.map((each) => each.id)).toEqual([quote.id]);

  expect((await client.get('/api/user/stats')).body).toEqual({ totalQuotes: 1, totalEntries: 1, favoriteQuotes: 1 });

  const analytics = await client.get<{ moodTrends: { averageMood: number }; recentInsights: unknown[] }>(
    '/api/user/analytics',
  );
  expect(analytics.status).toBe(200);
  // mood: (6−4) + 2 + 2 + (6−4) + 4 + 5 = 17; 17 / 6
  expect(analytics.body).toMatchObject({
    totalQuotes: 1,
    favoriteQuotes: 1,
    totalEntries: 1,
    moodTrends: { moodHistory: [2.83], recentEntries: 1, trend: 'flat' },
    streaks: { currentStreak: 1, longestStreak: 1, totalQuotesGenerated: 1 },
  });
  expect(analytics.body.moodTrends.averageMood).toBeCloseTo(17 / 6, 5);
  expect(analytics.body.recentInsights[0]).toMatchObject({ insightType: 'weekly_summary' });

  const exported = await client.get<string>('/api/user/export');
  expect(exported.status).toBe(200);
  expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
  const day = new Date().toISOString().slice(0, 10);
  expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="haven-data-${day}.csv"`);
  const [header, row] = exported.body.split('\r\n');
  expect(header).toMatch(/^checkInId,createdAt,timeOfDay,stressLevel,/);
  expect(row).toContain(quote.id);
  expect(row).toContain(chosen.notes);

  // quote.generated carries ids and numbers, never the notes or the text; the mood and ratings sealed.
  const { userId } = (await (await haven.collection('quote', 'quotes')).findOne({ _id: quote.id }))!;
  const raw = decodeEvent((await published.waitFor(userId as string, 'quote.generated')).value);
  expect(raw.type).toBe('quote.generated');
  expect(raw.payload).toMatchObject({ quoteId: quote.id, moodScore: 0 });
  expect(raw.payload).not.toHaveProperty('ratings.sleepQuality');
  const event = await openedEvent(haven, raw);
  expect(event.payload).toMatchObject({
    quoteId: quote.id,
    ratings: { sleepQuality: 1, gratitudeLevels: 5 },
    timeOfDay: 'evening',
  });
  const payload = JSON.stringify(event.payload, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
  expect(payload).not.toContain('sister');
  expect(payload).not.toContain(quote.text.slice(0, 20));
});

it('answers crisis signals with the help of the person’s country: as the app sends it, else their time zone’s', async () => {
  type CrisisReply = { quote: QuoteReply; supportResources: { region: string; place: string; emergency: string } };
  const client = await subscriber('crisis');
  const crisis = { urgencyOfNeed: 5, hopeForFuture: 1 };
  const lines = (reply: { body: CrisisReply }) => reply.body.quote.text.split('\n');

  const inTheUk = await client.post<CrisisReply>('/api/quotes/generate', { ...crisis, country: 'GB' });
  expect(inTheUk.status).toBe(200);
  expect(inTheUk.body.supportResources).toMatchObject({ region: 'GB', place: 'United Kingdom' });
  expect(lines(inTheUk)[1]).toBe('Samaritans: Call 116 123 (free, 24 hours).');
  expect(inTheUk.body.quote.text).toContain('If your life is in danger, call 999.');

  const inTheUs = await client.post<CrisisReply>('/api/quotes/generate', { ...crisis, country: 'us' });
  expect(inTheUs.body.supportResources).toMatchObject({
    region: 'US',
    emergency: 'If your life is in danger, call 911.',
  });
  expect(lines(inTheUs)[1]).toBe('988 Suicide & Crisis Lifeline: Call or text 988 (free, 24 hours).');
  expect(inTheUs.body.quote.text).not.toContain('116 123');

  // A country without a confirmed line: the directory and that country's emergency number.
  const inJapan = await client.post<CrisisReply>('/api/quotes/generate', { ...crisis, country: 'JP' });
  expect(lines(inJapan)[1]).toBe('Find A Helpline: Free, confidential helplines in your country.');
  expect(inJapan.body.quote.text).toContain('If your life is in danger, call 119.');

  // No country sent, and a time zone (UTC) that names none: the directory, never another country's lines.
  const unknown = await client.post<CrisisReply>('/api/quotes/generate', crisis);
  expect(unknown.body.supportResources.region).toBe('international');
  expect(unknown.body.quote.text).not.toMatch(/116 123|988|999|911/);

  // No country sent: the time zone the person gave Haven decides.
  const changed = await client.graphql(
    'mutation { updateProfile(input: { timeZone: "America/New_York" }) { timeZone } }',
  );
  expect(changed.body).toMatchObject({ data: { updateProfile: { timeZone: 'America/New_York' } } });
  await eventually('a crisis reply for the person’s new time zone', async () => {
    const reply = await client.post<CrisisReply>('/api/quotes/generate', crisis);
    return reply.body.supportResources.region === 'US';
  });

  // "Somewhere else" (ZZ, the unknown region) overrules the time zone: the directory, not the US's lines.
  const elsewhere = await client.post<CrisisReply>('/api/quotes/generate', { ...crisis, country: 'ZZ' });
  expect(elsewhere.body.supportResources).toMatchObject({ region: 'international', place: 'Anywhere else' });
  expect(elsewhere.body.quote.text).not.toMatch(/988|911/);
});

it('answers crisis in the notes with support resources first, whatever the ratings say', async () => {
  const client = await subscriber('crisis-words');
  const reply = await client.post<{ quote: QuoteReply; supportResources: { region: string } | null }>(
    '/api/quotes/generate',
    { ...chosen, notes: 'Had a nice lunch. I keep thinking everyone would be better off without me.', country: 'GB' },
  );
  expect(reply.status).toBe(200);
  expect(reply.body.supportResources?.region).toBe('GB');
  expect(reply.body.quote.text.split('\n')[1]).toBe('Samaritans: Call 116 123 (free, 24 hours).');

  const idiom = await client.post<{ quote: QuoteReply; supportResources: unknown }>('/api/quotes/generate', {
    ...chosen,
    notes: 'This job is killing me, dead tired.',
  });
  expect(idiom.body.supportResources).toBeNull();
  expect(idiom.body.quote.text).not.toContain('Samaritans');
});

it('reads notes that are not kept for crisis, and still keeps them nowhere', async () => {
  const client = await subscriber('crisis-unkept');
  expect((await client.post('/api/user/privacy-settings', { keepNotes: false })).status).toBe(200);
  const reply = await client.post<{ quote: QuoteReply; supportResources: { region: string } | null }>(
    '/api/quotes/generate',
    { ...chosen, notes: 'i dont want to be alive anymore', country: 'GB' },
  );
  expect(reply.status).toBe(200);
  expect(reply.body.supportResources?.region).toBe('GB');
  const { checkInId } = (await (await haven.collection('quote', 'quotes')).findOne({ _id: reply.body.quote.id }))!;
  const stored = await (await haven.collection('quote', 'check_ins')).findOne({ _id: checkInId as string });
  expect(stored).toMatchObject({ notes: null });
});

describe('bad input: a 400 naming the field, nothing stored', () => {
  let client: ApiClient;
  beforeAll(async () => {
    client = await subscriber('bad-input');
  });

  it.each([
    ['stressLevel', 0, 'stressLevel must be a whole number from 1 to 5'],
    ['sleepQuality', 6, 'sleepQuality must be a whole number from 1 to 5'],
    ['hopeForFuture', 2.5, 'Hope for future must be a whole number'],
    ['gratitudeLevels', '3', 'Gratitude levels must be a whole number'],
    ['urgencyOfNeed', null, 'urgencyOfNeed must be a whole number from 1 to 5'],
    ['timeOfDayPreference', 'night', 'timeOfDayPreference must be morning, afternoon or evening'],
    ['notes', 'x'.repeat(1001), 'notes must be at most 1000 characters'],
    ['country', 'United Kingdom', 'country must be a two-letter country code, for example GB'],
  ])('%s refused', async (field, value, message) => {
    const before = [await count('check_ins'), await count('quotes')];
    const reply = await client.post('/api/quotes/generate', { ...chosen, [field]: value });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ field, message });
    expect([await count('check_ins'), await count('quotes')]).toEqual(before);
  });

  it('a slider left out is 3, as the spec says', async () => {
    const { stressLevel: _left, ...rest } = chosen;
    const reply = await client.post<{ quote: QuoteReply }>('/api/quotes/generate', rest);
    expect(reply.status).toBe(200);
    expect(reply.body.quote.emotionalState.stressLevel).toBe(3);
  });

  it("another user's quote is not found, a malformed id is a 400, and neither changes anything", async () => {
    const owner = await subscriber('owner');
    const theirs = await owner.post<{ quote: QuoteReply }>('/api/quotes/generate', chosen);
    const other = await client.request('PATCH', `/api/quotes/${theirs.body.quote.id}/favorite`, {
      json: { isFavorite: true },
    });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: 'Quote not found' });
    const malformed = await client.request('PATCH', '/api/quotes/not-an-id/favorite', { json: { isFavorite: true } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ field: 'id' });
    const missing = await client.request('PATCH', `/api/quotes/${theirs.body.quote.id}/favorite`, { json: {} });
    expect(missing.status).toBe(400);
    expect((await owner.get<{ quotes: QuoteReply[] }>('/api/quotes/favorites')).body.quotes).toEqual([]);
  });

  it('recent quotes refuse a bad limit or date', async () => {
    expect((await client.get('/api/quotes/recent?limit=0')).body).toMatchObject({ field: 'limit' });
    expect((await client.get('/api/quotes/recent?limit=abc')).status).toBe(400);
    const badDate = await client.get('/api/quotes/recent?date=2026-02-30');
    expect(badDate.status).toBe(400);
    expect(badDate.body).toMatchObject({ field: 'date' });
  });
});

it('keeps the premium operations for subscribers and the counts open to a user who still needs setup', async () => {
  const client = new ApiClient(haven.gatewayUrl);
  await client.post('/api/auth/register', { email: uniqueEmail('setup'), password: 'not subscribed yet' });
  const denied = await client.post('/api/quotes/generate', chosen);
  expect(denied.status).toBe(403);
  expect(denied.body).toMatchObject({ requiresAuth: true, reason: 'no_subscription' });
  for (const path of ['/api/quotes/recent', '/api/quotes/favorites', '/api/user/analytics', '/api/user/export']) {
    expect([path, (await client.get(path)).status]).toEqual([path, 403]);
  }
  expect(await count('check_ins')).toBeGreaterThan(0);
  expect((await client.get('/api/user/stats')).body).toEqual({ totalQuotes: 0, totalEntries: 0, favoriteQuotes: 0 });
  const signedOut = new ApiClient(haven.gatewayUrl);
  expect((await signedOut.get('/api/user/export')).status).toBe(401);
});

it('keeps the time zone the user gave at sign-up and changed in Settings, for every "today"', async () => {
  const client = new ApiClient(haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: uniqueEmail('zone'),
    password: 'checking in daily',
    timeZone: 'Asia/Tokyo',
  });
  expect(registered.status).toBe(201);
  const userId = registered.body.user.id;
  const zones = await haven.collection('quote', 'user_time_zones');
  await eventually(
    'the sign-up time zone kept by the quote service',
    async () => (await zones.findOne({ _id: userId }))?.timeZone === 'Asia/Tokyo',
  );
  const changed = await client.graphql(
    'mutation { updateProfile(input: { timeZone: "America/Los_Angeles" }) { timeZone } }',
  );
  expect(changed.body).toMatchObject({ data: { updateProfile: { timeZone: 'America/Los_Angeles' } } });
  await eventually(
    'the changed time zone kept by the quote service',
    async () => (await zones.findOne({ _id: userId }))?.timeZone === 'America/Los_Angeles',
  );
});
