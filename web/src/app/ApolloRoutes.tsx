/**
 * Everything that needs Apollo Client, in its own bundle: the client (with the access-expiry handling),
 * its provider, and the session-driven routes. The public pages never load it (app/AppRoutes.tsx). The
 * client's cache starts with the session probe's answer, so `useSession()` does not ask again.
 */
import { ApolloProvider } from '@apollo/client/react';
import { createAccessExpiryHandler } from '../gating/accessExpiry';
import { sessionProbeResult } from '../gating/sessionProbeClient';
import { createApolloClient } from '../graphql/client';
import { MeDocument } from '../graphql/operations.generated';
import { router } from './router';
import { SessionRoutes } from './SessionRoutes';

const client = createApolloClient({
  onAccessDenied: createAccessExpiryHandler({ navigate: (path) => router.navigate(path) }),
});

const probe = sessionProbeResult();
if (probe.status === 'done' && probe.data) {
  try {
    client.writeQuery({ query: MeDocument, data: probe.data });
  } catch {
    // An answer that does not fit the cache: useSession() simply asks again.
  }
}

export default function ApolloRoutes() {
  return (
    <ApolloProvider client={client}>
      <SessionRoutes />
    </ApolloProvider>
  );
}
