/**
 * The personal safety plan against the real stack: its writer saves it whole and reads it back, a section over the
 * limit is refused by name with nothing changed, an empty plan is removed, and nobody else reads it — not another
 * member, not the admin.
 */
import { safetyPlanSectionMaxLength } from '@haven/domain';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { openedForPerson } from '../../../tools/testing/person-keys';
import { verifyByEmailLink } from '../../../tools/testing/verification';

let haven: TestHaven;
const adminEmail = uniqueEmail('plan-admin');

beforeAll(async () => {
  haven = await startTestHaven({ env: { ADMIN_EMAIL: adminEmail } });
});

afterAll(async () => {
  await haven?.stop();
});

const planFields = `warningSigns copingStrategies distractions peopleToAsk professionals saferSurroundings
  reasonsForLiving updatedAt`;

interface Plan {
  warningSigns: string;
  copingStrategies: string;
  distractions: string;
  peopleToAsk: string;
  professionals: string;
  saferSurroundings: string;
  reasonsForLiving: string;
  updatedAt: string;
}

interface GraphqlError {
  message: string;
  extensions: { code: string; field?: string };
}

async function signedUp(label: string, email = uniqueEmail(label)): Promise<{ client: ApiClient; id: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const response = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email,
    password: 'a safety plan password',
  });
  expect(response.status).toBe(201);
  return { client, id: response.body.user.id };
}

function save(client: ApiClient, input: Record<string, string>) {
  return client.graphql<{ saveSafetyPlan: { safetyPlan: Plan | null } }>(
    `mutation($input: SafetyPlanInput!) { saveSafetyPlan(input: $input) { safetyPlan { ${planFields} } } }`,
    { input },
  );
}

async function ownPlan(client: ApiClient): Promise<Plan | null> {
  const answer = await client.graphql<{ me: { safetyPlan: Plan | null } }>(`{ me { safetyPlan { ${planFields} } } }`);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.me.safetyPlan;
}

async function storedPlan(userId: string) {
  return (await haven.collection('user', 'safety_plans')).findOne({ _id: userId });
}

test('an unverified person writes a plan and finds it as they wrote it', async () => {
  const { client, id } = await signedUp('plan-writer');
  expect(await ownPlan(client)).toBeNull();

  const saved = await save(client, {
    warningSigns: '  Not answering my phone\r\nSleeping all afternoon  ',
    peopleToAsk: 'Sam — 07700 900123',
    reasonsForLiving: 'My dog, Biscuit',
  });
  expect(saved.body.errors).toBeUndefined();
  const expected = {
    warningSigns: 'Not answering my phone\nSleeping all afternoon',
    copingStrategies: '',
    distractions: '',
    peopleToAsk: 'Sam — 07700 900123',
    professionals: '',
    saferSurroundings: '',
    reasonsForLiving: 'My dog, Biscuit',
  };
  expect(saved.body.data!.saveSafetyPlan.safetyPlan).toEqual({ ...expected, updatedAt: expect.any(String) });
  expect(await ownPlan(client)).toEqual({
    ...expected,
    updatedAt: saved.body.data!.saveSafetyPlan.safetyPlan!.updatedAt,
  });
  // Each written section is stored sealed under the person's own key: unreadable in the database.
  const stored = (await storedPlan(id))!;
  expect(JSON.stringify(stored)).not.toMatch(/Biscuit|07700|Sleeping/);
  const opened = Object.fromEntries(
    await Promise.all(
      Object.keys(expected).map(async (key) => [key, await openedForPerson(haven, id, stored[key] as string)]),
    ),
  );
  expect(opened).toEqual(expected);

  // Saved whole: what is left out now reads empty.
  const replaced = await save(client, { copingStrategies: 'A hot shower, then music' });
  expect(replaced.body.data!.saveSafetyPlan.safetyPlan).toMatchObject({
    warningSigns: '',
    copingStrategies: 'A hot shower, then music',
    reasonsForLiving: '',
  });
});

test('a section over the limit is refused by its name, and the plan stays as it was', async () => {
  const { client } = await signedUp('plan-long');
  await save(client, { warningSigns: 'Skipping meals' });

  const refused = await save(client, {
    warningSigns: 'Something new',
    professionals: 'x'.repeat(safetyPlanSectionMaxLength + 1),
  });
  const [error] = refused.body.errors as GraphqlError[];
  expect(error!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'professionals' });
  expect(error!.message).toBe('“Professionals and services I can contact” must be at most 1,000 characters');
  expect(await ownPlan(client)).toMatchObject({ warningSigns: 'Skipping meals', professionals: '' });
});

test('a plan with nothing written is removed, not kept empty', async () => {
  const { client, id } = await signedUp('plan-cleared');
  await save(client, { distractions: 'The library' });
  expect(await storedPlan(id)).not.toBeNull();

  const cleared = await save(client, { distractions: '   ' });
  expect(cleared.body.errors).toBeUndefined();
  expect(cleared.body.data!.saveSafetyPlan.safetyPlan).toBeNull();
  expect(await ownPlan(client)).toBeNull();
  expect(await storedPlan(id)).toBeNull();
});

test('nobody but its writer reads it: not another member, not the admin', async () => {
  const writer = await signedUp('plan-private');
  await save(writer.client, { warningSigns: 'Cancelling plans with friends' });

  const other = await signedUp('plan-other');
  const byOther = await other.client.graphql(`{ user(id: "${writer.id}") { safetyPlan { warningSigns } } }`);
  expect((byOther.body.errors as GraphqlError[])[0]!.extensions.code).toBe('FORBIDDEN');

  const admin = await signedUp('plan-admin', adminEmail);
  await verifyByEmailLink(haven.gatewayUrl, adminEmail, admin.client);
  const byAdmin = await admin.client.graphql<{ user: { email: string; safetyPlan: Plan | null } }>(
    `{ user(id: "${writer.id}") { email safetyPlan { warningSigns } } }`,
  );
  expect(byAdmin.body.errors).toBeUndefined();
  // The admin sees the account, and no plan.
  expect(byAdmin.body.data!.user.email).toMatch(/^plan-private/);
  expect(byAdmin.body.data!.user.safetyPlan).toBeNull();
});

test('signed out, nothing is saved', async () => {
  const answer = await save(new ApiClient(haven.gatewayUrl), { warningSigns: 'Anything' });
  expect((answer.body.errors as GraphqlError[])[0]!.extensions.code).toBe('UNAUTHENTICATED');
});
