/**
 * Limits on what one GraphQL request may ask for, shared by the gateway and every subgraph, so a
 * subgraph reached directly is held to the same rules as the gateway.
 */
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type DirectiveNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { Collection, Connection } from 'mongoose';
import { databaseUnavailableMessage, isDatabaseUnavailable, serviceUnavailable, tooManyRequests } from './errors';
import { isDuplicateKeyError } from './mongo';
import { decideSlidingWindow } from './rate-window';

interface Size {
  /** Deepest nesting of fields. */
  depth: number;
  /** Fields selected, fragments counted each time they are spread. */
  fields: number;
}

/**
 * Measures operations of one document. Each fragment is measured once (memoised), so spreading a
 * fragment many times costs nothing extra to measure; a spread inside its own cycle counts nothing
 * (graphql-js's NoFragmentCycles refuses such documents anyway).
 */
function operationSizer(document: DocumentNode): (operation: OperationDefinitionNode) => Size {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const fragmentSizes = new Map<string, Size>();
  const measuring = new Set<string>();
  const fragmentSize = (name: string): Size => {
    const known = fragmentSizes.get(name);
    if (known) return known;
    if (measuring.has(name)) return { depth: 0, fields: 0 };
    measuring.add(name);
    const size = sizeOf(fragments.get(name)?.selectionSet);
    measuring.delete(name);
    fragmentSizes.set(name, size);
    return size;
  };
  const sizeOf = (selectionSet: SelectionSetNode | undefined): Size => {
    const total = { depth: 0, fields: 0 };
    for (const selection of selectionSet?.selections ?? []) {
      let size: Size;
      if (selection.kind === Kind.FIELD) {
        const inner = sizeOf(selection.selectionSet);
        size = { depth: 1 + inner.depth, fields: 1 + inner.fields };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        size = sizeOf(selection.selectionSet);
      } else {
        size = fragmentSize(selection.name.value);
      }
      total.depth = Math.max(total.depth, size.depth);
      total.fields += size.fields;
    }
    return total;
  };
  return (operation) => sizeOf(operation.selectionSet);
}

function limitRule(check: (size: Size) => string | null) {
  return (context: ValidationContext): ASTVisitor => {
    const sizeOf = operationSizer(context.getDocument());
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
  return limitRule(({ depth }) =>
    depth > maxDepth ? `Query is nested too deeply: depth ${depth}, at most ${maxDepth} allowed` : null,
  );
}

/** Refuses operations selecting more than `maxFields` fields in all: a cost bound that depth alone misses. */
export function fieldLimit(maxFields: number) {
  return limitRule(({ fields }) =>
    fields > maxFields ? `Query selects too many fields: ${fields}, at most ${maxFields} allowed` : null,
  );
}

/** The depth and field limits every GraphQL endpoint applies. */
export const operationLimits = [depthLimit(10), fieldLimit(500)];

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
