/**
 * A hostile query is refused before graphql-js validates it, at the gateway and at a subgraph reached
 * directly, with a 400 that names the limit (services/platform/src/limits.ts). What the refusal costs is
 * measured by `BENCH_ONLY=limits make bench`, never asserted here.
 */
import { operationBounds } from '@haven/platform';
import { startTestHaven, testSubgraphSecret, type TestHaven } from '../../tools/testing/haven';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

interface Reply {
  status: number;
  body: { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

async function ask(url: string, query: string, headers: Record<string, string> = {}): Promise<Reply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: (await response.json()) as Reply['body'] };
}

/** 14,000 `me{id}` in one selection: 84 KB, within the body limit. */
const repeatedQuery = `{${'me{id}'.repeat(14_000)}}`;
/** Few enough tokens and fields to pass those bounds, one field selected 200 times. */
const repeatedWithinTokens = `{${'me{id}'.repeat(200)}}`;
const aliasQuery = `{${Array.from({ length: 100 }, (_, i) => `m${i}:me{id}`).join(' ')}}`;

const refusals: Array<[string, string, string]> = [
  [
    'the 84 KB repeated selection',
    repeatedQuery,
    `Query is too long: at most ${operationBounds.tokens} tokens allowed`,
  ],
  [
    'a field selected 200 times',
    repeatedWithinTokens,
    `Query repeats a field too often: me selected 200 times, at most ${operationBounds.repeats} allowed`,
  ],
  ['100 aliases', aliasQuery, `Query uses too many aliases: 100, at most ${operationBounds.aliases} allowed`],
];

describe.each([
  ['the gateway', () => `${haven.gatewayUrl}/graphql`, {}],
  ['the user subgraph', () => haven.services.user.url, { 'x-haven-subgraph-secret': testSubgraphSecret }],
])('%s', (_name, url, headers: Record<string, string>) => {
  it.each(refusals)('refuses %s with a 400 naming the limit', async (_what, query, message) => {
    const reply = await ask(url(), query, headers);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }] });
  });

  it('still answers a query within the bounds', async () => {
    const reply = await ask(url(), '{ me { id } }', headers);
    expect(reply).toEqual({ status: 200, body: { data: { me: null } } });
  });
});
