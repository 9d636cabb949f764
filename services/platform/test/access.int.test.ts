/**
 * The access policy end to end, through the gateway: the owner, another member and the admin
 * (ADMIN_EMAIL) each ask for one user's data from every subgraph that extends User.
 */
import { storeCheckInAt } from '../../../tools/testing/check-ins';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { verifyByEmailLink } from '../../../tools/testing/verification';

let haven: TestHaven;
const adminEmail = uniqueEmail('admin');
const password = 'policy in one place';

beforeAll(async () => {
  haven = await startTestHaven({ env: { ADMIN_EMAIL: adminEmail.toUpperCase() } });
});

afterAll(async () => {
  await haven?.stop();
});

async function signedUp(email: string): Promise<{ client: ApiClient; id: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const response = await client.post<{ user: { id: string } }>('/api/auth/register', { email, password });
  expect(response.status).toBe(201);
  return { client, id: response.body.user.id };
}

const userQuery = `query ($id: ID!) {
  user(id: $id) {
    email
    role
    stats { totalQuotes favoriteQuotes }
    subscriptionStatus { status }
    emailPreferences { newsletter }
  }
}`;

describe('reading a user through the graph', () => {
  let owner: { client: ApiClient; id: string };
  let ownerEmail: string;

  beforeAll(async () => {
    ownerEmail = uniqueEmail('owner');
    owner = await signedUp(ownerEmail);
    // One entry: a check-in and its quote, saved as a favourite.
    await storeCheckInAt(haven, owner.id, new Date(), 'Small steps count.', { isFavorite: true });
  });

  const ownersData = () => ({
    email: ownerEmail,
    role: 'MEMBER',
    stats: { totalQuotes: 1, favoriteQuotes: 1 },
    subscriptionStatus: { status: 'none' },
    emailPreferences: { newsletter: false },
  });

  it('gives the owner their data from every subgraph', async () => {
    const response = await owner.client.graphql(userQuery, { id: owner.id });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({ user: ownersData() });
  });

  it('refuses another member with FORBIDDEN, and nothing of the owner leaks', async () => {
    const other = await signedUp(uniqueEmail('other'));
    const response = await other.client.graphql(userQuery, { id: owner.id });
    expect(response.body.data).toEqual({ user: null });
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'You can only see your own account.',
      extensions: { code: 'FORBIDDEN', requiresAuth: false, reason: 'not_owner' },
    });
    expect(JSON.stringify(response.body)).not.toContain(ownerEmail);
  });

  it('refuses a signed-out caller as UNAUTHENTICATED', async () => {
    const response = await new ApiClient(haven.gatewayUrl).graphql(userQuery, { id: owner.id });
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'Not signed in',
      extensions: { code: 'UNAUTHENTICATED', requiresAuth: true },
    });
  });

  it('gives the admin (the configured address, whatever its case, once verified) the owner’s data from every subgraph', async () => {
    const admin = await signedUp(adminEmail);
    // Registering the address is not enough: whoever signs up with it first must not become the admin.
    const unverified = await admin.client.graphql<{ me: { role: string; isAdmin: boolean } }>(
      '{ me { role isAdmin } }',
    );
    expect(unverified.body.data?.me).toEqual({ role: 'MEMBER', isAdmin: false });
    const refused = await admin.client.graphql(userQuery, { id: owner.id });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });

    await verifyByEmailLink(haven.gatewayUrl, adminEmail, admin.client);
    const me = await admin.client.graphql<{ me: { role: string; isAdmin: boolean } }>('{ me { role isAdmin } }');
    expect(me.body.data?.me).toEqual({ role: 'ADMIN', isAdmin: true });

    const response = await admin.client.graphql(userQuery, { id: owner.id });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({ user: ownersData() });
  });
});
