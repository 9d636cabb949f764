/** What the quote service asks other services while a request runs. */
import { serviceUnavailable, subgraphSecretHeader } from '@haven/platform';

interface Caller {
  sessionToken: string;
  SUBGRAPH_SECRET?: string;
}

async function askSubgraph<T>(url: string, caller: Caller, query: string, variables: object, what: string): Promise<T> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${caller.sessionToken}`,
  };
  if (caller.SUBGRAPH_SECRET) headers[subgraphSecretHeader] = caller.SUBGRAPH_SECRET;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(3_000),
    });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    const body = (await response.json()) as { data?: T };
    if (!body.data) throw new Error('answered without data');
    return body.data;
  } catch {
    throw serviceUnavailable(`The ${what} is unavailable. Please try again shortly.`);
  }
}

/** The caller's own names and address, so the notes can be scrubbed of them before an AI provider sees them. */
export async function callerIdentity(
  config: { USER_SERVICE_URL: string; SUBGRAPH_SECRET?: string },
  sessionToken: string,
): Promise<{ firstName: string | null; lastName: string | null; email: string | null }> {
  const data = await askSubgraph<{ me: { firstName: string | null; lastName: string | null; email: string } | null }>(
    config.USER_SERVICE_URL,
    { sessionToken, SUBGRAPH_SECRET: config.SUBGRAPH_SECRET },
    '{ me { firstName lastName email } }',
    {},
    'user service',
  );
  return { firstName: data.me?.firstName ?? null, lastName: data.me?.lastName ?? null, email: data.me?.email ?? null };
}
