import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

it("counts only the signed-in user's own quotes, favourites and check-ins", async () => {
  const client = new ApiClient(haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: uniqueEmail('stats'),
    password: 'counting quotes',
  });
  const userId = registered.body.user.id;
  const now = new Date();
  // Each check-in is kept with its one quote: three entries of the user's (two favourites), one of someone else's.
  const entry = (id: string, owner: string, isFavorite: boolean) => ({
    quote: {
      _id: `q-${id}`,
      userId: owner,
      checkInId: `c-${id}`,
      text: 'You are doing better than you think.',
      isFavorite,
      createdAt: now,
    },
    checkIn: { _id: `c-${id}`, userId: owner, timeOfDay: 'morning', createdAt: now },
  });
  const entries = [entry('1', userId, true), entry('2', userId, false), entry('3', userId, true)];
  entries.push(entry('4', 'someone-else', true));
  await (await haven.collection('quote', 'quotes')).insertMany(entries.map((each) => each.quote));
  await (await haven.collection('quote', 'check_ins')).insertMany(entries.map((each) => each.checkIn));

  const stats = await client.get('/api/user/stats');
  expect(stats.status).toBe(200);
  expect(stats.body).toEqual({ totalQuotes: 3, totalEntries: 3, favoriteQuotes: 2 });
});
