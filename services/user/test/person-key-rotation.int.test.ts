/**
 * Rotating the master key that wraps every person's data key: the user service restarts with the new master key
 * listed first and the old one after it, re-wraps every data key by the new one, and from then on starts with the
 * new one alone — every person's sealed content still reads, and the old master key opens nothing any more.
 */
import {
  askSubgraph,
  openForPerson,
  unwrapPersonKey,
  type MasterKeys,
  type RunningService,
  type WrappedPersonKey,
} from '@haven/platform';
import { randomBytes } from 'node:crypto';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, testServiceSecret, testSubgraphSecret, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { personKeyOf } from '../../../tools/testing/person-keys';
import { startUserService } from '../src/main';

const oldMaster = randomBytes(32);
const newMaster = randomBytes(32);
const masterKeys = (...keys: Array<[string, Buffer]>) =>
  keys.map(([id, key]) => `${id}:${key.toString('base64')}`).join(',');

let haven: TestHaven;
let rotated: RunningService | undefined;

beforeAll(async () => {
  haven = await startTestHaven({ env: { PERSON_MASTER_KEYS: masterKeys(['before', oldMaster]) } });
});

afterAll(async () => {
  await rotated?.stop();
  await haven?.stop();
});

/** A person who wrote a safety plan (their data key is issued for it), with their session token. */
async function personWithPlan(): Promise<{ userId: string; token: string; warningSigns: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email: uniqueEmail('rotation'),
    password: 'a rotation password',
  });
  expect(registered.status).toBe(201);
  const warningSigns = `Pacing at night ${randomBytes(4).toString('hex')}`;
  const saved = await client.graphql(
    'mutation($input: SafetyPlanInput!) { saveSafetyPlan(input: $input) { safetyPlan { updatedAt } } }',
    { input: { warningSigns } },
  );
  expect(saved.body.errors).toBeUndefined();
  return { userId: registered.body.user.id, token: client.cookieValue('haven_session')!, warningSigns };
}

const storedKeyOf = async (userId: string) =>
  (await (await haven.collection('user', 'person_keys')).findOne({ _id: userId as never })) as unknown as
    (WrappedPersonKey & { _id: string }) | null;

/** The user service started again on the same database, with these master keys. */
async function userServiceWith(keys: string): Promise<RunningService> {
  await rotated?.stop();
  await haven.stopService('user');
  rotated = await startUserService({ ...haven.serviceEnv('user'), PORT: '0', PERSON_MASTER_KEYS: keys });
  return rotated;
}

test('re-wraps every person’s key by the new master key; their content reads without the old one', async () => {
  const people = [await personWithPlan(), await personWithPlan()];
  const sealedPlans = new Map<string, string>();
  for (const person of people) {
    expect(await storedKeyOf(person.userId)).toMatchObject({ masterKeyId: 'before' });
    const plan = await (await haven.collection('user', 'safety_plans')).findOne({ _id: person.userId as never });
    sealedPlans.set(person.userId, String(plan?.warningSigns));
  }
  const dataKeys = await Promise.all(people.map((person) => personKeyOf(haven, person.userId)));

  // Rotation: the new master key first, the old one after it. The service re-wraps at start.
  await userServiceWith(masterKeys(['after', newMaster], ['before', oldMaster]));
  await eventually('every person’s key re-wrapped by the new master key', async () => {
    const stored = await Promise.all(people.map((person) => storedKeyOf(person.userId)));
    return stored.every((each) => each?.masterKeyId === 'after');
  });

  // Then the new master key alone: every person's key and content still read, through the service.
  const service = await userServiceWith(masterKeys(['after', newMaster]));
  const credentials = { SERVICE_SECRET: testServiceSecret, SUBGRAPH_SECRET: testSubgraphSecret };
  for (const [index, person] of people.entries()) {
    const answered = await askSubgraph<{ personDataKey: string | null }>(
      { url: service.url, credentials },
      'query($userId: ID!) { personDataKey(userId: $userId) }',
      { userId: person.userId },
      'user service',
    );
    // The data key itself never changed, so nothing sealed under it needs sealing again.
    expect(answered.personDataKey).toBe(dataKeys[index]!.toString('base64'));
    expect(openForPerson(dataKeys[index]!, person.userId, sealedPlans.get(person.userId)!)).toBe(person.warningSigns);
    const own = await askSubgraph<{ me: { safetyPlan: { warningSigns: string } | null } }>(
      { url: service.url, credentials, sessionToken: person.token },
      '{ me { safetyPlan { warningSigns } } }',
      {},
      'user service',
    );
    expect(own.me.safetyPlan?.warningSigns).toBe(person.warningSigns);
  }

  // The old master key opens none of the stored keys any more.
  const onlyOld: MasterKeys = { current: { id: 'before', key: oldMaster }, byId: new Map([['before', oldMaster]]) };
  for (const person of people) {
    const stored = (await storedKeyOf(person.userId))!;
    expect(unwrapPersonKey(onlyOld, person.userId, stored)).toBeNull();
    expect(unwrapPersonKey(onlyOld, person.userId, { ...stored, masterKeyId: 'before' })).toBeNull();
  }
});
