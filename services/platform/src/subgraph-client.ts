import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { GraphQLError, print, type DocumentNode } from 'graphql';
import { correlationHeader, serviceCredentialHeader, subgraphSecretHeader, type CallerSecrets } from './auth';

/** Where a call to another subgraph goes, and whose secrets and session go with it. */
export interface SubgraphTarget {
  url: string;
  /** The asking service's configuration, whose secrets go with the call. */
  credentials: CallerSecrets;
  /** Absent when a service asks on no one's behalf (a scheduled job); only `@internal` fields answer it. */
  sessionToken?: string;
  correlationId?: string;
  timeoutMs?: number;
}

/** Each document's text, printed once: the generated documents are constants. */
const printed = new WeakMap<DocumentNode, string>();
const textOf = (document: DocumentNode): string => {
  let text = printed.get(document);
  if (text === undefined) {
    text = print(document);
    printed.set(document, text);
  }
  return text;
};

/**
 * One GraphQL call from a service to another subgraph while a request runs, on the caller's behalf (their
 * bearer token). It carries the service credential (SERVICE_SECRET), which proves a Haven service is asking and
 * opens the operations for services only, and the subgraph secret, so a subgraph not yet given the credential
 * (a rolling deploy) still answers. The other service's own errors (FORBIDDEN, NOT_FOUND, BAD_USER_INPUT…) come
 * back as the same errors; no answer in time is SERVICE_UNAVAILABLE.
 *
 * Services pass a generated document (`<caller>/src/operations/<target>.generated.ts`, from `make codegen`), so
 * the variables and the reply are typed from the operation and the operation is checked against the schema it
 * runs on. A query string with a reply type named by hand is for tests that probe a subgraph directly.
 */
export async function askSubgraph<Result, Variables extends Record<string, unknown>>(
  target: SubgraphTarget,
  operation: TypedDocumentNode<Result, Variables>,
  variables: Variables,
  what: string,
): Promise<Result>;
export async function askSubgraph<Result>(
  target: SubgraphTarget,
  operation: string,
  variables: Record<string, unknown>,
  what: string,
): Promise<Result>;
export async function askSubgraph<T>(
  target: SubgraphTarget,
  operation: string | DocumentNode,
  variables: Record<string, unknown>,
  what: string,
): Promise<T> {
  const query = typeof operation === 'string' ? operation : textOf(operation);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.sessionToken) headers.authorization = `Bearer ${target.sessionToken}`;
  const { SUBGRAPH_SECRET, SERVICE_SECRET } = target.credentials;
  if (SERVICE_SECRET) headers[serviceCredentialHeader] = SERVICE_SECRET;
  if (SUBGRAPH_SECRET) headers[subgraphSecretHeader] = SUBGRAPH_SECRET;
  if (target.correlationId) headers[correlationHeader] = target.correlationId;
  let body: { data?: T | null; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(target.timeoutMs ?? 5_000),
    });
    body = (await response.json()) as typeof body;
  } catch (error) {
    throw new GraphQLError(`The ${what} is unavailable. Please try again shortly.`, {
      extensions: { code: 'SERVICE_UNAVAILABLE' },
      originalError: error instanceof Error ? error : undefined,
    });
  }
  const [first] = body.errors ?? [];
  if (first) {
    const code = typeof first.extensions?.code === 'string' ? first.extensions.code : 'INTERNAL_SERVER_ERROR';
    throw new GraphQLError(first.message, { extensions: { ...first.extensions, code } });
  }
  if (!body.data) {
    throw new GraphQLError(`The ${what} is unavailable. Please try again shortly.`, {
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
  }
  return body.data;
}
