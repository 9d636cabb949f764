/** A new account on a trial, for tests of the paid features (check-ins, quotes, progress). */
import { ApiClient, uniqueEmail } from './http';
import { startTrial } from './subscription';

/** A new account, signed in through the REST facade, on a trial: someone who may use the paid features. */
export async function subscribedUser(
  gatewayUrl: string,
  prefix: string,
): Promise<{ client: ApiClient; userId: string }> {
  const client = new ApiClient(gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: uniqueEmail(prefix),
    password: 'checking in daily',
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  await startTrial(client);
  return { client, userId: registered.body.user.id };
}
