/**
 * A person's data key as Haven's services reach it (the user service's `personDataKey`, over the service
 * credential), for tests that read storage raw and check what is sealed under it.
 */
import { openForPerson, personKeyring, personKeysFromUserService, type PersonKeyring } from '@haven/platform';
import { withPersonalFieldsOpened, type DecodedEvent, type EventType } from '@haven/proto';
import type { DayTally } from '../../services/notification/src/domain/weekly-summary';
import { openDays, type StoredDays } from '../../services/notification/src/model/weekly-check-ins';
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

/** A keyring that reaches people's keys as Haven's services do: for opening what a test reads raw. */
export function testKeyring(haven: Pick<TestHaven, 'services'>): PersonKeyring {
  return personKeyring((userId) => personKeyOf(haven, userId), { ttlMs: 0 });
}

/** An event read raw from Kafka with its person's sealed fields (moods, ratings, address) opened. */
export async function openedEvent<T extends EventType>(
  haven: Pick<TestHaven, 'services'>,
  event: DecodedEvent<T>,
): Promise<DecodedEvent<T>> {
  const keyring = testKeyring(haven);
  const opened = await withPersonalFieldsOpened(event, (subject, sealed) => keyring.open(subject, sealed));
  if (!opened) throw new Error(`the ${event.type} event does not open with its person's key`);
  return opened;
}

/**
 * The days of a person's weekly-summary tally in the notification service, opened with their key (the days are
 * stored sealed); null while there is no tally.
 */
export async function weeklyTallyDays(haven: TestHaven, userId: string): Promise<DayTally[] | null> {
  const tally = await (await haven.collection('notification', 'weekly_check_ins')).findOne({ _id: userId as never });
  if (!tally) return null;
  const days = await openDays(testKeyring(haven), userId, tally.days as StoredDays);
  if (!days) throw new Error(`the weekly tally of ${userId} does not open with their key`);
  return days;
}
