/**
 * Limits on what one GraphQL request may ask for, shared by the gateway and every subgraph, so a
 * subgraph reached directly is held to the same rules as the gateway.
 */
import {
  GraphQLError,
  Kind,
  Lexer,
  parse,
  Source,
  TokenKind,
  type ASTVisitor,
  type DefinitionNode,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  valueFromASTUntyped,
} from 'graphql';
import {
  ApolloServer,
  HeaderMap,
  type ApolloServerOptions,
  type ApolloServerPlugin,
  type BaseContext,
  type ContextThunk,
  type HTTPGraphQLRequest,
  type HTTPGraphQLResponse,
} from '@apollo/server';
import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Collection, Connection } from 'mongoose';
import { canonicalEmail } from './email';
import { databaseUnavailableMessage, isDatabaseUnavailable, serviceUnavailable, tooManyRequests } from './errors';
import { isDuplicateKeyError } from './mongo';
import { decideSlidingWindow } from './rate-window';

/** What one GraphQL endpoint accepts in a query. */
export interface OperationBounds {
  /** Lexical tokens in the whole document (a name, a brace, a string are one each). */
  tokens: number;
  /** Deepest nesting of fields. */
  depth: number;
  /** Fields selected, fragments counted each time they are spread. */
  fields: number;
  /** Aliased fields, counted likewise. */
  aliases: number;
  /** Directives used, counted likewise. */
  directives: number;
  /** Fields selected at one response path (the same name at the same place, fragments merged in). */
  repeats: number;
}

/**
 * Haven's bounds, far above what its own clients send (gateway/test/operation-bounds.test.ts holds each
 * of them to these): the largest operation, the REST facade's data export, has 162 tokens, depth 5 and
 * 120 fields; none has an alias or a directive, or selects one response path more than twice (Apollo
 * Client's `__typename` in a fragment and beside it). Within them, graphql-js compares at most
 * fields × repeats / 2 = 5,000 pairs of overlapping fields, and a refused query is parsed no further
 * than 15,000 tokens.
 */
export const operationBounds: OperationBounds = {
  tokens: 15_000,
  depth: 10,
  fields: 500,
  aliases: 30,
  directives: 50,
  repeats: 20,
};

/** How much one definition, or a whole document, asks for. */
export interface QuerySize {
  /** Deepest nesting of fields. */
  depth: number;
  /** Fields selected, fragments counted each time they are spread. */
  fields: number;
  /** Aliased fields, likewise. */
  aliases: number;
  /** Directives, likewise. */
  directives: number;
}

const directivesOn = (node: { readonly directives?: readonly DirectiveNode[] }) => node.directives?.length ?? 0;

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/**
 * Measures the definitions of one document. Each fragment is measured once (memoised), so spreading a
 * fragment many times costs nothing extra to measure; a spread inside its own cycle counts nothing
 * (graphql-js's NoFragmentCycles refuses such documents anyway).
 */
function definitionSizer(document: DocumentNode): (definition: DefinitionNode) => QuerySize {
  const fragments = fragmentsOf(document);
  const fragmentSizes = new Map<string, QuerySize>();
  const measuring = new Set<string>();
  const none = (): QuerySize => ({ depth: 0, fields: 0, aliases: 0, directives: 0 });
  const fragmentSize = (name: string): QuerySize => {
    const known = fragmentSizes.get(name);
    if (known) return known;
    if (measuring.has(name)) return none();
    measuring.add(name);
    const fragment = fragments.get(name);
    const size = sizeOf(fragment?.selectionSet);
    size.directives += fragment ? directivesOn(fragment) : 0;
    measuring.delete(name);
    fragmentSizes.set(name, size);
    return size;
  };
  const sizeOf = (selectionSet: SelectionSetNode | undefined): QuerySize => {
    const total = none();
    for (const selection of selectionSet?.selections ?? []) {
      let size: QuerySize;
      if (selection.kind === Kind.FIELD) {
        const inner = sizeOf(selection.selectionSet);
        size = {
          depth: 1 + inner.depth,
          fields: 1 + inner.fields,
          aliases: (selection.alias ? 1 : 0) + inner.aliases,
          directives: inner.directives,
        };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        size = sizeOf(selection.selectionSet);
      } else {
        size = fragmentSize(selection.name.value);
      }
      total.depth = Math.max(total.depth, size.depth);
      total.fields += size.fields;
      total.aliases += size.aliases;
      total.directives += size.directives + directivesOn(selection);
    }
    return total;
  };
  return (definition) => {
    if (definition.kind === Kind.FRAGMENT_DEFINITION && fragments.get(definition.name.value) === definition) {
      return fragmentSize(definition.name.value);
    }
    if (definition.kind !== Kind.OPERATION_DEFINITION && definition.kind !== Kind.FRAGMENT_DEFINITION) return none();
    const size = { ...sizeOf(definition.selectionSet) };
    size.directives += directivesOn(definition);
    for (const variable of definition.kind === Kind.OPERATION_DEFINITION
      ? (definition.variableDefinitions ?? [])
      : []) {
      size.directives += directivesOn(variable);
    }
    return size;
  };
}

/**
 * The definitions graphql-js validates one by one: every operation, and every fragment no operation
 * spreads (unused, in a cycle of its own, or a second definition of one name). Fragments an operation
 * spreads are measured inside it.
 */
function validatedRoots(document: DocumentNode): DefinitionNode[] {
  const fragments = fragmentsOf(document);
  const reached = new Set<FragmentDefinitionNode>();
  const reach = (selectionSet: SelectionSetNode | undefined) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || reached.has(fragment)) continue;
        reached.add(fragment);
        reach(fragment.selectionSet);
      } else {
        reach(selection.selectionSet);
      }
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) reach(definition.selectionSet);
  }
  return document.definitions.filter(
    (definition) =>
      definition.kind === Kind.OPERATION_DEFINITION ||
      (definition.kind === Kind.FRAGMENT_DEFINITION && !reached.has(definition)),
  );
}

/**
 * The size of a whole document: fields, aliases and directives summed over its operations and the
 * fragments no operation spreads (graphql-js validates all of them, whichever operation runs), the
 * deepest of their depths. Linear in the document: fragments are measured once.
 */
export function documentSize(document: DocumentNode): QuerySize {
  const sizeOf = definitionSizer(document);
  const total: QuerySize = { depth: 0, fields: 0, aliases: 0, directives: 0 };
  for (const root of validatedRoots(document)) {
    const size = sizeOf(root);
    total.depth = Math.max(total.depth, size.depth);
    total.fields += size.fields;
    total.aliases += size.aliases;
    total.directives += size.directives;
  }
  return total;
}

/** The response path selected most often and how many times. */
export interface Repeat {
  path: string;
  times: number;
}

interface MergedField {
  times: number;
  children: Map<string, MergedField>;
}

/**
 * The response path (e.g. `me.friends.id`) selected most often in one operation, or in one fragment no
 * operation spreads: fields of one response name at one place, whether written twice, brought in by
 * fragments or nested under fields that are themselves repeated, all merge there, and graphql-js's
 * OverlappingFieldsCanBeMerged compares every pair of them, so its work grows with the square of this
 * count. The walk expands fragments where they are spread, so it runs once `documentSize` is bounded,
 * and stops after `maxFields` fields (only fragment cycles, which graphql-js refuses, unfold further).
 */
export function mostRepeatedField(document: DocumentNode, maxFields = Infinity): Repeat {
  const fragments = fragmentsOf(document);
  let worst: Repeat = { path: '', times: 0 };
  let fields = 0;
  const merge = (
    selectionSet: SelectionSetNode | undefined,
    into: Map<string, MergedField>,
    path: string,
    spreading: Set<string>,
  ) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (fields > maxFields) return;
      if (selection.kind === Kind.FIELD) {
        fields += 1;
        const key = selection.alias?.value ?? selection.name.value;
        const merged = into.get(key) ?? { times: 0, children: new Map<string, MergedField>() };
        into.set(key, merged);
        merged.times += 1;
        const at = path ? `${path}.${key}` : key;
        if (merged.times > worst.times) worst = { path: at, times: merged.times };
        merge(selection.selectionSet, merged.children, at, spreading);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        merge(selection.selectionSet, into, path, spreading);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || spreading.has(name)) continue;
        spreading.add(name);
        merge(fragment.selectionSet, into, path, spreading);
        spreading.delete(name);
      }
    }
  };
  for (const root of validatedRoots(document)) {
    if (root.kind !== Kind.OPERATION_DEFINITION && root.kind !== Kind.FRAGMENT_DEFINITION) continue;
    merge(root.selectionSet, new Map(), '', new Set(root.kind === Kind.FRAGMENT_DEFINITION ? [root.name.value] : []));
  }
  return worst;
}

const depthProblem = (depth: number, max: number) =>
  depth > max ? `Query is nested too deeply: depth ${depth}, at most ${max} allowed` : null;
const fieldsProblem = (fields: number, max: number) =>
  fields > max ? `Query selects too many fields: ${fields}, at most ${max} allowed` : null;

/** Whether a source has more than `max` tokens, lexing at most `max + 1` of them (false when it does not lex). */
function tokensOver(source: string, max: number): boolean {
  const lexer = new Lexer(new Source(source));
  try {
    for (let count = 0; lexer.advance().kind !== TokenKind.EOF; count += 1) {
      if (count >= max) return true;
    }
  } catch {
    // a syntax error before the bound: the server reports it
  }
  return false;
}

/**
 * Why a query is refused before graphql-js validates it, or nothing: parsed with at most `bounds.tokens`
 * tokens, then measured by linear walks. A query that does not parse is left to the server, which reports
 * the syntax error as usual. Each check runs only when the ones before it passed, so no walk is longer
 * than the bounds allow.
 */
export function queryProblems(source: string, bounds: OperationBounds = operationBounds): string[] {
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: bounds.tokens, noLocation: true });
  } catch {
    return tokensOver(source, bounds.tokens) ? [`Query is too long: at most ${bounds.tokens} tokens allowed`] : [];
  }
  const size = documentSize(document);
  const problems = [
    depthProblem(size.depth, bounds.depth),
    fieldsProblem(size.fields, bounds.fields),
    size.aliases > bounds.aliases
      ? `Query uses too many aliases: ${size.aliases}, at most ${bounds.aliases} allowed`
      : null,
    size.directives > bounds.directives
      ? `Query uses too many directives: ${size.directives}, at most ${bounds.directives} allowed`
      : null,
  ].filter((problem): problem is string => problem !== null);
  if (problems.length > 0) return problems;
  const repeat = mostRepeatedField(document, bounds.fields);
  if (repeat.times > bounds.repeats) {
    return [
      `Query repeats a field too often: ${repeat.path} selected ${repeat.times} times, at most ${bounds.repeats} allowed`,
    ];
  }
  return [];
}

function limitRule(check: (size: QuerySize) => string | null) {
  return (context: ValidationContext): ASTVisitor => {
    const sizeOf = definitionSizer(context.getDocument());
    return {
      OperationDefinition(operation) {
        const problem = check(sizeOf(operation));
        if (problem) {
          context.reportError(
            new GraphQLError(problem, { nodes: [operation], extensions: { code: 'BAD_USER_INPUT' } }),
          );
        }
      },
    };
  };
}

/** Refuses operations nested deeper than `maxDepth` (fragments counted where they are spread). */
export function depthLimit(maxDepth: number) {
  return limitRule(({ depth }) => depthProblem(depth, maxDepth));
}

/** Refuses operations selecting more than `maxFields` fields in all: a cost bound that depth alone misses. */
export function fieldLimit(maxFields: number) {
  return limitRule(({ fields }) => fieldsProblem(fields, maxFields));
}

/**
 * The depth and field limits as validation rules, for documents that reach graphql-js without passing
 * `queryProblems` (an operation the server runs itself, a persisted query sent by its hash).
 */
export const operationLimits = [depthLimit(operationBounds.depth), fieldLimit(operationBounds.fields)];

/** The queries of an HTTP request: `query` of a GET's search string, or of each JSON body (a batch has several). */
function queriesOf({ method, search, body }: HTTPGraphQLRequest): string[] {
  const candidates: unknown[] =
    method === 'GET'
      ? new URLSearchParams(search).getAll('query')
      : (Array.isArray(body) ? body : [body]).map((request: unknown) =>
          typeof request === 'object' && request !== null ? (request as { query?: unknown }).query : undefined,
        );
  return candidates.filter((query): query is string => typeof query === 'string');
}

/**
 * An ApolloServer held to `operationBounds`. Every HTTP request's query is checked by `queryProblems`
 * before Apollo parses or validates it, and refused with a 400 (BAD_USER_INPUT) naming the limit:
 * Apollo runs custom validation rules in the same pass as graphql-js's own (one of them quadratic in
 * repeated fields), and a plugin hook before validation can answer only with a 500. Apollo's own parse
 * stops at the same token bound, and the depth and field rules stay for documents that skip HTTP.
 */
export class LimitedApolloServer<TContext extends BaseContext> extends ApolloServer<TContext> {
  constructor(config: ApolloServerOptions<TContext>) {
    super({
      ...config,
      parseOptions: { ...config.parseOptions, maxTokens: operationBounds.tokens },
      validationRules: [...operationLimits, ...(config.validationRules ?? [])],
    });
  }

  override async executeHTTPGraphQLRequest(request: {
    httpGraphQLRequest: HTTPGraphQLRequest;
    context: ContextThunk<TContext>;
  }): Promise<HTTPGraphQLResponse> {
    for (const query of queriesOf(request.httpGraphQLRequest)) {
      const problems = queryProblems(query);
      if (problems.length === 0) continue;
      const errors = problems.map((message) => ({ message, extensions: { code: 'BAD_USER_INPUT' } }));
      return {
        status: 400,
        headers: new HeaderMap([['content-type', 'application/json; charset=utf-8']]),
        body: { kind: 'complete', string: `${JSON.stringify({ errors })}\n` },
      };
    }
    return super.executeHTTPGraphQLRequest(request);
  }
}

/**
 * The limit classes a root field declares with `@rateLimit(class: …)`, each with its numbers in the
 * configuration (RATE_LIMIT_<CLASS>_MAX per RATE_LIMIT_<CLASS>_WINDOW_MS; sign-in's are RATE_LIMIT_AUTH_*):
 * - SIGN_IN: guessing passwords and tokens, counted per client address.
 * - MAIL: sends an e-mail; per client at the sign-in numbers, and per recipient (the address in the
 *   argument named by `recipient`, else the signed-in account) at the mail numbers.
 * - COSTLY: spends real money or work (the AI provider, the card provider); per account (signed out: per client).
 * - ORDINARY: everything else; per account (signed out: per client).
 */
export const rateLimitClasses = ['SIGN_IN', 'MAIL', 'COSTLY', 'ORDINARY'] as const;
export type RateLimitClass = (typeof rateLimitClasses)[number];

/** What one root field declares in its schema. */
export interface DeclaredRateLimit {
  class: RateLimitClass;
  /** Where the address the field mails sits in its arguments (`email`, `input.email`), when they hold it. */
  recipient?: string;
}

const stringArgument = (directive: DirectiveNode, name: string): string | undefined => {
  const value = directive.arguments?.find((argument) => argument.name.value === name)?.value;
  return value?.kind === Kind.STRING || value?.kind === Kind.ENUM ? value.value : undefined;
};

/**
 * Root fields marked `@rateLimit` in a schema (a subgraph's own, or the composed supergraph), with what
 * each declares: the limits are written next to the schema, not kept in a list. An unknown class is a
 * mistake in the schema, refused at start.
 */
export function declaredRateLimits(schema: DocumentNode): Map<string, DeclaredRateLimit> {
  const fields = new Map<string, DeclaredRateLimit>();
  for (const definition of schema.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    if (definition.name.value !== 'Mutation' && definition.name.value !== 'Query') continue;
    for (const field of definition.fields ?? []) {
      const directive = field.directives?.find((each) => each.name.value === 'rateLimit');
      if (!directive) continue;
      const declared = stringArgument(directive, 'class');
      if (!rateLimitClasses.includes(declared as RateLimitClass)) {
        throw new Error(`@rateLimit on ${field.name.value} has no known class: ${String(declared)}`);
      }
      const recipient = stringArgument(directive, 'recipient');
      fields.set(field.name.value, { class: declared as RateLimitClass, ...(recipient ? { recipient } : {}) });
    }
  }
  return fields;
}

/** The names of the root fields `declaredRateLimits` finds. */
export function rateLimitedFields(schema: DocumentNode): Set<string> {
  return new Set(declaredRateLimits(schema).keys());
}

/** Each class's numbers, from the configuration (config.ts, `rateLimitConfigShape`). */
export function rateLimitsOf(config: {
  RATE_LIMIT_AUTH_MAX: number;
  RATE_LIMIT_AUTH_WINDOW_MS: number;
  RATE_LIMIT_MAIL_MAX: number;
  RATE_LIMIT_MAIL_WINDOW_MS: number;
  RATE_LIMIT_COSTLY_MAX: number;
  RATE_LIMIT_COSTLY_WINDOW_MS: number;
  RATE_LIMIT_ORDINARY_MAX: number;
  RATE_LIMIT_ORDINARY_WINDOW_MS: number;
}): Record<RateLimitClass, RateLimit> {
  return {
    SIGN_IN: { max: config.RATE_LIMIT_AUTH_MAX, windowMs: config.RATE_LIMIT_AUTH_WINDOW_MS },
    MAIL: { max: config.RATE_LIMIT_MAIL_MAX, windowMs: config.RATE_LIMIT_MAIL_WINDOW_MS },
    COSTLY: { max: config.RATE_LIMIT_COSTLY_MAX, windowMs: config.RATE_LIMIT_COSTLY_WINDOW_MS },
    ORDINARY: { max: config.RATE_LIMIT_ORDINARY_MAX, windowMs: config.RATE_LIMIT_ORDINARY_WINDOW_MS },
  };
}

function ipv6Groups(address: string): number[] | null {
  let text = address;
  const embedded = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (embedded) {
    const [a, b, c, d] = embedded.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, embedded.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, more] = text.split('::');
  if (more !== undefined) return null;
  const groupsOf = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const start = groupsOf(head);
  const end = groupsOf(tail);
  const gap = tail === undefined ? 0 : 8 - start.length - end.length;
  const groups = [...start, ...Array<number>(Math.max(gap, 0)).fill(0), ...end];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : null;
}

/**
 * The bucket a client address counts in: an IPv4 address as it is; an IPv6 address by its /64, the
 * smallest block one home or server is given (counting each address of it would give one client
 * billions of buckets); an IPv4-mapped IPv6 address as its IPv4 address. Anything else as it is.
 */
export function clientBucket(address: string): string {
  const bare = address
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare.toLowerCase());
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

type Variables = Record<string, unknown> | undefined;

/** @skip / @include, with their condition read from the request's variables. */
function included(directives: readonly DirectiveNode[] | undefined, variables: Variables): boolean {
  for (const directive of directives ?? []) {
    const name = directive.name.value;
    if (name !== 'skip' && name !== 'include') continue;
    const condition = directive.arguments?.find((argument) => argument.name.value === 'if')?.value;
    let value: unknown = true;
    if (condition?.kind === Kind.BOOLEAN) value = condition.value;
    else if (condition?.kind === Kind.VARIABLE) value = variables?.[condition.name.value];
    if (name === 'skip' && value === true) return false;
    if (name === 'include' && value === false) return false;
  }
  return true;
}

/**
 * The root fields of an operation as the executor will run them, by field name and response key:
 * inline fragments and named spreads flattened, each alias its own entry (one alias repeated runs
 * once), @skip / @include applied with the request's variables.
 */
export function rootFieldSelections(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
): Map<string, Map<string, FieldNode>> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const selections = new Map<string, Map<string, FieldNode>>();
  const visited = new Set<string>();
  const collect = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (!included(selection.directives, variables)) continue;
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const keys = selections.get(name) ?? new Map<string, FieldNode>();
        const key = selection.alias?.value ?? name;
        if (!keys.has(key)) keys.set(key, selection);
        selections.set(name, keys);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else if (!visited.has(selection.name.value)) {
        // A fragment spread twice at the same level merges into the same response keys.
        visited.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  return selections;
}

/** How many times each root field runs in an operation (`rootFieldSelections`, counted). */
export function rootFieldCounts(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
): Map<string, number> {
  return new Map([...rootFieldSelections(document, operation, variables)].map(([name, keys]) => [name, keys.size]));
}

/** A rate limit: at most `max` accepted attempts in any interval of `windowMs` (a sliding log). */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/** What a store answers for one attempt: accepted, or refused with the time (ms) until one would be. */
export interface RateLimitDecision {
  allowed: boolean;
  retryAfterMs: number;
}

/** Keeps each key's log of accepted attempts and decides each new one (`decideSlidingWindow`'s rule). */
export interface RateLimitStore {
  hit(key: string, cost: number, limit: RateLimit): Promise<RateLimitDecision>;
}

export interface RateLimitOptions {
  /** The limited root fields and what each declares (`declaredRateLimits`). */
  fields: Map<string, DeclaredRateLimit>;
  /** Each class's numbers (`rateLimitsOf`). */
  limits: Record<RateLimitClass, RateLimit>;
  store: RateLimitStore;
  /**
   * `client`: only the per-client logs (the gateway, which knows the client and not the account or what a
   * field's arguments mean); `all`: every log the class names (the subgraph that owns the field).
   */
  scope: 'client' | 'all';
  /** Keys the hashes of accounts and recipients, so the logs keep no id or address. */
  recipientSecret?: string;
  /** Counts each refused field by its name and class (`rateLimitRefusalCounter`, metrics.ts). */
  refusals?: RateLimitRefusals;
}

/** Where refusals are counted: a field (or a REST budget's name) and its class, never who was refused. */
export interface RateLimitRefusals {
  inc(labels: { field: string; class: string }): void;
}

/** Who an attempt comes from: the client's address, and the signed-in account if any. */
export interface RateLimitSubject {
  client: string;
  account: string | null;
}

/** A refused operation: how long to wait (whole seconds), and the fields that were over their limits. */
export interface RateLimitRefusal {
  retryAfter: number;
  fields: string[];
}

/** The recipient's address at a dotted path of a field's arguments, canonical, or null. */
function recipientOf(field: FieldNode, path: string, variables: Variables): string | null {
  const [first, ...rest] = path.split('.');
  const argument = field.arguments?.find((each) => each.name.value === first);
  let value: unknown = argument ? valueFromASTUntyped(argument.value, variables) : undefined;
  for (const step of rest) {
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[step] : undefined;
  }
  if (typeof value !== 'string') return null;
  // Not an address: the resolver says so, and the per-client log still counts.
  const canonical = canonicalEmail(value);
  return canonical.ok ? canonical.address : null;
}

/** Keys the logs' hashes where no secret is configured (development without SUBGRAPH_SECRET). */
const unkeyedSecret = 'haven-rate-limit';

/** A keyed hash (HMAC-SHA256, base64url) that names an account, a recipient or an address in a log without saying it. */
export function logPseudonym(value: string, secret: string | undefined): string {
  return createHmac('sha256', secret ?? unkeyedSecret)
    .update(value)
    .digest('base64url');
}

/** The log of one field's attempts from one client: its address bucket (clientBucket), as a keyed hash. */
export function clientLogKey(field: string, bucket: string, secret: string | undefined): string {
  return `${field}:client:${logPseudonym(`client:${bucket}`, secret)}`;
}

/** The logs one run of a field counts in, each with its limit. */
function logsOf(
  name: string,
  declared: DeclaredRateLimit,
  field: FieldNode,
  subject: RateLimitSubject,
  options: RateLimitOptions,
  variables: Variables,
): Array<{ key: string; limit: RateLimit; client: boolean }> {
  // Accounts, recipients and client addresses are kept as keyed hashes: the logs name no one, and outlive no erasure.
  const hashOf = (value: string) => logPseudonym(value, options.recipientSecret);
  const client = { key: clientLogKey(name, clientBucket(subject.client), options.recipientSecret), client: true };
  const accountOrClient = subject.account
    ? { key: `${name}:account:${hashOf(`account:${subject.account}`)}`, client: false }
    : { ...client, client: false };
  switch (declared.class) {
    case 'SIGN_IN':
      return [{ ...client, limit: options.limits.SIGN_IN }];
    case 'MAIL': {
      const address = declared.recipient ? recipientOf(field, declared.recipient, variables) : null;
      const hash = address ? hashOf(address) : null;
      const recipient = hash ? { key: `${name}:recipient:${hash}`, client: false } : accountOrClient;
      return [
        { ...client, limit: options.limits.SIGN_IN },
        ...(hash || subject.account ? [{ ...recipient, limit: options.limits.MAIL }] : []),
      ];
    }
    case 'COSTLY':
      return [{ ...accountOrClient, limit: options.limits.COSTLY }];
    case 'ORDINARY':
      return [{ ...accountOrClient, limit: options.limits.ORDINARY }];
  }
}

/**
 * Counts the rate-limited fields of an operation against their logs (`logsOf`: per client, per account,
 * per recipient, as each field's class says); returns the refusal when any is over its limit, else
 * null. A refused attempt uses no budget (see rate-window.ts). The logs are decided one by one, so when
 * one is refused the others' accepted attempts stay counted: the request costs its caller more, never less.
 */
export async function checkRateLimit(
  options: RateLimitOptions,
  subject: RateLimitSubject,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
): Promise<RateLimitRefusal | null> {
  const logs = new Map<string, { field: string; cost: number; limit: RateLimit }>();
  for (const [name, selections] of rootFieldSelections(document, operation, variables)) {
    const declared = options.fields.get(name);
    if (!declared) continue;
    for (const field of selections.values()) {
      for (const { key, limit, client } of logsOf(name, declared, field, subject, options, variables)) {
        if (options.scope === 'client' && !client) continue;
        const log = logs.get(key) ?? { field: name, cost: 0, limit };
        log.cost += 1;
        logs.set(key, log);
      }
    }
  }
  let retryAfter = 0;
  const refused = new Set<string>();
  for (const [key, { field, cost, limit }] of logs) {
    const decision = await options.store.hit(key, cost, limit);
    if (decision.allowed) continue;
    retryAfter = Math.max(retryAfter, retryAfterSeconds(decision));
    refused.add(field);
  }
  for (const field of refused) options.refusals?.inc({ field, class: options.fields.get(field)!.class });
  return refused.size > 0 ? { retryAfter, fields: [...refused] } : null;
}

interface LogDocument {
  _id: string;
  /** Times (ms) of the accepted attempts, newest first, at most `max` of them. */
  hits: number[];
  /** The newest hit plus the window: past it the whole log is out of the window (TTL clean-up only). */
  expiresAt: Date;
}

/** Where the logs live. A new name: the fixed-window counters before it (`rate_limit_windows`) have another shape. */
export const rateLimitLogsCollection = 'rate_limit_logs';

/**
 * Deletes the logs whose newest hit left its window before `now`, as the TTL index does on MongoDB (the embedded
 * server ignores TTL). Each such log's hits are all out of their window, so no decision changes; a log hit again
 * meanwhile has a later `expiresAt` and stays, and a hit racing the delete makes its log again.
 */
export async function sweepRateLimitLogs(connection: Connection, now: Date = new Date()): Promise<number> {
  const logs = connection.collection<LogDocument>(rateLimitLogsCollection);
  return (await logs.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
}

/** Tries of one hit: a log that vanishes or a hit that leaves the window mid-decision sends it round again. */
const maxTries = 5;

/**
 * Rate-limit logs in MongoDB, so every replica (of the gateway, of a subgraph) decides against the same
 * log: one document per key, `{ _id: key, hits: [newest first] }`.
 *
 * Atomic with one conditional `findOneAndUpdate` per hit, the same on MongoDB 7 and the embedded server,
 * which supports every part of it, so no compare-and-set on a version field with retries is needed
 * (checked by services/platform/test/rate-limit-store.int.test.ts and, across two gateway processes,
 * gateway/test/rate-limit-shared.int.test.ts): the filter holds only while the log has room
 * for `cost` more hits in the window (its `max - cost`-th entry, counting from 0, is missing or older than
 * the window), and `$push` with `$each`, `$sort: -1` and `$slice: max` adds the hits, keeping the log
 * sorted and bounded. Two replicas racing for the last slot cannot both match: the database applies one
 * update per document at a time and re-checks the filter. No match means refused (or no log yet: it is
 * made with an upsert of `$setOnInsert`, a duplicate key meaning another replica made it first); the log
 * is then read to say how long to wait.
 *
 * `expiresAt` feeds a TTL index that deletes dead logs on MongoDB; the embedded server ignores TTL, so the
 * platform's hourly sweep deletes them too (`sweepRateLimitLogs`, platform-sweep.ts). No decision depends on
 * either, since old hits are ignored by the filter and cut by `$slice`. Times are each
 * replica's clock; a replica running ahead only makes its hits count a little longer.
 */
export class MongoRateLimitStore implements RateLimitStore {
  private readonly logs: Collection<LogDocument>;
  private indexed: Promise<unknown> | null = null;

  constructor(
    connection: Connection,
    private readonly clock: () => number = Date.now,
  ) {
    this.logs = connection.collection<LogDocument>(rateLimitLogsCollection);
  }

  async hit(key: string, cost: number, { max, windowMs }: RateLimit): Promise<RateLimitDecision> {
    // An attempt that can never fit is refused without touching the log.
    if (cost > max) {
      const { allowed, retryAfterMs } = decideSlidingWindow({ hits: [], now: this.clock(), cost, max, windowMs });
      return { allowed, retryAfterMs };
    }
    this.indexed ??= this.logs.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }).catch(() => {
      this.indexed = null; // tried again on the next hit; the decisions do not depend on it
    });
    for (let tries = 0; tries < maxTries; tries += 1) {
      const now = this.clock();
      const accepted = await this.logs.findOneAndUpdate(
        { _id: key, [`hits.${max - cost}`]: { $not: { $gt: now - windowMs } } },
        {
          $push: { hits: { $each: Array<number>(cost).fill(now), $sort: -1, $slice: max } },
          $max: { expiresAt: new Date(now + windowMs) },
        },
        { projection: { _id: 1 } },
      );
      if (accepted) return { allowed: true, retryAfterMs: 0 };
      const log = await this.logs.findOne({ _id: key });
      if (!log) {
        try {
          await this.logs.updateOne(
            { _id: key },
            { $setOnInsert: { hits: [], expiresAt: new Date(now + windowMs) } },
            { upsert: true },
          );
        } catch (error) {
          // Two first hits raced to make the log; the loser uses the winner's.
          if (!isDuplicateKeyError(error)) throw error;
        }
        continue;
      }
      const decision = decideSlidingWindow({ hits: log.hits ?? [], now: this.clock(), cost, max, windowMs });
      if (!decision.allowed) return { allowed: false, retryAfterMs: decision.retryAfterMs };
      // A hit left the window between the update and the read: try again.
    }
    // Only a log deleted and remade, or a hit leaving the window, on every try: refuse rather than guess.
    return { allowed: false, retryAfterMs: 1_000 };
  }
}

/** "45 seconds", "3 minutes": a wait in words, in whole minutes (rounded up) from two minutes on. */
export function waitInWords(seconds: number): string {
  if (seconds < 120) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** What a refused field says, given the wait in seconds; fields without one get the general message. */
export type RateLimitMessages = Record<string, (retryAfter: number) => string>;

/** Refuses an operation whose rate-limited fields are over a limit (429, Retry-After); a null subject is not counted. */
export function rateLimitPlugin<Context extends BaseContext>(
  options: RateLimitOptions,
  subjectOf: (context: Context) => RateLimitSubject | null,
  messages: RateLimitMessages = {},
): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, request, contextValue }) {
          const subject = subjectOf(contextValue);
          if (!operation || !subject) return;
          let refusal: RateLimitRefusal | null;
          try {
            refusal = await checkRateLimit(options, subject, document, operation, request.variables);
          } catch (error) {
            // Without its counters the limit cannot be kept: refuse (fail closed) rather than let guesses through.
            if (isDatabaseUnavailable(error)) throw serviceUnavailable(databaseUnavailableMessage);
            throw error;
          }
          if (refusal === null) return;
          const { retryAfter } = refusal;
          const own = refusal.fields.map((field) => messages[field]).find((message) => message !== undefined);
          const message = own ? own(retryAfter) : `Too many attempts. Please try again in ${waitInWords(retryAfter)}.`;
          const error = tooManyRequests(message, retryAfter);
          error.extensions.http = { status: 429, headers: new Map([['retry-after', String(retryAfter)]]) };
          throw error;
        },
      };
    },
  };
}

/** A refused attempt's wait in whole seconds (at least one), as `Retry-After` and the words say it. */
export function retryAfterSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
}

/**
 * The one log of an account's data exports, whichever way it is asked for (the REST downloads at the gateway,
 * `User.quoteExport` through GraphQL): each export reads everything the account holds. A keyed hash names the
 * account, so the log keeps no id.
 */
export function dataExportLogKey(userId: string, secret: string | undefined): string {
  return `data-export:account:${logPseudonym(`account:${userId}`, secret)}`;
}

/** What someone asking for their data again too soon is told. */
export function dataExportWaitMessage(retryAfterSeconds: number): string {
  return `Your data was exported a moment ago. You can export it again in ${waitInWords(retryAfterSeconds)}.`;
}

/**
 * Counts one data export of `userId` against RATE_LIMIT_EXPORT_*; over the budget it throws TOO_MANY_REQUESTS
 * with the wait in words. For the resolvers that assemble an export.
 */
export function dataExportMeter(
  store: RateLimitStore,
  limit: RateLimit,
  secret: string | undefined,
): (userId: string) => Promise<void> {
  return async (userId) => {
    const decision = await store.hit(dataExportLogKey(userId, secret), 1, limit);
    if (decision.allowed) return;
    const seconds = retryAfterSeconds(decision);
    throw tooManyRequests(dataExportWaitMessage(seconds), seconds);
  };
}
