import { parse } from 'graphql';
import { HeaderMap, type BaseContext } from '@apollo/server';
import {
  documentSize,
  LimitedApolloServer,
  mostRepeatedField,
  operationBounds,
  queryProblems,
  type OperationBounds,
} from '../src/limits';

const bounds: OperationBounds = { tokens: 100, depth: 3, fields: 20, aliases: 2, directives: 2, repeats: 3 };

describe('documentSize', () => {
  it('counts fields, aliases and directives, fragments each time they are spread', () => {
    const size = documentSize(
      parse(`query Q($a: Boolean!) @x {
        me { id a: name @include(if: $a) ...F ...F }
      }
      fragment F on User @y { b: email friends { id } }`),
    );
    expect(size).toEqual({ depth: 3, fields: 3 + 2 * 3, aliases: 1 + 2, directives: 2 + 2 });
  });

  it('adds up every operation and every fragment no operation spreads', () => {
    const size = documentSize(
      parse('query A { me { id } } query B { me { x: id } } fragment Unused on User { friends { friends { id } } }'),
    );
    expect(size).toEqual({ depth: 3, fields: 2 + 2 + 3, aliases: 1, directives: 0 });
  });

  it('measures a second fragment of the same name too (graphql-js validates both)', () => {
    const size = documentSize(parse('{ me { ...F } } fragment F on User { a: id } fragment F on User { id }'));
    expect(size.fields).toBe(2 + 1);
    expect(size.aliases).toBe(1);
  });
});

describe('mostRepeatedField', () => {
  it('counts a field written again in one selection', () => {
    expect(mostRepeatedField(parse('{ me { id } me { id } me { id } }'))).toEqual({ path: 'me', times: 3 });
  });

  it('merges inline fragments and named fragments into the selection they sit in', () => {
    const document = parse('{ me { id ... on User { id } ...F ...F } } fragment F on User { id }');
    expect(mostRepeatedField(document)).toEqual({ path: 'me.id', times: 4 });
  });

  it('multiplies a nested field by the repeats of the fields above it', () => {
    const twice = 'me { friends { id } friends { id } }';
    expect(mostRepeatedField(parse(`{ ${twice} ${twice} }`))).toEqual({ path: 'me.friends', times: 4 });
  });

  it('keeps aliased fields apart: each response name is its own path', () => {
    expect(mostRepeatedField(parse('{ a: me { id } b: me { id } me { id } }')).times).toBe(1);
  });

  it('looks into a fragment no operation spreads', () => {
    const document = parse('{ me { id } } fragment Unused on Query { me { id } me { id } }');
    expect(mostRepeatedField(document)).toEqual({ path: 'me', times: 2 });
  });

  it('ends on a fragment cycle, and stops after the given number of fields', () => {
    const cycle = parse('{ me { ...A } } fragment A on User { id ...B } fragment B on User { id ...A }');
    expect(mostRepeatedField(cycle).times).toBe(2);
    expect(mostRepeatedField(parse(`{ ${'me { id } '.repeat(50)}}`), 10).times).toBeLessThanOrEqual(6);
  });
});

describe('queryProblems', () => {
  it('passes a query within every bound', () => {
    expect(queryProblems('query Me { me { id name friends { id } } }', bounds)).toEqual([]);
  });

  it('leaves a query that does not parse to the server, which reports the syntax error', () => {
    expect(queryProblems('{ me { id }', bounds)).toEqual([]);
  });

  it('refuses more tokens than allowed, without parsing the rest', () => {
    // Distinct field names, the braces are tokens too.
    const query = (tokens: number) => `{ ${Array.from({ length: tokens - 2 }, (_, i) => `f${i}`).join(' ')} }`;
    expect(queryProblems(query(100), { ...bounds, fields: 1000 })).toEqual([]);
    expect(queryProblems(query(101), { ...bounds, fields: 1000 })).toEqual([
      'Query is too long: at most 100 tokens allowed',
    ]);
    expect(queryProblems(`${query(101)} }}} not GraphQL`, bounds)).toEqual([
      'Query is too long: at most 100 tokens allowed',
    ]);
  });

  it('names each limit a query is over, with the same depth and field messages as the validation rules', () => {
    expect(queryProblems('{ me { friends { friends { id } } } }', bounds)).toEqual([
      'Query is nested too deeply: depth 4, at most 3 allowed',
    ]);
    expect(queryProblems(`{ ${'me { id } '.repeat(11)}}`, bounds)).toEqual([
      'Query selects too many fields: 22, at most 20 allowed',
    ]);
    expect(queryProblems('{ a: me { id } b: me { id } c: me { id } }', bounds)).toEqual([
      'Query uses too many aliases: 3, at most 2 allowed',
    ]);
    expect(
      queryProblems('{ me { id @skip(if: false) name @skip(if: false) email @include(if: true) } }', bounds),
    ).toEqual(['Query uses too many directives: 3, at most 2 allowed']);
    expect(queryProblems('{ me { id } me { id } me { id } me { id } }', bounds)).toEqual([
      'Query repeats a field too often: me selected 4 times, at most 3 allowed',
    ]);
  });

  it('reports every size limit at once, and repeats only once the sizes are within bounds', () => {
    const aliased = Array.from({ length: 11 }, (_, i) => `m${i}: me { id }`).join(' ');
    expect(queryProblems(`{ ${aliased} }`, bounds)).toEqual([
      'Query selects too many fields: 22, at most 20 allowed',
      'Query uses too many aliases: 11, at most 2 allowed',
    ]);
  });

  it("refuses Haven's hostile shapes under its own bounds, each naming its limit", () => {
    const repeated = `{${'me{id}'.repeat(14_000)}}`; // 84 KB
    expect(queryProblems(repeated)).toEqual([`Query is too long: at most ${operationBounds.tokens} tokens allowed`]);
    expect(queryProblems(`{${'me{id}'.repeat(200)}}`)).toEqual([
      `Query repeats a field too often: me selected 200 times, at most ${operationBounds.repeats} allowed`,
    ]);
    const aliases = Array.from({ length: 100 }, (_, i) => `m${i}:me{id}`).join(' ');
    expect(queryProblems(`{${aliases}}`)).toEqual([
      `Query uses too many aliases: 100, at most ${operationBounds.aliases} allowed`,
    ]);
    const nested = (levels: number): string => (levels === 0 ? 'id' : `friends{${nested(levels - 1)}}`.repeat(3));
    expect(queryProblems(`{me{${nested(3)}}}`)).toEqual([
      `Query repeats a field too often: me.friends.friends.friends selected 27 times, at most ${operationBounds.repeats} allowed`,
    ]);
  });
});

describe('LimitedApolloServer', () => {
  let server: LimitedApolloServer<BaseContext>;
  beforeAll(async () => {
    server = new LimitedApolloServer({
      typeDefs: 'type User { id: ID! friends: [User!]! } type Query { me: User }',
      resolvers: { Query: { me: () => ({ id: '1', friends: [] }) } },
    });
    await server.start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const send = async (method: 'GET' | 'POST', body: unknown, search = '') => {
    const response = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method,
        headers: new HeaderMap([
          ['content-type', 'application/json'],
          ['apollo-require-preflight', 'true'],
        ]),
        search,
        body,
      },
      context: async () => ({}),
    });
    const text = response.body.kind === 'complete' ? response.body.string : '';
    return { status: response.status ?? 200, json: JSON.parse(text) as { data?: unknown; errors?: unknown[] } };
  };
  const repeated = `{${'me{id}'.repeat(100)}}`;
  const refusal = {
    status: 400,
    json: {
      errors: [
        {
          message: `Query repeats a field too often: me selected 100 times, at most ${operationBounds.repeats} allowed`,
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ],
    },
  };

  it('answers a query within the bounds as usual', async () => {
    expect(await send('POST', { query: '{ me { id } }' })).toEqual({
      status: 200,
      json: { data: { me: { id: '1' } } },
    });
  });

  it('refuses a POST, a GET and any query of a batch over the bounds with a 400 naming the limit', async () => {
    expect(await send('POST', { query: repeated })).toEqual(refusal);
    expect(await send('GET', undefined, `?${new URLSearchParams({ query: repeated }).toString()}`)).toEqual(refusal);
    expect(await send('POST', [{ query: '{ me { id } }' }, { query: repeated }])).toEqual(refusal);
  });

  it('holds a query it runs itself to the token bound and the depth and field rules', async () => {
    const tooLong = await server.executeOperation({ query: `{ me { ${'id '.repeat(operationBounds.tokens)}} }` });
    expect(tooLong.body.kind === 'single' && tooLong.body.singleResult.errors?.[0]?.message).toMatch(
      /^Syntax Error: Document contains more/,
    );
    const deep = `{ me { ${'friends { '.repeat(9)}id${' }'.repeat(9)} } }`;
    const tooDeep = await server.executeOperation({ query: deep });
    expect(tooDeep.body.kind === 'single' && tooDeep.body.singleResult.errors?.[0]?.message).toBe(
      'Query is nested too deeply: depth 11, at most 10 allowed',
    );
  });
});
