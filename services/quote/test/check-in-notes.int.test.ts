/**
 * The notes a person writes with a check-in come back to them on that check-in's quote, and to no one else:
 * an admin reading the account sees the quotes, never the notes.
 */
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
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
  ratings: { sleepQuality: number } | null;
}

const recentQuotesOf = `query($id: ID!) { user(id: $id) { recentQuotes(limit: 5) { text notes ratings { sleepQuality } } } }`;

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

it("never shows a person's notes, or the ratings the journey does not show, to an admin reading their account", async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'notes-private');
  expect((await client.post('/api/quotes/generate', { notes: 'Only for me to read.', sleepQuality: 1 })).status).toBe(
    200,
  );

  const read = await admin.graphql<{ user: { recentQuotes: JournalEntry[] } }>(recentQuotesOf, { id: userId });
  expect(read.body.errors).toBeUndefined();
  const [quote] = read.body.data?.user.recentQuotes ?? [];
  expect(quote?.text).toEqual(expect.any(String));
  expect(quote?.notes).toBeNull();
  expect(quote?.ratings).toBeNull();
  expect(JSON.stringify(read.body)).not.toContain('Only for me to read.');
  const own = await client.graphql<{ user: { recentQuotes: JournalEntry[] } }>(recentQuotesOf, { id: userId });
  expect(own.body.data?.user.recentQuotes[0]?.ratings).toEqual({ sleepQuality: 1 });
});
