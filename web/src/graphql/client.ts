/**
 * The Apollo Client: one HTTP link to the gateway's /graphql on the same origin, with the
 * session cookie (`credentials: 'include'`), behind a global error link.
 *
 * Data-fetching defaults:
 * - no automatic retries: there is no RetryLink in the chain;
 * - no refetch on window focus: no RefetchEventManager, and `refetchOn: false`;
 * - no polling: `pollInterval` is never set;
 * - cached data never becomes stale: `cache-first`, nothing expires the cache.
 */
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { ErrorLink } from '@apollo/client/link/error';
import { GRAPHQL_PATH } from '../constants';
import { accessDenialOf, type AccessDenial } from './errors';

export interface CreateClientOptions {
  /** Called when any reply says the user's access ended (FORBIDDEN + requiresAuth + reason). */
  onAccessDenied: (denial: AccessDenial, client: ApolloClient) => void;
  /** Defaults to /graphql on the page's own origin. */
  uri?: string;
}

export function createApolloClient({ onAccessDenied, uri = GRAPHQL_PATH }: CreateClientOptions) {
  const errorLink = new ErrorLink(({ error }) => {
    const denial = accessDenialOf(error);
    // `client` is declared below; no operation can run through this link before it exists.
    if (denial) onAccessDenied(denial, client);
  });

  const httpLink = new HttpLink({ uri, credentials: 'include' });

  const client = new ApolloClient({
    link: ApolloLink.from([errorLink, httpLink]),
    cache: new InMemoryCache({
      typePolicies: {
        // The subscription status has no id of its own; it lives inside its User.
        SubscriptionStatus: { keyFields: false, merge: true },
      },
    }),
    defaultOptions: {
      watchQuery: { fetchPolicy: 'cache-first', refetchOn: false },
      query: { fetchPolicy: 'cache-first' },
    },
  });
  return client;
}
