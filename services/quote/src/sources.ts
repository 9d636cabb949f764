/** What the quote service asks other services while a request runs. */
import {
  entitlementOf,
  serviceUnavailable,
  subgraphSecretHeader,
  type Entitlement,
  type SessionClaims,
} from '@haven/platform';

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

/**
 * TEMPORARY (issue 10, replaced at merge by billing's entitlement projection from issue 9): the caller's
 * entitlement, asked of the billing service at request time with the caller's own token.
 */
export function entitlementFromBillingService(
  config: { BILLING_SERVICE_URL: string; SUBGRAPH_SECRET?: string },
  sessionToken: string,
) {
  return async (session: SessionClaims): Promise<Entitlement> => {
    const data = await askSubgraph<{
      _entities: Array<{ subscriptionStatus: { status: string; hasActiveSubscription: boolean } } | null>;
    }>(
      config.BILLING_SERVICE_URL,
      { sessionToken, SUBGRAPH_SECRET: config.SUBGRAPH_SECRET },
      'query ($r: [_Any!]!) { _entities(representations: $r) { ... on User { subscriptionStatus { status hasActiveSubscription } } } }',
      { r: [{ __typename: 'User', id: session.userId }] },
      'billing service',
    );
    const status = data._entities[0]?.subscriptionStatus;
    return status ? entitlementOf(status) : { granted: false, reason: 'no_subscription' };
  };
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

/** The caller's IANA time zone for every date rule; "UTC" for now, wired to User.timeZone at merge. */
export function callerTimeZone(_userId: string): string {
  return 'UTC';
}
