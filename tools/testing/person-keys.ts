/**
 * A person's data key as Haven's services reach it (the user service's `personDataKey`, over the service
 * credential), for tests that read storage raw and check what is sealed under it.
 */
import { openForPerson, personKeysFromUserService } from '@haven/platform';
import { testServiceSecret, testSubgraphSecret, type TestHaven } from './haven';

export function personKeyOf(haven: Pick<TestHaven, 'services'>, userId: string): Promise<Buffer | null> {
  return personKeysFromUserService({
    USER_SERVICE_URL: haven.services.user.url,
    SERVICE_SECRET: testServiceSecret,
    SUBGRAPH_SECRET: testSubgraphSecret,
  })(userId);
}

/** The text of a value stored sealed for the person; fails the test when the person has no key any more. */
export async function openedForPerson(
  haven: Pick<TestHaven, 'services'>,
  userId: string,
  stored: string | null,
): Promise<string | null> {
  if (stored === null) return null;
  const key = await personKeyOf(haven, userId);
  if (!key) throw new Error(`no data key for ${userId}`);
  return openForPerson(key, userId, stored);
}
