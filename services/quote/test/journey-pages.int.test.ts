/** The whole journey a page at a time: each page goes on from the last quote of the one before, to the first. */
import { storeCheckInAt } from '../../../tools/testing/check-ins';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import type { ApiClient } from '../../../tools/testing/http';
import { subscribedUser } from '../../../tools/testing/subscribed-user';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

const page = `query Page($limit: Int, $before: ID, $date: String) {
  me { recentQuotes(limit: $limit, before: $before, date: $date) { id text } }
}`;

async function pageOf(client: ApiClient, variables: Record<string, unknown>) {
  const reply = await client.graphql<{ me: { recentQuotes: Array<{ id: string; text: string }> } | null }>(
    page,
    variables,
  );
  return { quotes: reply.body.data?.me?.recentQuotes ?? [], errors: reply.body.errors };
}

it('pages through every quote once, newest first, quotes of the same instant included', async () => {
  const { client, userId } = await subscribedUser(haven.gatewayUrl, 'journey');
  const instants = ['2026-03-01T08:00:00Z', '2026-03-02T08:00:00Z', '2026-03-03T08:00:00Z', '2026-03-04T08:00:00Z'];
  for (const [index, instant] of instants.entries()) {
    await storeCheckInAt(haven, userId, new Date(instant), `entry ${index + 1}`);
  }
  // Two more at one instant, the newest: the order between them is by id, and neither is lost between pages.
  await storeCheckInAt(haven, userId, new Date('2026-03-05T08:00:00Z'), 'entry 5');
  await storeCheckInAt(haven, userId, new Date('2026-03-05T08:00:00Z'), 'entry 6');

  const seen: string[] = [];
  let before: string | undefined;
  const sizes: number[] = [];
  for (;;) {
    const { quotes, errors } = await pageOf(client, { limit: 4, before });
    expect(errors).toBeUndefined();
    sizes.push(quotes.length);
    seen.push(...quotes.map((quote) => quote.text));
    if (quotes.length < 4) break;
    before = quotes.at(-1)!.id;
  }
  expect(sizes).toEqual([4, 2]);
  expect(seen.slice(2)).toEqual(['entry 4', 'entry 3', 'entry 2', 'entry 1']);
  expect([...seen.slice(0, 2)].sort()).toEqual(['entry 5', 'entry 6']);
});

it("refuses a cursor that is not one of the user's own quotes, naming the field", async () => {
  const owner = await subscribedUser(haven.gatewayUrl, 'journey-owner');
  const other = await subscribedUser(haven.gatewayUrl, 'journey-other');
  const ownersQuote = await storeCheckInAt(haven, owner.userId, new Date('2026-04-01T08:00:00Z'), "the owner's entry");
  await storeCheckInAt(haven, owner.userId, new Date('2026-03-01T08:00:00Z'), "the owner's older entry");

  for (const [client, variables] of [
    [other.client, { before: ownersQuote }],
    [owner.client, { before: 'not-a-quote' }],
    [owner.client, { before: ownersQuote, date: '2026-04-01' }],
  ] as const) {
    const { errors } = await pageOf(client, variables);
    expect(errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'before' });
    expect(JSON.stringify(errors)).not.toContain('older entry');
  }
  const { quotes } = await pageOf(owner.client, { before: ownersQuote });
  expect(quotes.map((quote) => quote.text)).toEqual(["the owner's older entry"]);
});
