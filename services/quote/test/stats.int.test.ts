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
  const quote = (id: string, owner: string, isFavorite: boolean) => ({
    _id: id,
    userId: owner,
    checkInId: `c-${id}`,
    text: 'You are doing better than you think.',
    isFavorite,
    createdAt: now,
  });
  await (
    await haven.collection('quote', 'quotes')
  ).insertMany([
    quote('q1', userId, true),
    quote('q2', userId, false),
    quote('q3', userId, true),
    quote('q4', 'someone-else', true),
  ]);
  await (
    await haven.collection('quote', 'check_ins')
  ).insertMany([
    { _id: 'c1', userId, ratings: {}, timeOfDay: 'morning', createdAt: now },
    { _id: 'c2', userId: 'someone-else', ratings: {}, timeOfDay: 'evening', createdAt: now },
  ]);

  const stats = await client.get('/api/user/stats');
  expect(stats.status).toBe(200);
  expect(stats.body).toEqual({ totalQuotes: 3, totalEntries: 1, favoriteQuotes: 2 });
});
