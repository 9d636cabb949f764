import { askSubgraph, unauthenticated, type CallerSecrets } from '@haven/platform';
import { CallerProfileDocument } from '../operations/user.generated';

/**
 * The caller's address and first name, asked of the user service with their own token when a payment setup
 * starts (the provider's customer, and the e-mails billing's events trigger).
 */
export function profileFromUserService(config: { USER_SERVICE_URL: string } & CallerSecrets) {
  return async (sessionToken: string): Promise<{ email: string; firstName: string }> => {
    const data = await askSubgraph(
      { url: config.USER_SERVICE_URL, credentials: config, sessionToken },
      CallerProfileDocument,
      {},
      'user service',
    );
    // The session ended between billing's own check and this call.
    if (!data.me) throw unauthenticated();
    return { email: data.me.email, firstName: data.me.firstName ?? '' };
  };
}
