/**
 * Property-based fuzzing of every public input: each mutation of the public supergraph and each route of
 * the REST facade (both read from their single sources, tools/testing/operations.ts) gets generated bad
 * input as a signed-in, verified, subscribed member. Whatever is sent, Haven answers with a 4xx that names
 * the offending field (never a 5xx), and nothing the member or anyone else has is stored or changed.
 *
 * Inputs are bad by construction, never by chance: either GraphQL's coercion refuses them (a wrong type,
 * null or missing where required, an unknown field or argument or enum value, a number out of Int's range)
 * or a rule of Haven's does (over-long text with odd unicode in it, a rating outside 1–5, a count below 1).
 * Fixed seed (`FUZZ_SEED` to try another, `FUZZ_RUNS` for more cases); a failure shows the seed, the case
 * and Haven's answer. Cases are not shrunk: every step would be another round of requests.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputType,
} from 'graphql';
import { adminOnlyMessage, leasesCollection, serviceNames } from '@haven/platform';
import { checkInDimensions } from '@haven/domain';
import { fullyUsedAccount, collectionsOf, type UsedAccount } from '../../tools/testing/erasure';
import { eventually } from '../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../tools/testing/haven';
import type { ApiResponse } from '../../tools/testing/http';
import {
  isRequired,
  publicFieldsOf,
  publicMutations,
  restOperations,
  type PublicInput,
  type PublicMutation,
  type RestInput,
  type RestOperation,
} from '../../tools/testing/operations';

jest.setTimeout(120_000);

const seed = Number(process.env.FUZZ_SEED ?? 20261127);
/** Cases per operation and kind of bad input: together the file stays well under a minute. */
const numRuns = Number(process.env.FUZZ_RUNS ?? 6);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A generated value and the names of the inputs in it that are wrong (what the answer must name). */
interface Fuzzed<T = Json> {
  value: T;
  bad: string[];
}

/** Left out of its object or argument list altogether. */
const absent: unique symbol = Symbol('absent');
type MaybeAbsent = Json | typeof absent;

// ---------------------------------------------------------------------------------------------------------
// Values

/** Characters that trip careless code: NUL, zero-width and direction marks, lone surrogates, combining marks. */
const oddCharacter = fc.constantFrom(
  '\u0000',
  '\u200b',
  '\u202e',
  '\ufeff',
  '\ud800',
  '\udfff',
  'e\u0301',
  '👩‍👩‍👧',
  '𝕏',
  'ﷺ',
  '\u0085',
  '\u2028',
  '"',
  '\\',
  '$where',
  '{"$gt":""}',
  '<script>',
);
const oddText = fc
  .array(fc.oneof(oddCharacter, fc.string({ unit: 'binary', maxLength: 3 })), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''))
  // Text of spaces alone is trimmed to nothing, which optional fields take as "none".
  .filter((text) => text.trim().length > 0);

/** Text longer than any text field Haven takes (names 100, passwords 128, notes 1,000), odd unicode in it. */
const overLongText = (min = 1_100, max = 2_000) =>
  fc
    .tuple(oddText, fc.integer({ min, max }))
    .map(([text, length]) => text.repeat(Math.ceil(length / text.length)).slice(0, length));

/** Numbers as text that are not whole numbers: NaN-like, exponents, fractions, other digits, spaces. */
const notAWholeNumber = fc.constantFrom(
  'NaN',
  'Infinity',
  '-Infinity',
  '1e3',
  '3.5',
  '0x10',
  ' 3',
  '３',
  '٣',
  '',
  'three',
  '3 ',
  '+3',
  '--1',
);

/** Out of GraphQL's Int (32-bit) range. */
const outsideInt = fc.oneof(fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }), fc.constant(-(2 ** 31) - 1));

const anyJsonObject = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 6 })), {
  minKeys: 0,
  maxKeys: 3,
});

/** A value the scalar's coercion refuses. */
function wrongScalar(typeName: string): fc.Arbitrary<Json> {
  const object = anyJsonObject as fc.Arbitrary<Json>;
  switch (typeName) {
    case GraphQLString.name:
      return fc.oneof(
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        object,
        fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
      );
    case GraphQLID.name:
      return fc.oneof(
        fc.boolean(),
        object,
        fc.double({ min: 0.1, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)),
        fc.array(fc.boolean(), { minLength: 2, maxLength: 3 }),
      );
    case GraphQLInt.name:
      return fc.oneof(
        notAWholeNumber,
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
        outsideInt,
        fc.boolean(),
        object,
      );
    case GraphQLFloat.name:
      return fc.oneof(notAWholeNumber, fc.boolean(), object);
    case GraphQLBoolean.name:
      return fc.oneof(fc.constantFrom('true', 'false', 'yes', ''), fc.integer({ min: 0, max: 1 }), object);
    default:
      // A custom scalar: nothing it takes is known here; an object is refused by every scalar Haven has.
      return fc.constant([{ fuzz: true }]);
  }
}

let uniqueCounter = 0;

/** A value GraphQL's coercion accepts, plausible for the name, so a case's wrong input is the one answered. */
function typeValid(type: GraphQLInputType, name: string): Json {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return [typeValid(nullable.ofType, name)];
  if (isEnumType(nullable)) return nullable.getValues()[0]!.name;
  if (isInputObjectType(nullable)) {
    const object: Record<string, Json> = {};
    for (const field of publicFieldsOf(nullable).filter(isRequired))
      object[field.name] = typeValid(field.type, field.name);
    return object;
  }
  switch (nullable.name) {
    case GraphQLInt.name:
    case GraphQLFloat.name:
      return 1;
    case GraphQLBoolean.name:
      return false;
    default:
      // Each Haven of this file has fresh databases: a counter makes every address new, and keeps the seed's cases.
      if (/email/i.test(name)) return `fuzz.${(uniqueCounter += 1)}@example.com`;
      if (/password/i.test(name)) return 'a long enough password';
      return 'fuzz';
  }
}

/** Names GraphQL does not know for a field or an argument. */
const unknownName = fc.constantFrom('fuzzUnknown', 'isAdmin', 'role', '__proto__x', 'userIdx', 'constructorx');

/** A value of `input` that GraphQL's coercion refuses (at this input, or somewhere inside it). */
function schemaInvalid(input: PublicInput): fc.Arbitrary<Fuzzed<MaybeAbsent>> {
  const here = (value: fc.Arbitrary<MaybeAbsent>) =>
    value.map((each): Fuzzed<MaybeAbsent> => ({ value: each, bad: [input.name] }));
  const options: Array<fc.Arbitrary<Fuzzed<MaybeAbsent>>> = [];
  if (isNonNullType(input.type)) {
    options.push(here(fc.constant(null)));
    if (isRequired(input)) options.push(here(fc.constant(absent)));
  }
  const nullable = getNullableType(input.type);
  if (isListType(nullable)) {
    const element = { name: input.name, type: nullable.ofType, hasDefault: false };
    options.push(
      fc
        .tuple(schemaInvalid(element), fc.constant(typeValid(nullable.ofType, input.name)))
        .map(([bad, good]) => ({ value: [good, bad.value === absent ? null : bad.value] as Json, bad: [input.name] })),
    );
  } else if (isEnumType(nullable)) {
    const known = new Set(nullable.getValues().map((value) => value.name));
    options.push(
      here(
        fc
          .oneof(oddText, fc.constantFrom('NOT_A_VALUE', ...[...known].map((v) => v.toLowerCase())))
          .filter((v) => !known.has(v)),
      ),
    );
    options.push(here(fc.integer()));
  } else if (isInputObjectType(nullable)) {
    options.push(
      here(fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }))),
    );
    options.push(objectWithBadFields(publicFieldsOf(nullable), true));
  } else {
    options.push(here(wrongScalar(nullable.name)));
  }
  return fc.oneof(...options);
}

/**
 * An object of `fields` with at least one of them refused by GraphQL (and, when `unknownFieldsAreBad`,
 * possibly an unknown field, which GraphQL refuses too); the rest are valid or left out when optional.
 */
function objectWithBadFields(fields: PublicInput[], unknownFieldsAreBad: boolean): fc.Arbitrary<Fuzzed<MaybeAbsent>> {
  const badFieldSets = fields.length > 0 ? [fc.subarray(fields, { minLength: 1 })] : [];
  const withBadFields = badFieldSets.map((subset) =>
    subset.chain((chosen) =>
      fc
        .tuple(
          fc.tuple(...chosen.map((field) => schemaInvalid(field))),
          fc.array(fc.boolean(), { minLength: fields.length, maxLength: fields.length }),
        )
        .map(([bads, keepOptional]) => {
          const value: Record<string, Json> = {};
          const bad: string[] = [];
          fields.forEach((field, index) => {
            const chosenIndex = chosen.indexOf(field);
            if (chosenIndex >= 0) {
              const fuzzed = bads[chosenIndex]!;
              if (fuzzed.value !== absent) value[field.name] = fuzzed.value;
              bad.push(...fuzzed.bad);
            } else if (isRequired(field) || keepOptional[index]) {
              value[field.name] = typeValid(field.type, field.name);
            }
          });
          return { value: value as Json, bad };
        }),
    ),
  );
  const options = [...withBadFields];
  if (unknownFieldsAreBad) {
    options.push(
      fc
        .tuple(unknownName, fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)))
        .map(([name, extra]) => {
          const value: Record<string, Json> = {};
          for (const field of fields.filter(isRequired)) value[field.name] = typeValid(field.type, field.name);
          value[name] = extra;
          return { value: value as Json, bad: [name] };
        }),
    );
  }
  return fc.oneof(...options);
}

/** Every scalar (or list of scalars) inside an input, with where it sits. */
interface Leaf {
  path: string[];
  input: PublicInput;
}

function leavesOf(input: PublicInput, path: string[] = [input.name]): Leaf[] {
  const fields = publicFieldsOf(input.type);
  if (fields.length === 0) return [{ path, input }];
  return fields.flatMap((field) => leavesOf(field, [...path, field.name]));
}

const ratingNames = new Set<string>(checkInDimensions);

/**
 * A value that GraphQL's coercion accepts but one of Haven's rules refuses, for the inputs that have one:
 * text longer than any field takes, an Int no mutation takes (every one is a 1–5 rating or a 0/1 switch),
 * a count or page below 1 for a read. Booleans and enums have no such value.
 */
function ruleInvalid(input: PublicInput, reading: boolean): fc.Arbitrary<Json> | null {
  const nullable = getNullableType(input.type);
  if (isListType(nullable)) {
    const element = ruleInvalid({ ...input, type: nullable.ofType }, reading);
    return element && fc.array(element, { minLength: 1, maxLength: 2 });
  }
  switch (nullable.name) {
    case GraphQLString.name:
    case GraphQLID.name:
      return overLongText();
    case GraphQLInt.name:
      if (reading) return fc.integer({ min: -(2 ** 31), max: 0 });
      // A rating (a slider) is 1–5, so 0 is wrong too; a 0/1 switch takes 0.
      return fc.oneof(
        fc.integer({ min: -(2 ** 31), max: ratingNames.has(input.name) ? 0 : -1 }),
        fc.integer({ min: 6, max: 2 ** 31 - 1 }),
      );
    default:
      return null;
  }
}

/** Sets `value` at `path` inside `root` (objects made on the way). */
function setAt(root: Record<string, Json>, path: string[], value: Json): void {
  let here = root;
  for (const key of path.slice(0, -1)) {
    if (typeof here[key] !== 'object' || here[key] === null || Array.isArray(here[key])) here[key] = {};
    here = here[key] as Record<string, Json>;
  }
  here[path[path.length - 1]!] = value;
}

// ---------------------------------------------------------------------------------------------------------
// What an answer must say

/** "firstName" → "first name": how a message written for people names a field. */
const spoken = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** The answer names one of the bad inputs: as its `field`, in `problems`, or in its message. */
function namesOneOf(answer: { message?: unknown; field?: unknown; problems?: unknown }, names: string[]): boolean {
  const message = String(answer.message ?? '').toLowerCase();
  const fields = [
    answer.field,
    ...(Array.isArray(answer.problems) ? answer.problems.map((p: { field?: unknown }) => p?.field) : []),
  ]
    .filter((field): field is string => typeof field === 'string')
    .map((field) => field.replace(/\[\d+\]$/, ''));
  return names.some(
    (name) => fields.includes(name) || message.includes(name.toLowerCase()) || message.includes(spoken(name)),
  );
}

/** A case and its answer as a failure shows them: long texts cut, so the diff stays readable. */
function brief<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (_key, each: unknown) =>
      typeof each === 'string' && each.length > 60 ? `${each.slice(0, 40)}… (${each.length} characters)` : each,
    ),
  ) as T;
}

/** Fails with the case and the answer in full (long texts cut), so a red run reads like a report. */
function check(holds: boolean, expectation: string, seen: unknown): void {
  if (!holds) throw new Error(`expected ${expectation}:\n${JSON.stringify(seen, null, 2)}`);
}

/** Refused because the member is not the admin: said before any input is read, so it names none. */
const isAdminRefusal = (status: number, message: unknown) => status === 403 && message === adminOnlyMessage;

interface GraphqlReply {
  data?: unknown;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

// ---------------------------------------------------------------------------------------------------------
// The world: one Haven, one member with data of every kind

let haven: TestHaven;
let member: UsedAccount;

/** Collections that change without any stored data changing: the rate limits' logs, the leases of the relay and jobs. */
const changesOnItsOwn = (name: string) => name === 'rate_limit_logs' || name === leasesCollection;

/** What is stored: every document of every service's collections, as a hash by collection and id. */
async function storedState(): Promise<Record<string, Record<string, string>>> {
  const state: Record<string, Record<string, string>> = {};
  for (const service of serviceNames) {
    for (const name of await collectionsOf(haven, service)) {
      if (changesOnItsOwn(name)) continue;
      const documents = await (await haven.collection(service, name)).find({}).toArray();
      state[`${service}.${name}`] = Object.fromEntries(
        documents.map((document) => [
          String(document._id),
          createHash('sha256').update(JSON.stringify(document)).digest('hex').slice(0, 16),
        ]),
      );
    }
  }
  return state;
}

/** Which documents were added, removed or changed between two stored states. */
function storedChanges(
  before: Record<string, Record<string, string>>,
  after: Record<string, Record<string, string>>,
): string[] {
  const changes: string[] = [];
  for (const collection of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [was, is] = [before[collection] ?? {}, after[collection] ?? {}];
    for (const id of new Set([...Object.keys(was), ...Object.keys(is)])) {
      if (was[id] === is[id]) continue;
      changes.push(`${collection} ${id}: ${!was[id] ? 'added' : !is[id] ? 'removed' : 'changed'}`);
    }
  }
  return changes;
}

/** What the member sees of their own data. */
async function memberView(): Promise<Record<string, unknown>> {
  const view: Record<string, unknown> = {};
  for (const path of [
    '/api/user',
    '/api/quotes/recent',
    '/api/quotes/favorites',
    '/api/user/stats',
    '/api/user/email-preferences',
    '/api/user/privacy-settings',
    '/api/subscription-status',
    '/api/gdpr/cookie-consent',
  ]) {
    const response = await member.client.get(path);
    view[path] = { status: response.status, body: response.body };
  }
  return view;
}

/**
 * Notes what is stored and what the member sees before a block of fuzz tests, and returns the block's last
 * check: none of it changed. One snapshot per block: one per operation would cost more than the fuzz itself.
 */
function snapshotBeforeBlock(): () => Promise<void> {
  let viewBefore: Record<string, unknown>;
  let storedBefore: Record<string, Record<string, string>>;
  beforeAll(async () => {
    // The member's view first: a read that records something on first use would show as a change otherwise.
    viewBefore = await memberView();
    storedBefore = await storedState();
  });
  return async () => {
    expect(await memberView()).toEqual(viewBefore);
    expect(storedChanges(storedBefore, await storedState())).toEqual([]);
  };
}

beforeAll(async () => {
  // Every case counts against the member's budgets; the limits have their own tests.
  const unlimited = Object.fromEntries(
    ['AUTH', 'MAIL', 'COSTLY', 'ORDINARY'].map((limitClass) => [`RATE_LIMIT_${limitClass}_MAX`, '100000']),
  );
  haven = await startTestHaven({ env: unlimited });
  member = await fullyUsedAccount(haven, 'fuzzed');
  // The account's own e-mails and events finish settling before the first snapshot.
  let last: Record<string, Record<string, string>> = {};
  await eventually(
    'Haven at rest after the member was set up',
    async () => {
      const now = await storedState();
      const changed = storedChanges(last, now);
      last = now;
      if (changed.length > 0) throw new Error(`still changing: ${changed.slice(0, 5).join(', ')}`);
      return true;
    },
    { intervalMs: 500 },
  );
});

afterAll(async () => {
  await haven?.stop();
});

const fuzzOptions = () => ({ seed, numRuns, endOnFailure: true });

// ---------------------------------------------------------------------------------------------------------
// GraphQL: every public mutation

const mutations = publicMutations();

/** The mutation with every declared argument as a variable, and optionally an argument it does not declare. */
function mutationDocument(mutation: PublicMutation, unknownArgument: string | null): string {
  const definitions = mutation.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const args = mutation.args.map((arg) => `${arg.name}: $${arg.name}`);
  if (unknownArgument) args.push(`${unknownArgument}: 1`);
  const call = args.length > 0 ? `${mutation.name}(${args.join(', ')})` : mutation.name;
  return `mutation Fuzz${definitions ? `(${definitions})` : ''} { ${call}${mutation.returnsObject ? ' { __typename }' : ''} }`;
}

interface GraphqlCase {
  query: string;
  variables: Record<string, Json>;
  bad: string[];
  /** Inputs filled in with a plausible value that a rule may still refuse (a made-up token): naming one is fair. */
  alsoBad?: string[];
  /** An id is among the bad inputs: "not yours" (403) or "not found" (404) is the answer for one. */
  badId?: boolean;
}

function schemaInvalidCall(mutation: PublicMutation): fc.Arbitrary<GraphqlCase> {
  const withBadArguments = mutation.args.length
    ? [
        objectWithBadFields(mutation.args, false).map(({ value, bad }) => ({
          query: mutationDocument(mutation, null),
          variables: value as Record<string, Json>,
          bad,
        })),
      ]
    : [];
  const withUnknownArgument = unknownName.map((name) => ({
    query: mutationDocument(mutation, name),
    variables: Object.fromEntries(
      mutation.args.filter(isRequired).map((arg) => [arg.name, typeValid(arg.type, arg.name)]),
    ),
    bad: [name],
  }));
  return fc.oneof(...withBadArguments, withUnknownArgument);
}

/** An input that holds an id (or a list of them). */
const isIdInput = (input: PublicInput) => {
  const nullable = getNullableType(input.type);
  return getNullableType(isListType(nullable) ? nullable.ofType : nullable) === GraphQLID;
};

function ruleInvalidCall(mutation: PublicMutation): fc.Arbitrary<GraphqlCase> | null {
  const allLeaves = mutation.args.flatMap((arg) => leavesOf(arg));
  const leaves = allLeaves
    .map((leaf) => ({ leaf, invalid: ruleInvalid(leaf.input, false) }))
    .filter((each): each is { leaf: Leaf; invalid: fc.Arbitrary<Json> } => each.invalid !== null);
  if (leaves.length === 0) return null;
  return fc.subarray(leaves, { minLength: 1 }).chain((chosen) =>
    fc.tuple(...chosen.map((each) => each.invalid)).map((values) => {
      const variables: Record<string, Json> = {};
      for (const arg of mutation.args) variables[arg.name] = typeValid(arg.type, arg.name);
      chosen.forEach((each, index) => setAt(variables, each.leaf.path, values[index]!));
      const bad = chosen.map((each) => each.leaf.input.name);
      return {
        query: mutationDocument(mutation, null),
        variables,
        bad,
        alsoBad: allLeaves.map((leaf) => leaf.input.name).filter((name) => !bad.includes(name)),
        badId: chosen.some((each) => isIdInput(each.leaf.input)),
      };
    }),
  );
}

async function callGraphql(call: GraphqlCase): Promise<ApiResponse<GraphqlReply>> {
  return member.client.request<GraphqlReply>('POST', '/graphql', {
    json: { query: call.query, variables: call.variables },
  });
}

/** No 5xx, no internal error; refused as bad input naming a bad argument or field (or refused as not the admin). */
function expectRefusedNaming(call: GraphqlCase, response: ApiResponse<GraphqlReply>, schemaLevel: boolean): void {
  const seen = brief({ case: call, status: response.status, body: response.body });
  check(response.status < 500, 'no 5xx', seen);
  const errors = response.body?.errors ?? [];
  const codes = errors.map((error) => error.extensions?.code);
  check(!codes.includes('INTERNAL_SERVER_ERROR'), 'no internal error', seen);
  check(errors.length > 0 && response.body.data == null, 'a refusal', seen);
  const [first] = errors;
  const code = first?.extensions?.code;
  const refusedBeforeInput =
    !schemaLevel &&
    ((code === 'FORBIDDEN' && first?.message === adminOnlyMessage) ||
      (call.badId === true && (code === 'FORBIDDEN' || code === 'NOT_FOUND')));
  const named =
    refusedBeforeInput ||
    errors.some(
      (error) =>
        // Refused before running: GraphQL's own words. Refused by a rule: any code of Haven's (a sign-in's
        // "Invalid email or password" names both on purpose).
        (!schemaLevel || ['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED'].includes(String(error.extensions?.code))) &&
        namesOneOf({ message: error.message, ...error.extensions }, [...call.bad, ...(call.alsoBad ?? [])]),
    );
  check(named, `an answer naming ${call.bad.join(' or ')}`, seen);
  // A resolver's refusal travels in a 200 (GraphQL over HTTP); one refused before running is a 400.
  if (schemaLevel) check(response.status === 400, 'status 400', seen);
}

describe('every public mutation refuses bad input, naming it, and stores nothing', () => {
  const nothingChanged = snapshotBeforeBlock();

  it.each(mutations.map((mutation) => [mutation.name, mutation] as const))('%s', async (_name, mutation) => {
    await fc.assert(
      fc.asyncProperty(schemaInvalidCall(mutation), async (call) => {
        expectRefusedNaming(call, await callGraphql(call), true);
      }),
      fuzzOptions(),
    );
    const ruleCases = ruleInvalidCall(mutation);
    if (ruleCases) {
      await fc.assert(
        fc.asyncProperty(ruleCases, async (call) => {
          expectRefusedNaming(call, await callGraphql(call), false);
        }),
        fuzzOptions(),
      );
    }
  });

  it('stored nothing, and the member sees what they saw before', () => nothingChanged());
});

// ---------------------------------------------------------------------------------------------------------
// REST: every route of the facade

const routes = restOperations();

interface RestCase {
  method: string;
  url: string;
  /** A JSON body, or raw text sent as `application/json`. */
  json?: Json;
  rawBody?: string;
  bad: string[];
  alsoBad?: string[];
  badId?: boolean;
  /** Bad without naming any field: the body is not JSON, or not an object. */
  shapeOnly?: boolean;
}

/** UTF-8 percent-encoding that also takes lone surrogates (as U+FFFD, what a browser sends). */
const percentEncoded = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');

const routeTakesBody = (operation: RestOperation) => ['POST', 'PATCH'].includes(operation.route.method);

/** A request to the route with these inputs: params in the path, query ones in the query string, the rest in the body. */
function restRequest(
  operation: RestOperation,
  values: Map<RestInput, MaybeAbsent>,
  bad: string[],
  extraBody: Record<string, Json> = {},
): RestCase {
  const { route } = operation;
  let url = route.path;
  const query: string[] = [];
  const body: Record<string, Json> = {};
  for (const param of route.path.matchAll(/:(\w+)/g)) {
    const input = [...values.keys()].find((each) => each.source === 'params' && each.name === param[1]);
    const value = input ? values.get(input) : undefined;
    url = url.replace(
      `:${param[1]}`,
      percentEncoded(typeof value === 'string' ? value : '5a1d0f4e-0000-4000-8000-000000000000'),
    );
  }
  for (const [input, value] of values) {
    if (value === absent || input.source === 'params') continue;
    if (input.source === 'query') {
      for (const each of Array.isArray(value) ? value : [value])
        query.push(`${input.name}=${typeof each === 'string' ? each : percentEncoded(JSON.stringify(each))}`);
    } else body[input.name] = value;
  }
  if (query.length > 0) url += `?${query.join('&')}`;
  const hasBody = routeTakesBody(operation);
  return { method: route.method, url, json: hasBody ? { ...extraBody, ...body } : undefined, bad };
}

/** The route's inputs that a client can set, one per name (a body key, a query parameter, a path segment). */
const settableInputs = (operation: RestOperation) =>
  operation.inputs.filter((input) => input.source !== 'body' || routeTakesBody(operation));

/** A value a query string or a path can carry that GraphQL refuses: text where a number goes, or a repeated parameter. */
function wrongInUrl(input: RestInput): fc.Arbitrary<Json> | null {
  const nullable = getNullableType(input.type);
  if (isListType(nullable)) return null;
  if (nullable.name === GraphQLInt.name || nullable.name === GraphQLFloat.name) {
    return fc.oneof(notAWholeNumber.map(percentEncoded), fc.constantFrom('%ff', '%', '%E0%A4%A', '1%00'));
  }
  if (input.source === 'query' && !isRequired(input))
    return fc.tuple(fc.constant('a'), fc.constant('b')).map((pair) => pair as Json);
  return null;
}

function schemaInvalidRequest(operation: RestOperation): fc.Arbitrary<RestCase> | null {
  const inputs = settableInputs(operation);
  const candidates = inputs
    .map((input) => ({
      input,
      bad:
        input.source === 'body'
          ? (schemaInvalid(input) as fc.Arbitrary<Fuzzed<MaybeAbsent>>)
          : wrongInUrl(input)?.map((value) => ({ value: value as MaybeAbsent, bad: [input.name] })),
    }))
    .filter((each): each is { input: RestInput; bad: fc.Arbitrary<Fuzzed<MaybeAbsent>> } => each.bad !== undefined);
  if (candidates.length === 0) return null;
  // Keys the route does not read are carried along as noise: the facade passes on only what it names.
  const noise = fc.dictionary(unknownName, fc.oneof(fc.integer(), oddText), { maxKeys: 2 });
  return fc.tuple(fc.subarray(candidates, { minLength: 1 }), noise).chain(([chosen, extra]) =>
    fc.tuple(...chosen.map((each) => each.bad)).map((bads) => {
      const values = new Map<RestInput, MaybeAbsent>();
      for (const input of inputs)
        if (isRequired(input) && input.source === 'body') values.set(input, typeValid(input.type, input.name));
      const bad: string[] = [];
      chosen.forEach((each, index) => {
        values.set(each.input, bads[index]!.value);
        bad.push(...bads[index]!.bad);
      });
      return restRequest(operation, values, bad, extra as Record<string, Json>);
    }),
  );
}

function ruleInvalidRequest(operation: RestOperation): fc.Arbitrary<RestCase> | null {
  const reading = operation.kind === 'query';
  const inputs = settableInputs(operation);
  const candidates = inputs
    .map((input) => ({
      input,
      invalid:
        input.source === 'body'
          ? ruleInvalid(input, reading)
          : // A URL carries text: shorter, so a long one stays under the server's header limit.
            getNullableType(input.type) === GraphQLInt
            ? ruleInvalid(input, reading)?.map(String)
            : overLongText(300, 600),
    }))
    .filter((each): each is { input: RestInput; invalid: fc.Arbitrary<Json> } => each.invalid != null);
  if (candidates.length === 0) return null;
  // One field at a time: several long texts together would pass the 16 KB body limit, which names none.
  return fc.constantFrom(...candidates).chain((chosen) =>
    chosen.invalid.map((value) => {
      const values = new Map<RestInput, MaybeAbsent>();
      for (const input of inputs)
        if (isRequired(input) && input.source === 'body') values.set(input, typeValid(input.type, input.name));
      values.set(
        chosen.input,
        chosen.input.source === 'query' && typeof value === 'string' ? percentEncoded(value) : value,
      );
      return {
        ...restRequest(operation, values, [chosen.input.name]),
        alsoBad: inputs.map((input) => input.name).filter((name) => name !== chosen.input.name),
        badId: isIdInput(chosen.input),
      };
    }),
  );
}

/** Bodies that are not a JSON object: broken JSON, or JSON of another shape. */
function badBody(operation: RestOperation): fc.Arbitrary<RestCase> {
  const malformed = fc.constantFrom(
    '{"email": ',
    "{'a': 1}",
    '[1,',
    'nul',
    '\u0000',
    '{"a":1}}',
    '{"a":NaN}',
    '\ufeff{}x',
    '{"a":"\\x"}',
    '{,}',
  );
  const notAnObject = fc.oneof(
    fc.constant('[]'),
    fc.constant('[{"a":1}]'),
    fc.constant('"text"'),
    fc.constant('42'),
    fc.constant('null'),
    fc.constant('true'),
  );
  // A DELETE reads no body: broken JSON is refused before it runs, but any well-formed one is simply ignored.
  const bodies = routeTakesBody(operation) ? fc.oneof(malformed, notAnObject) : malformed;
  return bodies.map((rawBody) => ({
    method: operation.route.method,
    url: operation.route.path.replace(/:(\w+)/g, '5a1d0f4e-0000-4000-8000-000000000000'),
    rawBody,
    bad: [],
    shapeOnly: true,
  }));
}

/** Query strings a route does not read, odd ones included: a read without inputs ignores them and still answers. */
const unreadQuery = fc
  .array(
    fc.tuple(fc.oneof(unknownName, oddText), fc.oneof(oddText, fc.constantFrom('%ff', '%', '%E0%A4%A', '[]', '{}'))),
    { minLength: 1, maxLength: 3 },
  )
  .map((pairs) =>
    pairs
      .map(([name, value]) => `${percentEncoded(name)}=${/^%|^\[|^\{/.test(value) ? value : percentEncoded(value)}`)
      .join('&'),
  );

async function callRest(call: RestCase): Promise<ApiResponse<Record<string, unknown>>> {
  return member.client.request<Record<string, unknown>>(call.method, call.url, {
    ...(call.json !== undefined ? { json: call.json } : {}),
    ...(call.rawBody !== undefined ? { rawBody: call.rawBody } : {}),
  });
}

function expectRestRefusal(call: RestCase, response: ApiResponse<Record<string, unknown>>, schemaLevel: boolean): void {
  const seen = brief({ case: call, status: response.status, body: response.body });
  check(response.status >= 400 && response.status < 500, 'a 4xx', seen);
  const message = response.body?.message;
  check(typeof message === 'string' && message.length > 0, 'a message', seen);
  if (call.shapeOnly) {
    check(/json/i.test(String(message)), 'a message about JSON', seen);
    return;
  }
  const refusedBeforeInput =
    !schemaLevel &&
    (isAdminRefusal(response.status, message) || (call.badId === true && [403, 404].includes(response.status)));
  const named = refusedBeforeInput || namesOneOf(response.body, [...call.bad, ...(call.alsoBad ?? [])]);
  check(named, `an answer naming ${call.bad.join(' or ')}`, seen);
}

describe('every REST route refuses bad input with a 4xx naming the field, and stores nothing', () => {
  const nothingChanged = snapshotBeforeBlock();

  it.each(routes.map((operation) => [`${operation.route.method} ${operation.route.path}`, operation] as const))(
    '%s',
    async (_name, operation) => {
      // Bodies and unread query strings vary little (the route's inputs do not shape them): fewer runs.
      const kinds: Array<[fc.Arbitrary<RestCase> | null, boolean, number]> = [
        [schemaInvalidRequest(operation), true, numRuns],
        [ruleInvalidRequest(operation), false, numRuns],
        [operation.route.method === 'GET' ? null : badBody(operation), true, Math.ceil(numRuns / 2)],
      ];
      for (const [cases, schemaLevel, runs] of kinds) {
        if (!cases) continue;
        await fc.assert(
          fc.asyncProperty(cases, async (call) => expectRestRefusal(call, await callRest(call), schemaLevel)),
          { ...fuzzOptions(), numRuns: runs },
        );
      }
      if (operation.route.method === 'GET' && settableInputs(operation).length === 0) {
        await fc.assert(
          fc.asyncProperty(unreadQuery, async (query) => {
            const response = await callRest({ method: 'GET', url: `${operation.route.path}?${query}`, bad: [] });
            const seen = brief({ query, status: response.status, body: response.body });
            check(response.status < 500, 'no 5xx', seen);
          }),
          { ...fuzzOptions(), numRuns: Math.ceil(numRuns / 4) },
        );
      }
    },
  );

  it('stored nothing, and the member sees what they saw before', () => nothingChanged());
});
