import { subgraphSecretHeader } from '@haven/platform';
import { GraphQLError } from 'graphql';

/**
 * The caller's address and first name, asked of the user service with their own token when a payment setup
 * starts (the provider's customer, and the e-mails billing's events trigger).
 */
export function profileFromUserService(config: { USER_SERVICE_URL: string; SUBGRAPH_SECRET?: string }) {
  return async (sessionToken: string): Promise<{ email: string; firstName: string }> => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      authorization: `Bearer ${sessionToken}`,
    };
    if (config.SUBGRAPH_SECRET) headers[subgraphSecretHeader] = config.SUBGRAPH_SECRET;
    try {
      const response = await fetch(config.USER_SERVICE_URL, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: '{ me { email firstName } }' }),
        signal: AbortSignal.timeout(5_000),
      });
      if (!response.ok) throw new Error(`answered ${response.status}`);
      const body = (await response.json()) as { data?: { me: { email: string; firstName: string | null } | null } };
      const me = body.data?.me;
      if (!me) throw new Error('no signed-in user');
      return { email: me.email, firstName: me.firstName ?? '' };
    } catch (error) {
      throw new GraphQLError('The user service is unavailable. Please try again shortly.', {
        extensions: { code: 'SERVICE_UNAVAILABLE' },
        originalError: error instanceof Error ? error : undefined,
      });
    }
  };
}
