/**
 * E-mail verification through the REST facade, against the real stack: the link from the mail catcher
 * verifies once; missing, reused, expired and forged tokens change nothing; resend answers the same for
 * every address and is rate-limited. Verifying ends every session opened before it: someone who registered
 * another person's address (the admin's) keeps nothing when the owner proves the mailbox.
 */
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { mailbox } from '../../../tools/testing/infra-control';
import { watchPublishedEvents, type PublishedEvents } from '../../../tools/testing/published-events';
import { verificationEmailTo, verificationTokenIn } from '../../../tools/testing/verification';

let haven: TestHaven;
let published: PublishedEvents;
const password = 'a quiet long password';
// Low enough to reach in a test; every test here shares one client address.
const resendLimit = 12;
const adminEmail = uniqueEmail('admin');

beforeAll(async () => {
  haven = await startTestHaven({ env: { RATE_LIMIT_AUTH_MAX: String(resendLimit), ADMIN_EMAIL: adminEmail } });
  published = await watchPublishedEvents(['user']);
});

afterAll(async () => {
  await published?.stop();
  await haven?.stop();
});

const invalidLink = 'This verification link is invalid or has expired. Please ask for a new one below.';
const resentMessage =
  'If that address has an account waiting to be verified, a new verification link is on its way. Please check your inbox.';

async function signedUp(email: string): Promise<ApiClient> {
  const client = new ApiClient(haven.gatewayUrl);
  expect((await client.post('/api/auth/register', { email, password })).status).toBe(201);
  return client;
}

const verify = (token: string) =>
  new ApiClient(haven.gatewayUrl).get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);

async function storedUser(email: string) {
  return (await haven.collection('user', 'users')).findOne({ email });
}

describe('GET /api/auth/verify-email', () => {
  it('verifies the address once with the e-mailed link; the second use is refused', async () => {
    const email = uniqueEmail('verify');
    const client = await signedUp(email);
    const token = verificationTokenIn(await verificationEmailTo(email));

    // Opened where the account was made: that browser stays signed in.
    const first = await client.get(`/api/auth/verify-email?token=${token}`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ verified: true, message: 'Your email has been successfully verified!' });
    expect((await client.get('/api/user')).body).toMatchObject({ email, emailVerified: true });

    const stored = await storedUser(email);
    expect(stored?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(stored?.emailVerification).toBeNull();
    // The event went out with the change.
    await published.waitFor(stored!._id as unknown as string, 'user.email_verified');

    const second = await verify(token);
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ message: invalidLink, field: 'token' });
  });

  it('answers 400 naming the token for a missing, forged or expired token, and verifies nobody', async () => {
    const email = uniqueEmail('expired');
    await signedUp(email);
    const token = verificationTokenIn(await verificationEmailTo(email));
    await (
      await haven.collection('user', 'users')
    ).updateOne({ email }, { $set: { 'emailVerification.expiresAt': new Date(Date.now() - 1000) } });

    const missing = await new ApiClient(haven.gatewayUrl).get('/api/auth/verify-email');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ message: 'Invalid verification link', field: 'token' });

    for (const bad of [token, `${token}x`, 'not-a-token', 'x'.repeat(500)]) {
      const response = await verify(bad);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ field: 'token' });
    }
    expect((await storedUser(email))?.emailVerifiedAt).toBeNull();
  });
});

describe('POST /api/auth/resend-verification', () => {
  it('e-mails a new link that works, and the old one no longer does', async () => {
    const email = uniqueEmail('resend');
    await signedUp(email);
    const oldToken = verificationTokenIn(await verificationEmailTo(email));

    const response = await new ApiClient(haven.gatewayUrl).post('/api/auth/resend-verification', {
      email: email.toUpperCase(),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: resentMessage });

    const newToken = verificationTokenIn(await verificationEmailTo(email, oldToken));
    expect((await verify(oldToken)).status).toBe(400);
    expect((await verify(newToken)).body).toMatchObject({ verified: true });
  });

  it('says the same for an unknown address and an already verified one, and changes nothing', async () => {
    const verifiedEmail = uniqueEmail('done');
    await signedUp(verifiedEmail);
    await (
      await haven.collection('user', 'users')
    ).updateOne({ email: verifiedEmail }, { $set: { emailVerifiedAt: new Date(), emailVerification: null } });

    for (const email of [uniqueEmail('nobody'), verifiedEmail]) {
      const response = await new ApiClient(haven.gatewayUrl).post('/api/auth/resend-verification', { email });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: resentMessage });
    }
    expect((await storedUser(verifiedEmail))?.emailVerification).toBeNull();
    expect(await (await haven.collection('user', 'users')).countDocuments({ email: /^nobody\./ })).toBe(0);
  });

  it('answers 400 naming the e-mail for a missing or malformed address', async () => {
    const missing = await new ApiClient(haven.gatewayUrl).post('/api/auth/resend-verification', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ field: 'email', message: 'Email is required' });

    const malformed = await new ApiClient(haven.gatewayUrl).post('/api/auth/resend-verification', {
      email: 'not an address',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ field: 'email' });
  });

  it(`refuses more than ${resendLimit} resends a minute from one client with 429`, async () => {
    const client = new ApiClient(haven.gatewayUrl);
    let refused: Awaited<ReturnType<typeof client.post>> | undefined;
    // Twice the limit: a window that turns over during the loop starts counting again.
    for (let attempt = 0; attempt <= 2 * resendLimit && !refused; attempt++) {
      const response = await client.post('/api/auth/resend-verification', { email: uniqueEmail('limit') });
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('verifying an address ends every session opened before it', () => {
  const role = async (client: ApiClient) =>
    (await client.graphql<{ me: { role: string; isAdmin: boolean } | null }>('{ me { role isAdmin } }')).body.data
      ?.me ?? null;
  const resetTokenFor = async (email: string) => {
    const mail = await mailbox().waitForEmail(
      (each) => each.to.some((to) => to.address === email) && /^Reset your Haven password$/.test(each.subject),
      { to: email, what: `the reset e-mail to ${email}` },
    );
    return new URL(/https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail.text ?? '')![0]).searchParams.get('token');
  };

  it('someone who registered the admin’s address is signed out when the owner verifies it, and never is the admin', async () => {
    // The attacker registers the admin's address with a password of their own and is signed in at once.
    const attacker = await signedUp(adminEmail);
    expect(await role(attacker)).toEqual({ role: 'MEMBER', isAdmin: false });
    expect((await attacker.get('/api/admin/users')).status).toBe(403);

    // The owner of the mailbox opens the link the sign-up sent them, in their own browser.
    const owner = new ApiClient(haven.gatewayUrl);
    const verified = await owner.get(
      `/api/auth/verify-email?token=${verificationTokenIn(await verificationEmailTo(adminEmail))}`,
    );
    expect(verified.status).toBe(200);
    // The link proves the mailbox, not the password: the owner's browser is not signed in by it.
    expect((await owner.get('/api/user')).status).toBe(401);

    // The attacker's session ended with the verification, at once.
    expect((await attacker.get('/api/user')).status).toBe(401);
    expect(await role(attacker)).toBeNull();
    expect((await attacker.get('/api/admin/users')).status).toBe(401);
    // Signing in again with the password they chose opens no admin's session either.
    const again = new ApiClient(haven.gatewayUrl);
    expect((await again.post('/api/auth/login', { email: adminEmail, password })).status).toBe(200);
    expect(await role(again)).toEqual({ role: 'MEMBER', isAdmin: false });
    expect((await again.get('/api/admin/users')).status).toBe(403);

    // The owner sets their own password from the mailbox: every session ends, the attacker's password is gone.
    expect((await owner.post('/api/auth/forgot-password', { email: adminEmail })).status).toBe(200);
    const reset = await owner.post('/api/auth/reset-password', {
      token: await resetTokenFor(adminEmail),
      newPassword: 'the owner’s own password',
    });
    expect(reset.status).toBe(200);
    expect((await again.get('/api/user')).status).toBe(401);
    expect(
      (await new ApiClient(haven.gatewayUrl).post('/api/auth/login', { email: adminEmail, password })).status,
    ).toBe(401);

    // The owner signs in and is the admin.
    expect(
      (await owner.post('/api/auth/login', { email: adminEmail, password: 'the owner’s own password' })).status,
    ).toBe(200);
    expect(await role(owner)).toEqual({ role: 'ADMIN', isAdmin: true });
    expect((await owner.get('/api/admin/users')).status).toBe(200);
  });

  it('keeps the browser that registered and opens the link signed in with a fresh session, and ends the others', async () => {
    const email = uniqueEmail('fresh');
    const laptop = await signedUp(email);
    const before = laptop.cookieValue('haven_session');
    const phone = new ApiClient(haven.gatewayUrl);
    expect((await phone.post('/api/auth/login', { email, password })).status).toBe(200);

    const token = verificationTokenIn(await verificationEmailTo(email));
    expect((await laptop.get(`/api/auth/verify-email?token=${token}`)).status).toBe(200);
    expect(laptop.cookieValue('haven_session')).not.toBe(before);
    expect((await laptop.get('/api/user')).body).toMatchObject({ email, emailVerified: true });
    // The session opened before the address was proven, elsewhere, ended; so did this browser's old one.
    expect((await phone.get('/api/user')).status).toBe(401);
    const stale = await fetch(`${haven.gatewayUrl}/api/user`, { headers: { cookie: `haven_session=${before}` } });
    expect(stale.status).toBe(401);
    const sessions = await (
      await haven.collection('user', 'sessions')
    ).countDocuments({
      userId: (await storedUser(email))?._id,
    });
    expect(sessions).toBe(1);
  });
});
