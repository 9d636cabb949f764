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

/** Counts attempts per key in fixed windows; returns the count so far in the current window. */
export interface RateLimitStore {
  hit(key: string, count: number, windowMs: number): Promise<{ count: number; resetAt: number }>;
}

export interface RateLimitOptions {
  fields: Set<string>;
  max: number;
  windowMs: number;
  store: RateLimitStore;
}

/**
 * Counts the rate-limited fields of an operation against the client's buckets (one per field);
 * returns the seconds to wait when any is over its limit, else null. Every attempt counts, including
 * the refused ones, so hammering does not reopen the window.
 */
export async function checkRateLimit(
  options: RateLimitOptions,
  client: string,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
): Promise<number | null> {
  let wait: number | null = null;
  for (const [field, count] of rootFieldCounts(document, operation, variables)) {
    if (!options.fields.has(field)) continue;
    const window = await options.store.hit(`${field}:${client}`, count, options.windowMs);
    if (window.count > options.max) {
      wait = Math.max(wait ?? 0, Math.max(1, Math.ceil((window.resetAt - Date.now()) / 1000)));
    }
  }
  return wait;
}

interface WindowDocument {
  _id: string;
  count: number;
  expiresAt: Date;
}

/**
 * Rate-limit windows in MongoDB, so every replica counts against the same numbers: one document
 * per key and window, raised with an atomic `$inc`, removed by a TTL index once the window is over.
 */
export class MongoRateLimitStore implements RateLimitStore {
  private readonly windows: Collection<WindowDocument>;
  private indexed: Promise<unknown> | null = null;

  constructor(connection: Connection) {
    this.windows = connection.collection<WindowDocument>('rate_limit_windows');
  }

  async hit(key: string, count: number, windowMs: number): Promise<{ count: number; resetAt: number }> {
    this.indexed ??= this.windows.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }).catch(() => {
      this.indexed = null; // tried again on the next hit; the counts do not depend on it
    });
    const windowStart = Math.floor(Date.now() / windowMs) * windowMs;
    const resetAt = windowStart + windowMs;
    const id = `${key}@${windowStart}`;
    const raise = () =>
      this.windows.findOneAndUpdate(
        { _id: id },
        { $inc: { count }, $setOnInsert: { expiresAt: new Date(resetAt) } },
        { upsert: true, returnDocument: 'after' },
      );
    let window: WindowDocument | null;
    try {
      window = await raise();
    } catch (error) {
      // Two first hits raced to insert the window; the loser's increment goes to the winner's document.
      if (!isDuplicateKeyError(error)) throw error;
      window = await raise();
    }
    return { count: window?.count ?? count, resetAt };
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
