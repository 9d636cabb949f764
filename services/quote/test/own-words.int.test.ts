/**
 * A person's own words come back to them and to no one else: the notes of a check-in on that check-in's quote
 * (an admin reading the account sees the quotes, never the notes), and their safety plan.
 */
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { watchPublishedEvents } from '../../../tools/testing/published-events';
import { startTrial } from '../../../tools/testing/subscription';
import { subscribedUser } from '../../../tools/testing/subscribed-user';
import { verifyByEmailLink } from '../../../tools/testing/verification';

const adminEmail = uniqueEmail('notes-admin');
let haven: TestHaven;
let admin: ApiClient;

beforeAll(async () => {
  haven = await startTestHaven({ env: { ADMIN_EMAIL: adminEmail } });
  admin = new ApiClient(haven.gatewayUrl);
  const registered = await admin.post('/api/auth/register', { email: adminEmail, password: 'an admin reads quotes' });
  expect(registered.status).toBe(201);
  await verifyByEmailLink(haven.gatewayUrl, adminEmail, admin);
  await startTrial(admin);
});

afterAll(async () => {
  await haven?.stop();
});

interface JournalEntry {
  text: string;
  notes: string | null;
}

const recentQuotesOf = `query($id: ID!) { user(id: $id) { recentQuotes(limit: 5) { text notes } } }`;

it("shows a check-in's notes to the person who wrote them, on that check-in's quote", async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'notes');
  expect((await client.post('/api/quotes/generate', { notes: 'Walked by the river before work.' })).status).toBe(200);
  expect((await client.post('/api/quotes/generate', {})).status).toBe(200);

  const own = await client.graphql<{ me: { recentQuotes: JournalEntry[] } }>(
    '{ me { recentQuotes(limit: 5) { text notes } } }',
  );
  expect(own.body.errors).toBeUndefined();
  expect(own.body.data?.me.recentQuotes.map((quote) => quote.notes)).toEqual([
    null,
    'Walked by the river before work.',
  ]);
  const byId = await client.graphql<{ user: { recentQuotes: JournalEntry[] } }>(recentQuotesOf, { id: userId });
  expect(byId.body.data?.user.recentQuotes[1]?.notes).toBe('Walked by the river before work.');
});

it("never shows a person's notes to an admin reading their account", async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'notes-private');
  expect((await client.post('/api/quotes/generate', { notes: 'Only for me to read.' })).status).toBe(200);

  const read = await admin.graphql<{ user: { recentQuotes: JournalEntry[] } }>(recentQuotesOf, { id: userId });
  expect(read.body.errors).toBeUndefined();
  const [quote] = read.body.data?.user.recentQuotes ?? [];
  expect(quote?.text).toEqual(expect.any(String));
  expect(quote?.notes).toBeNull();
  expect(JSON.stringify(read.body)).not.toContain('Only for me to read.');
});

describe('the safety plan', () => {
  const planOf = `{ me { safetyPlan { warningSigns copingStrategies peopleToAsk professionals updatedAt } } }`;
  const save = (client: ApiClient, input: Record<string, unknown>) =>
    client.graphql<{ saveSafetyPlan: Record<string, string | null> }>(
      'mutation ($input: SafetyPlanInput!) { saveSafetyPlan(input: $input) { warningSigns copingStrategies peopleToAsk updatedAt } }',
      { input },
    );
  const signedUpOnly = async (prefix: string) => {
    const client = new ApiClient(haven.gatewayUrl);
    const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
      email: uniqueEmail(prefix),
      password: 'a plan for a hard day',
    });
    expect(registered.status).toBe(201);
    return { client, userId: registered.body.user.id };
  };

  it('keeps a person’s plan part by part, for them alone, and never publishes it', async () => {
    const published = await watchPublishedEvents(['quote']);
    try {
      // Never premium: an account that never started a trial writes one.
      const { client, userId } = await signedUpOnly('plan');
      const empty = await client.graphql<{ me: { safetyPlan: Record<string, string | null> } }>(planOf);
      expect(empty.body.data?.me.safetyPlan).toEqual({
        warningSigns: '',
        copingStrategies: '',
        peopleToAsk: '',
        professionals: '',
        updatedAt: null,
      });

      const first = await save(client, {
        warningSigns: '  Not sleeping, skipping meals  ',
        peopleToAsk: 'My sister Ilse',
      });
      expect(first.body.data?.saveSafetyPlan).toMatchObject({
        warningSigns: 'Not sleeping, skipping meals',
        peopleToAsk: 'My sister Ilse',
        copingStrategies: '',
        updatedAt: expect.any(String),
      });
      // A later save changes only the parts it gives; a blank part is cleared.
      await save(client, { copingStrategies: 'A long shower, then music', peopleToAsk: ' ' });
      const read = await client.graphql<{ me: { safetyPlan: Record<string, string | null> } }>(planOf);
      expect(read.body.data?.me.safetyPlan).toMatchObject({
        warningSigns: 'Not sleeping, skipping meals',
        copingStrategies: 'A long shower, then music',
        peopleToAsk: '',
      });

      const byAdmin = await admin.graphql<{ user: { safetyPlan: unknown } }>(
        'query ($id: ID!) { user(id: $id) { id safetyPlan { warningSigns } } }',
        { id: userId },
      );
      expect(byAdmin.body.errors).toBeUndefined();
      expect(byAdmin.body.data?.user.safetyPlan).toBeNull();
      expect(JSON.stringify(byAdmin.body)).not.toContain('skipping meals');
      expect(published.of(userId)).toEqual([]);
    } finally {
      await published.stop();
    }
  });

  it('refuses a part that is too long, naming it, and keeps what was saved', async () => {
    const { client } = await signedUpOnly('plan-long');
    await save(client, { warningSigns: 'Pacing at night' });
    const refused = await save(client, { warningSigns: 'Fine', reasonsForLiving: 'x'.repeat(1001) });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: 'What matters most to me must be at most 1000 characters',
      extensions: { code: 'BAD_USER_INPUT', field: 'reasonsForLiving' },
    });
    const nothing = await save(client, {});
    expect(nothing.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    const read = await client.graphql<{ me: { safetyPlan: { warningSigns: string } } }>(planOf);
    expect(read.body.data?.me.safetyPlan.warningSigns).toBe('Pacing at night');

    const signedOut = await save(new ApiClient(haven.gatewayUrl), { warningSigns: 'x' });
    expect(signedOut.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
