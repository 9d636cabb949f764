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
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
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
import type { Collection, Connection } from 'mongoose';
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
 * Root fields marked `@rateLimit` in a schema (a subgraph's own, or the composed supergraph):
 * the rate-limited operations are declared next to the schema, not kept in a list.
 */
export function rateLimitedFields(schema: DocumentNode): Set<string> {
  const fields = new Set<string>();
  for (const definition of schema.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    if (definition.name.value !== 'Mutation' && definition.name.value !== 'Query') continue;
    for (const field of definition.fields ?? []) {
      if (field.directives?.some((directive) => directive.name.value === 'rateLimit')) fields.add(field.name.value);
    }
  }
  return fields;
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
 * How many times each root field runs in an operation, as the executor will see it: inline
 * fragments and named spreads flattened, each alias counted (one alias repeated runs once),
 * @skip / @include applied with the request's variables.
 */
export function rootFieldCounts(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
): Map<string, number> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const responseKeys = new Map<string, Set<string>>();
  const visited = new Set<string>();
  const collect = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (!included(selection.directives, variables)) continue;
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const keys = responseKeys.get(name) ?? new Set<string>();
        keys.add(selection.alias?.value ?? name);
        responseKeys.set(name, keys);
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
  return new Map([...responseKeys].map(([name, keys]) => [name, keys.size]));
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

export interface RateLimitOptions extends RateLimit {
  fields: Set<string>;
  store: RateLimitStore;
}

/**
 * Counts the rate-limited fields of an operation against the client's logs (one per field, keyed
 * `${field}:${client}`); returns the seconds to wait when any is over its limit, else null. A refused
 * attempt uses no budget (see rate-window.ts). The fields are decided one by one, so when one is
 * refused the others' accepted attempts stay counted: the request costs its client more, never less.
 */
export async function checkRateLimit(
  options: RateLimitOptions,
  client: string,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
): Promise<number | null> {
  const limit = { max: options.max, windowMs: options.windowMs };
  let wait: number | null = null;
  for (const [field, cost] of rootFieldCounts(document, operation, variables)) {
    if (!options.fields.has(field)) continue;
    const decision = await options.store.hit(`${field}:${client}`, cost, limit);
    if (!decision.allowed) {
      wait = Math.max(wait ?? 0, Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
    }
  }
  return wait;
}

interface LogDocument {
  _id: string;
  /** Times (ms) of the accepted attempts, newest first, at most `max` of them. */
  hits: number[];
  /** The newest hit plus the window: past it the whole log is out of the window (TTL clean-up only). */
  expiresAt: Date;
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
 * `expiresAt` feeds a TTL index that deletes dead logs on MongoDB; the embedded server ignores TTL, and
 * nothing depends on it, since old hits are ignored by the filter and cut by `$slice`. Times are each
 * replica's clock; a replica running ahead only makes its hits count a little longer.
 */
export class MongoRateLimitStore implements RateLimitStore {
  private readonly logs: Collection<LogDocument>;
  private indexed: Promise<unknown> | null = null;

  constructor(
    connection: Connection,
    private readonly clock: () => number = Date.now,
  ) {
    // A new name: the fixed-window counters before it (`rate_limit_windows`) have another shape.
    this.logs = connection.collection<LogDocument>('rate_limit_logs');
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

/** Refuses an operation whose rate-limited fields are over their limit for this client (429, Retry-After). */
export function rateLimitPlugin<Context extends BaseContext>(
  options: RateLimitOptions,
  clientOf: (context: Context) => string,
): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, request, contextValue }) {
          if (!operation) return;
          let retryAfter: number | null;
          try {
            retryAfter = await checkRateLimit(options, clientOf(contextValue), document, operation, request.variables);
          } catch (error) {
            // Without its counters the limit cannot be kept: refuse (fail closed) rather than let guesses through.
            if (isDatabaseUnavailable(error)) throw serviceUnavailable(databaseUnavailableMessage);
            throw error;
          }
          if (retryAfter === null) return;
          const error = tooManyRequests(`Too many attempts. Please try again in ${retryAfter} seconds.`, retryAfter);
          error.extensions.http = { status: 429, headers: new Map([['retry-after', String(retryAfter)]]) };
          throw error;
        },
      };
    },
  };
}
