/**
 * A deletion while a service is down: the notification service is stopped when the user deletes their
 * account. The account closes at once all the same; compliance shows the deletion as pending for that
 * service (the others confirmed) until it comes back, reads the request Kafka kept for it, erases and
 * confirms; then the deletion completes and nothing of the person is left anywhere.
 */
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import {
  deletionProgress,
  fullyUsedAccount,
  needlesOf,
  tracesOf,
  type DeletionProgress,
  type UsedAccount,
} from '../../../tools/testing/erasure';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
  await Promise.all(Object.values(haven.services).map((service) => service.eventsReady));
});

afterAll(async () => {
  await haven?.stop();
});

const progressOf = (requestId: string) => deletionProgress(haven, requestId);

const erasedServices = (progress: DeletionProgress) =>
  progress.services
    .filter((each) => each.erased)
    .map((each) => each.service)
    .sort();

it('stays pending for the stopped service until it returns, then completes', async () => {
  const account: UsedAccount = await fullyUsedAccount(haven, 'pending');
  await haven.stopService('notification');

  const answer = await account.client.request<{ requestId: string; status: string }>(
    'DELETE',
    '/api/user/delete-account',
  );
  expect(answer.status).toBe(200);
  expect((await account.client.get('/api/user')).status).toBe(401);
  const { requestId } = answer.body;

  await eventuallyExpect('every running service confirming', async () => {
    expect(erasedServices(await progressOf(requestId))).toEqual(['billing', 'compliance', 'quote', 'user']);
  });
  const whileDown = await progressOf(requestId);
  expect(whileDown.status).toBe('pending');
  expect(whileDown.services.find((each) => each.service === 'notification')).toEqual({
    service: 'notification',
    erased: false,
  });
  // What the stopped service holds is still there: the saga is honest about what is not done.
  expect(await (await haven.collection('notification', 'known_users')).findOne({ _id: account.userId })).not.toBeNull();

  await haven.startService('notification');
  await eventually('the deletion completed once the notification service returned', async () => {
    const progress = await progressOf(requestId);
    return progress.status === 'completed' && erasedServices(progress).length === 5;
  });
  expect(await tracesOf(haven, needlesOf(account))).toEqual([]);
});
