/**
 * The privacy controls the help text promises: stop insights being worked out from one's history, and keep
 * check-in notes off the server from now on. Never premium; bad input changes nothing.
 */
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTrial } from '../../../tools/testing/subscription';
import { openedForPerson } from '../../../tools/testing/person-keys';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

async function signedUp(): Promise<{ client: ApiClient; userId: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: uniqueEmail('privacy'),
    password: 'a private password',
  });
  expect(registered.status).toBe(201);
  return { client, userId: registered.body.user.id };
}

const settingsOf = async (client: ApiClient) => (await client.get('/api/user/privacy-settings')).body;

it('keeps new notes off the server once the user says so, and says which notes stay', async () => {
  const { client, userId } = await signedUp();
  await startTrial(client);
  expect(await settingsOf(client)).toEqual({ allowInsights: true, keepNotes: true });
  await client.post('/api/quotes/generate', { notes: 'kept: before the switch' });

  const saved = await client.post('/api/user/privacy-settings', { keepNotes: false });
  expect(saved.status).toBe(200);
  expect(saved.body).toMatchObject({ privacySettings: { allowInsights: true, keepNotes: false } });
  const generated = await client.post('/api/quotes/generate', { notes: 'not kept: after the switch' });
  expect(generated.status).toBe(200);

  const checkIns = await (
    await haven.collection('quote', 'check_ins')
  )
    .find({ userId })
    .sort({ createdAt: 1 })
    .toArray();
  const storedNotes = await Promise.all(checkIns.map((checkIn) => openedForPerson(haven, userId, checkIn.notes)));
  expect(storedNotes).toEqual(['kept: before the switch', null]);
  const exported = await client.get<{ checkIns: Array<{ notes: string | null }> }>('/api/user/data-export');
  expect(exported.body.checkIns.map((checkIn) => checkIn.notes)).toEqual(['kept: before the switch', null]);
  expect(JSON.stringify(exported.body)).not.toContain('after the switch');
});

it('stops working out insights from the history, and starts again when allowed', async () => {
  const { client } = await signedUp();
  await startTrial(client);
  await client.post('/api/quotes/generate', { sleepQuality: 5 });
  const insightsNow = async () =>
    (
      (await client.get<{ recentInsights: Array<{ insightType: string }> }>('/api/user/analytics')).body
        .recentInsights ?? []
    ).map((insight) => insight.insightType);
  expect(await insightsNow()).toContain('weekly_summary');

  expect((await client.post('/api/user/privacy-settings', { allowInsights: false })).status).toBe(200);
  expect(await insightsNow()).toEqual([]);
  const exported = await client.get<{ insights: unknown[] }>('/api/user/data-export');
  expect(exported.body.insights).toEqual([]);

  expect((await client.post('/api/user/privacy-settings', { allowInsights: true })).status).toBe(200);
  expect(await insightsNow()).toContain('weekly_summary');
});

it('works for a user who never finished setup', async () => {
  const { client } = await signedUp();
  const saved = await client.post('/api/user/privacy-settings', { allowInsights: false, keepNotes: false });
  expect(saved.status).toBe(200);
  expect(await settingsOf(client)).toEqual({ allowInsights: false, keepNotes: false });
});

it('refuses bad input with the field named, and changes nothing', async () => {
  const { client, userId } = await signedUp();
  for (const [body, field] of [
    [{}, 'allowInsights'],
    [{ keepNotes: 'no' }, 'keepNotes'],
    [{ allowInsights: 0 }, 'allowInsights'],
    [{ allowInsights: null, keepNotes: null }, 'allowInsights'],
  ] as const) {
    const answer = await client.post('/api/user/privacy-settings', body);
    expect({ body, status: answer.status, field: answer.body.field }).toEqual({ body, status: 400, field });
  }
  const notAnObject = await client.request('POST', '/api/user/privacy-settings', { rawBody: '[true]' });
  expect(notAnObject.status).toBe(400);
  expect(await (await haven.collection('quote', 'privacy_settings')).findOne({ _id: userId })).toBeNull();
  expect((await new ApiClient(haven.gatewayUrl).post('/api/user/privacy-settings', { keepNotes: false })).status).toBe(
    401,
  );
  expect((await new ApiClient(haven.gatewayUrl).get('/api/user/privacy-settings')).status).toBe(401);
});
