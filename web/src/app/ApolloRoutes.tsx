/**
 * Everything that needs Apollo Client, in its own bundle: the client (with the access-expiry handling),
 * its provider, and the session-driven routes. The public pages never load it (app/AppRoutes.tsx). The
 * client's cache starts with the session probe's answer, so `useSession()` does not ask again.
 */
import { ApolloProvider } from '@apollo/client/react';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { createAccessExpiryHandler } from '../gating/accessExpiry';
import { adoptLaterProbeAnswer, seedSessionCache } from '../gating/sessionCache';
import { isAssumedSignedOut, sessionProbeResult, subscribeSessionProbe } from '../gating/sessionProbeClient';
import { createApolloClient } from '../graphql/client';
import { preloadToasts } from '../ui/Toast';
import { TooltipProvider } from '../ui/Tooltip';
import { SessionRoutes } from './SessionRoutes';

// Signed-in pages toast often (saves, errors, an ended access): the toasts' code comes along with this bundle.
preloadToasts();

/** The router's navigate, for the error link outside React; set while the routes are mounted. */
let navigateTo: (path: string) => void = (path) => window.location.assign(path);

function RouterNavigate() {
  const navigate = useNavigate();
  useEffect(() => {
    navigateTo = (path) => void navigate(path);
  }, [navigate]);
  return null;
}

const client = createApolloClient({
  onAccessDenied: createAccessExpiryHandler({ navigate: (path) => navigateTo(path) }),
});

const probe = sessionProbeResult();
seedSessionCache(client, probe);
// Seeded with a prerendered page's assumption: the probe's answer, when it differs, replaces it.
if (isAssumedSignedOut(probe)) subscribeSessionProbe(() => adoptLaterProbeAnswer(client, sessionProbeResult()));

export default function ApolloRoutes() {
  return (
    <ApolloProvider client={client}>
      <RouterNavigate />
      {/* Tooltips are the signed-in frame's alone (app/AppShell.tsx): their provider comes with this bundle. */}
      <TooltipProvider>
        <SessionRoutes />
      </TooltipProvider>
    </ApolloProvider>
  );
}
