import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { storeCheckInAt } from '../../../tools/testing/check-ins';
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
  // Three entries of the user's (two favourites), one of someone else's.
  for (const isFavorite of [true, false, true]) await storeCheckInAt(haven, userId, now, undefined, { isFavorite });
  await storeCheckInAt(haven, 'someone-else', now, undefined, { isFavorite: true });

  const stats = await client.get('/api/user/stats');
  expect(stats.status).toBe(200);
  expect(stats.body).toEqual({ totalQuotes: 3, totalEntries: 3, favoriteQuotes: 2 });
});
