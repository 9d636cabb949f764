/**
 * Subscription expiry: any reply that says the user's access ended
 * shows a destructive notice for 5 s, clears cached data, and after 2 s goes to /auth.
 */
import type { ApolloClient } from '@apollo/client';
import { ACCESS_EXPIRED_REDIRECT_MS, ACCESS_EXPIRED_TOAST_MS } from '../constants';
import { accessDeniedNotice, type AccessDeniedReason } from '../graphql/errors';
import { MeDocument } from '../graphql/operations.generated';
import { toast } from '../ui/toastStore';

export interface AccessExpiryDeps {
  navigate: (path: string) => unknown;
}

export function createAccessExpiryHandler({ navigate }: AccessExpiryDeps) {
  // Several queries may fail at once; handle the first and ignore the rest until redirected.
  let inProgress = false;

  return (reason: AccessDeniedReason, client: ApolloClient) => {
    if (inProgress) return;
    inProgress = true;

    const notice = accessDeniedNotice(reason);
    toast({ ...notice, variant: 'destructive', duration: ACCESS_EXPIRED_TOAST_MS });
    void client.clearStore();

    window.setTimeout(() => {
      void Promise.resolve(navigate('/auth')).finally(() => {
        inProgress = false;
        // The session itself is asked again: /auth then shows the form or moves on.
        void client.refetchQueries({ include: [MeDocument] }).catch(() => undefined);
      });
    }, ACCESS_EXPIRED_REDIRECT_MS);
  };
}
