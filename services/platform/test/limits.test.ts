import { buildSchema, Kind, parse, validate, type DocumentNode } from 'graphql';
import {
  checkRateLimit,
  clientBucket,
  clientLogKey,
  declaredRateLimits,
  depthLimit,
  fieldLimit,
  rateLimitedFields,
  rootFieldCounts,
  waitInWords,
  type DeclaredRateLimit,
  type RateLimit,
  type RateLimitDecision,
  type RateLimitStore,
} from '../src/limits';

const schema = buildSchema(`
  type Node {
    id: ID!
    child: Node
    children: [Node!]!
  }
  type Query {
    node: Node
    nodes: [Node!]!
  }
`);

const errorsOf = (query: string | DocumentNode, max = 3) =>
  validate(schema, typeof query === 'string' ? parse(query) : query, [depthLimit(max)]).map((error) => error.message);

describe('depthLimit', () => {
  it('lets a query at the limit through', () => {
    expect(errorsOf('{ node { child { id } } }')).toEqual([]);
    expect(errorsOf('{ nodes { children { id } } node { id } }')).toEqual([]);
  });

  it('refuses a query one level deeper, saying how deep and what is allowed', () => {
    expect(errorsOf('{ node { child { child { id } } } }')).toEqual([
      'Query is nested too deeply: depth 4, at most 3 allowed',
    ]);
  });

  it('measures the deepest branch, not the first', () => {
    expect(errorsOf('{ node { id } nodes { children { children { children { id } } } } }')).toEqual([
      'Query is nested too deeply: depth 5, at most 3 allowed',
    ]);
  });

  it('marks the error as bad input and points at the operation', () => {
    const [error] = validate(schema, parse('query Deep { node { child { child { id } } } }'), [depthLimit(3)]);
    expect(error?.extensions.code).toBe('BAD_USER_INPUT');
    expect(error?.locations).toEqual([{ line: 1, column: 1 }]);
  });

  it('counts a fragment at the depth where it is spread', () => {
    const fragment = 'fragment Deep on Node { child { child { id } } }';
    expect(errorsOf(`{ node { ...Deep } } ${fragment}`)).toEqual([
      'Query is nested too deeply: depth 4, at most 3 allowed',
    ]);
    expect(errorsOf(`{ node { ...Deep } } ${fragment}`, 4)).toEqual([]);
  });

  it('counts fragments spread inside fragments', () => {
    const query = `{ node { ...A } }
      fragment A on Node { child { ...B } }
      fragment B on Node { child { id } }`;
    expect(errorsOf(query)).toEqual(['Query is nested too deeply: depth 4, at most 3 allowed']);
  });

  it('counts fields inside inline fragments', () => {
    expect(errorsOf('{ node { ... on Node { child { child { id } } } } }')).toEqual([
      'Query is nested too deeply: depth 4, at most 3 allowed',
    ]);
  });

  it('ignores a deep fragment that is defined but never spread', () => {
    expect(errorsOf('{ node { id } } fragment Unused on Node { child { child { child { id } } } }')).toEqual([]);
  });

  it('checks each operation of a document on its own', () => {
    const document = 'query Shallow { node { id } } query Deep { node { child { child { child { id } } } } }';
    expect(errorsOf(document)).toEqual(['Query is nested too deeply: depth 5, at most 3 allowed']);
  });

  it('does not hang on a fragment cycle', () => {
    const query = `{ node { ...A } }
      fragment A on Node { child { ...B } }
      fragment B on Node { child { ...A } }`;
    // The cycle itself is refused by graphql-js's NoFragmentCycles; here it must only terminate.
    expect(errorsOf(query, 1)).toEqual([
      expect.stringMatching(/^Query is nested too deeply: depth \d+, at most 1 allowed$/),
    ]);
    expect(errorsOf('{ node { ...Self } } fragment Self on Node { id ...Self }', 3)).toEqual([]);
  });

  // A fragment spread twice per level would cost 2^levels if every spread re-measured it.
  it('measures each fragment once, however often it is spread (no exponential work)', () => {
    const levels = 16;
    const fragments = Array.from({ length: levels }, (_, i) =>
      i + 1 < levels ? `fragment F${i} on Node { ...F${i + 1} ...F${i + 1} }` : `fragment F${i} on Node { id }`,
    );
    const document = parse(`{ node { ...F0 } } ${fragments.join(' ')}`);

    // Count how often each fragment's body is read while validating.
    const reads = new Map<string, number>();
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
      const { selectionSet } = definition;
      const name = definition.name.value;
      Object.defineProperty(definition, 'selectionSet', {
        get: () => {
          reads.set(name, (reads.get(name) ?? 0) + 1);
          return selectionSet;
        },
      });
    }

    expect(errorsOf(document)).toEqual([]);
    expect(Math.max(...reads.values())).toBeLessThanOrEqual(4);
  });
});

describe('fieldLimit', () => {
  const fieldErrors = (query: string, max: number) =>
    validate(schema, parse(query), [fieldLimit(max)]).map((error) => error.message);

  it('counts every selected field, nested ones included', () => {
    expect(fieldErrors('{ node { id child { id } } }', 4)).toEqual([]);
    expect(fieldErrors('{ node { id child { id } } }', 3)).toEqual([
      'Query selects too many fields: 4, at most 3 allowed',
    ]);
  });

  it('counts a fragment each time it is spread, so repeated spreads cannot hide their cost', () => {
    const levels = 12;
    const fragments = Array.from({ length: levels }, (_, i) =>
      i + 1 < levels ? `fragment F${i} on Node { ...F${i + 1} ...F${i + 1} }` : `fragment F${i} on Node { id }`,
    );
    const [message] = fieldErrors(`{ node { ...F0 } } ${fragments.join(' ')}`, 500);
    expect(message).toBe(`Query selects too many fields: ${1 + 2 ** (levels - 1)}, at most 500 allowed`);
  });
});

describe('rootFieldCounts', () => {
  const countsOf = (source: string, variables?: Record<string, unknown>) => {
    const document = parse(source);
    const operation = document.definitions.find((definition) => definition.kind === 'OperationDefinition');
    if (operation?.kind !== 'OperationDefinition') throw new Error('no operation');
    return Object.fromEntries(rootFieldCounts(document, operation, variables));
  };

  it('counts a plain field, an inline fragment and a named spread alike', () => {
    expect(countsOf('mutation { login(input: {}) { ok } }')).toEqual({ login: 1 });
    expect(countsOf('mutation { ... on Mutation { login(input: {}) { ok } } }')).toEqual({ login: 1 });
    expect(countsOf('mutation { ...L } fragment L on Mutation { login(input: {}) { ok } }')).toEqual({ login: 1 });
    expect(
      countsOf('mutation { ... { ... on Mutation { ...L } } } fragment L on Mutation { l: login { ok } }'),
    ).toEqual({
      login: 1,
    });
  });

  it('counts every alias, and an alias repeated only once (it runs once)', () => {
    const aliases = Array.from({ length: 20 }, (_, i) => `r${i}: register(input: {}) { ok }`).join(' ');
    expect(countsOf(`mutation { ...R } fragment R on Mutation { ${aliases} }`)).toEqual({ register: 20 });
    expect(countsOf('mutation { a: login { ok } a: login { ok } login { ok } }')).toEqual({ login: 2 });
  });

  it('applies @skip and @include with the request’s variables', () => {
    const source =
      'mutation ($no: Boolean!, $yes: Boolean!) { a: login @include(if: $yes) { ok } b: login @skip(if: $no) { ok } c: login @include(if: $no) { ok } }';
    expect(countsOf(source, { yes: true, no: false })).toEqual({ login: 2 });
    expect(countsOf(source, { yes: true, no: true })).toEqual({ login: 2 });
    expect(countsOf('mutation { ... @skip(if: true) { login { ok } } register { ok } }')).toEqual({ register: 1 });
  });
});

describe('declaredRateLimits', () => {
  it('reads the root fields marked @rateLimit from the schema, with their class and recipient', () => {
    const schema = parse(`
      directive @rateLimit(class: String!, recipient: String) on FIELD_DEFINITION
      type Query { me: String }
      type Mutation { login: String @rateLimit(class: "SIGN_IN") register: String @rateLimit(class: "SIGN_IN") logout: Boolean }
      extend type Mutation { resend(email: String): Boolean @rateLimit(class: "MAIL", recipient: "email") }
    `);
    expect([...rateLimitedFields(schema)].sort()).toEqual(['login', 'register', 'resend']);
    expect(declaredRateLimits(schema).get('resend')).toEqual({ class: 'MAIL', recipient: 'email' });
    expect(declaredRateLimits(schema).get('login')).toEqual({ class: 'SIGN_IN' });
  });

  it('refuses a class it does not know', () => {
    expect(() => declaredRateLimits(parse('type Mutation { a: String @rateLimit(class: "SOMETIMES") }'))).toThrow(
      /no known class/,
    );
    expect(() => declaredRateLimits(parse('type Mutation { a: String @rateLimit }'))).toThrow(/no known class/);
  });
});

describe('clientBucket', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::ffff:cb00:7109', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['[2001:db8:1:2::7]', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('%s counts as %s', (address, bucket) => {
    expect(clientBucket(address)).toBe(bucket);
  });

  it('puts every address of one /64 in one bucket, and neighbouring /64s in their own', () => {
    expect(clientBucket('2001:db8:a:b:1::1')).toBe(clientBucket('2001:db8:a:b:ffff:ffff:ffff:ffff'));
    expect(clientBucket('2001:db8:a:b::1')).not.toBe(clientBucket('2001:db8:a:c::1'));
  });
});

describe('waitInWords', () => {
  it('says seconds under two minutes, else whole minutes rounded up', () => {
    expect([1, 30, 119, 120, 121, 3_599].map(waitInWords)).toEqual([
      '1 second',
      '30 seconds',
      '119 seconds',
      '2 minutes',
      '3 minutes',
      '60 minutes',
    ]);
  });
});

describe('checkRateLimit', () => {
  /** A store that answers from a script and records what it was asked. */
  function scriptedStore(answers: Record<string, RateLimitDecision>) {
    const asked: Array<{ key: string; cost: number; limit: RateLimit }> = [];
    const store: RateLimitStore = {
      hit: async (key, cost, limit) => {
        asked.push({ key, cost, limit });
        return answers[key] ?? { allowed: true, retryAfterMs: 0 };
      },
    };
    return { store, asked };
  }
  const limits = {
    SIGN_IN: { max: 4, windowMs: 60_000 },
    MAIL: { max: 5, windowMs: 3_600_000 },
    COSTLY: { max: 30, windowMs: 3_600_000 },
    ORDINARY: { max: 60, windowMs: 60_000 },
  };
  const fields = new Map<string, DeclaredRateLimit>([
    ['login', { class: 'SIGN_IN' }],
    ['register', { class: 'SIGN_IN' }],
    ['reset', { class: 'MAIL', recipient: 'email' }],
    ['subscribe', { class: 'MAIL', recipient: 'input.email' }],
    ['toggle', { class: 'MAIL' }],
    ['generate', { class: 'COSTLY' }],
    ['save', { class: 'ORDINARY' }],
  ]);
  const testSecret = 'a test secret';
  /** A client's log key as the store sees it: the address never in clear. */
  const clientKey = (field: string, bucket: string) => clientLogKey(field, bucket, testSecret);
  const check = (
    store: RateLimitStore,
    source: string,
    {
      scope = 'all' as 'all' | 'client',
      subject = { client: '203.0.113.9', account: null as string | null },
      variables = undefined as Record<string, unknown> | undefined,
    } = {},
  ) => {
    const document = parse(source);
    const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
    if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
    return checkRateLimit(
      { fields, limits, store, scope, recipientSecret: testSecret },
      subject,
      document,
      operation,
      variables,
    );
  };

  it('asks the store once per limited log, keyed by the field and a keyed hash of the client’s address, with its cost and the limit', async () => {
    const { store, asked } = scriptedStore({});
    expect(await check(store, 'mutation { a: login { ok } b: login { ok } register { ok } logout }')).toBeNull();
    expect(asked.some(({ key }) => key.includes('203.0.113'))).toBe(false);
    expect(asked).toEqual([
      { key: clientKey('login', '203.0.113.9'), cost: 2, limit: limits.SIGN_IN },
      { key: clientKey('register', '203.0.113.9'), cost: 1, limit: limits.SIGN_IN },
    ]);
  });

  it('counts an IPv6 client by its /64', async () => {
    const { store, asked } = scriptedStore({});
    await check(store, 'mutation { login { ok } }', { subject: { client: '2001:db8:1:2::99', account: null } });
    expect(asked.map(({ key }) => key)).toEqual([clientKey('login', '2001:db8:1:2::/64')]);
  });

  it('counts mail per client and per recipient (canonical, hashed), so no address is stored', async () => {
    const { store, asked } = scriptedStore({});
    await check(
      store,
      'mutation($email: String) { a: reset(email: $email) b: reset(email: " Someone@Example.COM ") subscribe(input: { email: $email }) }',
      { variables: { email: 'someone@example.com' } },
    );
    const keys = asked.map(({ key }) => key);
    expect(keys.filter((key) => key.includes('example'))).toEqual([]);
    const resetRecipient = asked.find(({ key }) => key.startsWith('reset:recipient:'))!;
    expect(resetRecipient).toMatchObject({ cost: 2, limit: limits.MAIL });
    expect(asked.find(({ key }) => key === clientKey('reset', '203.0.113.9'))).toMatchObject({
      cost: 2,
      limit: limits.SIGN_IN,
    });
    expect(asked.find(({ key }) => key.startsWith('subscribe:recipient:'))!.key.split(':')[2]).toBe(
      resetRecipient.key.split(':')[2],
    );
  });

  it('counts mail without a recipient argument against the signed-in account', async () => {
    const { store, asked } = scriptedStore({});
    await check(store, 'mutation { toggle }', { subject: { client: '203.0.113.9', account: 'u1' } });
    expect(asked.map(({ key, limit }) => [key.replace(/:account:[\w-]+$/, ':account:#'), limit])).toEqual([
      [clientKey('toggle', '203.0.113.9'), limits.SIGN_IN],
      ['toggle:account:#', limits.MAIL],
    ]);
    expect(asked.some(({ key }) => key.includes('u1'))).toBe(false);
  });

  it('counts costly and ordinary fields per account (a keyed hash), per client when signed out', async () => {
    const { store, asked } = scriptedStore({});
    await check(store, 'mutation { generate save }', { subject: { client: '203.0.113.9', account: 'u1' } });
    await check(store, 'mutation { generate }');
    expect(asked.map(({ key, limit }) => [key.replace(/:account:[\w-]+$/, ':account:#'), limit])).toEqual([
      ['generate:account:#', limits.COSTLY],
      ['save:account:#', limits.ORDINARY],
      [clientKey('generate', '203.0.113.9'), limits.COSTLY],
    ]);
    expect(asked[0]!.key.split(':')[2]).toBe(asked[1]!.key.split(':')[2]);
  });

  it('at the gateway counts only the per-client logs', async () => {
    const { store, asked } = scriptedStore({});
    await check(store, 'mutation { login { ok } reset(email: "a@example.com") generate save }', { scope: 'client' });
    expect(asked.map(({ key }) => key)).toEqual([clientKey('login', '203.0.113.9'), clientKey('reset', '203.0.113.9')]);
  });

  it('waits the longest refusal, in whole seconds rounded up, at least one, naming the refused fields', async () => {
    const { store } = scriptedStore({
      [clientKey('login', '203.0.113.9')]: { allowed: false, retryAfterMs: 1_200 },
      [clientKey('register', '203.0.113.9')]: { allowed: false, retryAfterMs: 30_001 },
    });
    expect(await check(store, 'mutation { login { ok } register { ok } }')).toEqual({
      retryAfter: 31,
      fields: ['login', 'register'],
    });
    const soon = scriptedStore({ [clientKey('login', '203.0.113.9')]: { allowed: false, retryAfterMs: 3 } });
    expect(await check(soon.store, 'mutation { login { ok } }')).toEqual({ retryAfter: 1, fields: ['login'] });
  });
});
