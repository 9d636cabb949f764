/** What the quote service asks other services while a request runs. */
import { askSubgraph, type CallerSecrets } from '@haven/platform';
import { CallerIdentityDocument } from '../operations/user.generated';

/** The caller's own names and address, so the notes can be scrubbed of them before an AI provider sees them. */
export async function callerIdentity(
  config: { USER_SERVICE_URL: string } & CallerSecrets,
  sessionToken: string,
): Promise<{ firstName: string | null; lastName: string | null; email: string | null }> {
  const data = await askSubgraph(
    { url: config.USER_SERVICE_URL, credentials: config, sessionToken },
    CallerIdentityDocument,
    {},
    'user service',
  );
  return { firstName: data.me?.firstName ?? null, lastName: data.me?.lastName ?? null, email: data.me?.email ?? null };
}
