import { GraphQLError } from 'graphql';
import { correlationHeader, subgraphSecretHeader } from './auth';

/**
 * One GraphQL call from a service to another subgraph while a request runs, on the caller's behalf (their
 * bearer token) and with the subgraph secret the gateway sends. The other service's own errors (FORBIDDEN,
 * NOT_FOUND, BAD_USER_INPUT…) come back as the same errors; no answer in time is SERVICE_UNAVAILABLE.
 */
export async function askSubgraph<T>(
  target: { url: string; secret?: string; sessionToken: string; correlationId?: string; timeoutMs?: number },
  query: string,
  variables: Record<string, unknown>,
  what: string,
): Promise<T> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${target.sessionToken}`,
  };
  if (target.secret) headers[subgraphSecretHeader] = target.secret;
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
