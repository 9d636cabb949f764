/** A new account on a trial, for tests of the paid features (check-ins, quotes, progress). */
import { eventually } from './eventually';
import type { TestHaven } from './haven';
import { ApiClient, uniqueEmail } from './http';
import { startTrial } from './subscription';

/** A new account, signed in through the REST facade, on a trial: someone who may use the paid features. */
export async function subscribedUser(
  gatewayUrl: string,
  prefix: string,
  options: { timeZone?: string; country?: string } = {},
): Promise<{ client: ApiClient; userId: string }> {
  const client = new ApiClient(gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: uniqueEmail(prefix),
    password: 'checking in daily',
    ...options,
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  await startTrial(client);
  return { client, userId: registered.body.user.id };
}

/**
 * Waits until the quote service has kept the user's time zone (and chosen country) from the user service's
 * events: what a crisis reply reads to pick the person's country's lines.
 */
export async function quoteServiceKnowsPlace(
  haven: Pick<TestHaven, 'collection'>,
  userId: string,
  place: { timeZone: string; country?: string | null },
): Promise<void> {
  const places = await haven.collection('quote', 'user_time_zones');
  await eventually(`the quote service keeping ${JSON.stringify(place)} for the user`, async () => {
    const kept = await places.findOne({ _id: userId as never });
    return kept?.timeZone === place.timeZone && (place.country === undefined || kept?.country === place.country);
  });
}
