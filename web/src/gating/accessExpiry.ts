/**
 * Subscription expiry: any reply that says the user's access ended
 * shows a destructive notice for 5 s, clears cached data, ends the server session (else /auth would send
 * the still-signed-in user straight back, a loop), and after 2 s goes to /auth. Signing in again lands a
 * lapsed user on /subscription (needsSetup).
 */
import type { ApolloClient } from '@apollo/client';
import { ACCESS_EXPIRED_REDIRECT_MS, ACCESS_EXPIRED_TOAST_MS } from '../constants';
import { accessDeniedNotice, type AccessDenial } from '../graphql/errors';
import { EndSessionDocument, MeDocument } from '../graphql/operations.generated';
import { toast } from '../ui/toastStore';

export interface AccessExpiryDeps {
  navigate: (path: string) => unknown;
}

export function createAccessExpiryHandler({ navigate }: AccessExpiryDeps) {
  // Several queries may fail at once; handle the first and ignore the rest until redirected.
  let inProgress = false;

  return (denial: AccessDenial, client: ApolloClient) => {
    if (inProgress) return;
    inProgress = true;

    const notice = accessDeniedNotice(denial);
    toast({ ...notice, variant: 'destructive', duration: ACCESS_EXPIRED_TOAST_MS });
    // Cleared first, then the session ends on the server; the redirect waits for neither.
    void client
      .clearStore()
      .then(() => client.mutate({ mutation: EndSessionDocument }))
      .catch(() => undefined);

    globalThis.setTimeout(() => {
      void Promise.resolve(navigate('/auth')).finally(() => {
        inProgress = false;
        // The session itself is asked again: /auth then shows the form or moves on.
        void client.refetchQueries({ include: [MeDocument] }).catch(() => undefined);
      });
    }, ACCESS_EXPIRED_REDIRECT_MS);
  };
}
