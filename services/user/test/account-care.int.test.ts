/**
 * Account care against the real stack: forgot and reset password (an e-mailed single-use link, the same
 * answer for unknown addresses), change password (current one required, other sessions end), names and
 * time zone, and the security e-mail governed by `securityNotifications`.
 */
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { eventually } from '../../../tools/testing/eventually';
import { mailbox, type CaughtEmail } from '../../../tools/testing/infra-control';
import { watchPublishedEvents, type PublishedEvents } from '../../../tools/testing/published-events';
import { verificationEmailTo, verificationTokenIn } from '../../../tools/testing/verification';

let haven: TestHaven;
let published: PublishedEvents;
const password = 'the first long password';
const newPassword = 'a second long password';

beforeAll(async () => {
  haven = await startTestHaven();
  published = await watchPublishedEvents(['user']);
});

afterAll(async () => {
  await published?.stop();
  await haven?.stop();
});

const resetRequested =
  'If an account uses that address, a link to reset your password is on its way. It works once, for one hour.';

async function signedUp(email: string, extra: Record<string, unknown> = {}) {
  const client = new ApiClient(haven.gatewayUrl);
  const response = await client.post<{ user: { id: string } }>('/api/auth/register', { email, password, ...extra });
  expect(response.status).toBe(201);
  return { client, id: response.body.user.id };
}

const login = (email: string, pass: string) =>
  new ApiClient(haven.gatewayUrl).post('/api/auth/login', { email, password: pass });

function mailTo(address: string, subject: RegExp, what: string): Promise<CaughtEmail> {
  return mailbox().waitForEmail(
    (email) => email.to.some((to) => to.address === address) && subject.test(email.subject),
    { to: address, what: `${what} to ${address}` },
  );
}

function resetTokenIn(email: CaughtEmail): string {
  const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(email.text ?? '')?.[0];
  if (!link) throw new Error(`no reset link in "${email.subject}"`);
  return new URL(link).searchParams.get('token')!;
}

const users = () => haven.collection('user', 'users');

describe('forgot and reset password', () => {
  it('e-mails a single-use link; the new password signs in, the old one and old sessions do not', async () => {
    const email = uniqueEmail('forgot');
    const { client } = await signedUp(email);

    const asked = await new ApiClient(haven.gatewayUrl).post('/api/auth/forgot-password', { email });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ message: resetRequested });
    const token = resetTokenIn(await mailTo(email, /^Reset your Haven password$/, 'the reset e-mail'));
    const stored = await (await users()).findOne({ email });
    expect(JSON.stringify(stored)).not.toContain(token);

    // A too-short password changes nothing, and leaves the link usable.
    const short = await new ApiClient(haven.gatewayUrl).post('/api/auth/reset-password', {
      token,
      newPassword: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ field: 'newPassword' });
    expect((await login(email, password)).status).toBe(200);

    const reset = await new ApiClient(haven.gatewayUrl).post('/api/auth/reset-password', { token, newPassword });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({
      message: 'Your password has been reset. You can sign in with your new password now.',
    });
    expect((await login(email, newPassword)).status).toBe(200);
    expect((await login(email, password)).status).toBe(401);
    // The session from before the reset is over.
    expect((await client.get('/api/user')).status).toBe(401);

    const again = await new ApiClient(haven.gatewayUrl).post('/api/auth/reset-password', {
      token,
      newPassword: 'yet another password',
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ field: 'token' });

    // The security notice follows (on by default).
    await mailTo(email, /^Your Haven password was changed$/, 'the password-changed notice');
  });

  it('answers the same for an unknown address, and 400 for a malformed one', async () => {
    const unknown = await new ApiClient(haven.gatewayUrl).post('/api/auth/forgot-password', {
      email: uniqueEmail('nobody'),
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ message: resetRequested });
    const malformed = await new ApiClient(haven.gatewayUrl).post('/api/auth/forgot-password', { email: 'nope' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ field: 'email' });
  });

  it('refuses missing, forged and expired tokens with 400, and changes no password', async () => {
    const email = uniqueEmail('expired-reset');
    await signedUp(email);
    await new ApiClient(haven.gatewayUrl).post('/api/auth/forgot-password', { email });
    const token = resetTokenIn(await mailTo(email, /^Reset your Haven password$/, 'the reset e-mail'));
    await (await users()).updateOne({ email }, { $set: { 'passwordReset.expiresAt': new Date(Date.now() - 1000) } });

    for (const body of [{ newPassword }, { token: 'forged', newPassword }, { token, newPassword }]) {
      const response = await new ApiClient(haven.gatewayUrl).post('/api/auth/reset-password', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ field: 'token' });
    }
    expect((await login(email, password)).status).toBe(200);
  });
});

describe('change password', () => {
  it('needs the current password, keeps this session and ends the others', async () => {
    const email = uniqueEmail('change');
    const { client } = await signedUp(email);
    const elsewhere = new ApiClient(haven.gatewayUrl);
    expect((await elsewhere.post('/api/auth/login', { email, password })).status).toBe(200);

    const change = (currentPassword: string, next: string) =>
      client.graphql<{ changePassword: { message: string } }>(
        'mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { message } }',
        { input: { currentPassword, newPassword: next } },
      );
    const wrong = await change('not my password', newPassword);
    expect(wrong.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'currentPassword' });
    const short = await change(password, 'short');
    expect(short.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'newPassword' });
    expect((await login(email, password)).status).toBe(200);

    const done = await change(password, newPassword);
    expect(done.body.errors).toBeUndefined();
    expect((await client.get('/api/user')).status).toBe(200);
    expect((await elsewhere.get('/api/user')).status).toBe(401);
    expect((await login(email, newPassword)).status).toBe(200);
    expect((await login(email, password)).status).toBe(401);
  });

  it('sends no notice when the user turned security e-mails off', async () => {
    const email = uniqueEmail('quiet');
    const { client, id } = await signedUp(email);
    await (
      await haven.collection('notification', 'email_preferences')
    ).insertOne({
      _id: id,
      marketingEmails: false,
      productUpdates: true,
      securityNotifications: false,
      newsletter: false,
      updatedAt: new Date(),
    });
    const done = await client.graphql(
      'mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { message } }',
      { input: { currentPassword: password, newPassword } },
    );
    expect(done.body.errors).toBeUndefined();

    // Wait until the security consumer has handled the event, then check that nothing was sent.
    const { eventId } = await published.waitFor(id, 'user.password_changed');
    const processed = await haven.collection('notification', 'processed_events_notification_security');
    await eventually('the security consumer handled the password change', async () =>
      (await processed.findOne({ _id: eventId })) ? true : undefined,
    );
    const sent = await mailbox().listEmails({ to: email });
    expect(sent.map((mail) => mail.subject)).not.toContain('Your Haven password was changed');
  });
});

describe('names and time zone', () => {
  it('takes the time zone at registration, and refuses a name that is not one', async () => {
    const email = uniqueEmail('zone');
    const { client } = await signedUp(email, { timeZone: 'America/New_York' });
    const me = await client.graphql<{ me: { timeZone: string } }>('{ me { timeZone } }');
    expect(me.body.data?.me.timeZone).toBe('America/New_York');

    const before = await (await users()).countDocuments();
    const bad = await new ApiClient(haven.gatewayUrl).post('/api/auth/register', {
      email: uniqueEmail('badzone'),
      password,
      timeZone: 'Mars/Olympus_Mons',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'timeZone' });
    expect(await (await users()).countDocuments()).toBe(before);
  });

  it('edits names and time zone, publishing user.profile_updated only when the zone changes', async () => {
    const email = uniqueEmail('profile');
    const { client, id } = await signedUp(email);
    const update = (input: Record<string, unknown>) =>
      client.graphql<{ updateProfile: Record<string, unknown> }>(
        'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { firstName lastName timeZone } }',
        { input },
      );
    expect((await update({ firstName: ' Sam ', lastName: 'Lee' })).body.data?.updateProfile).toEqual({
      firstName: 'Sam',
      lastName: 'Lee',
      timeZone: 'UTC',
    });
    expect((await update({ timeZone: 'europe/london' })).body.data?.updateProfile).toMatchObject({
      timeZone: 'Europe/London',
    });
    // One event, for the zone: the names alone published none (an earlier one would have come first).
    await published.waitFor(id, 'user.profile_updated');
    expect(published.of(id).filter((event) => event.type === 'user.profile_updated')).toHaveLength(1);

    const bad = await update({ timeZone: '+01:00', firstName: 'x'.repeat(101) });
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    const stored = await (await users()).findOne({ email });
    expect([stored?.firstName, stored?.timeZone]).toEqual(['Sam', 'Europe/London']);

    const signedOut = await new ApiClient(haven.gatewayUrl).graphql(
      'mutation { updateProfile(input: { firstName: "Eve" }) { id } }',
    );
    expect(signedOut.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('change e-mail', () => {
  const requestChange = (client: ApiClient, input: Record<string, unknown>) =>
    client.graphql<{ requestEmailChange: { message: string } }>(
      'mutation ($input: ChangeEmailInput!) { requestEmailChange(input: $input) { message } }',
      { input },
    );

  it('changes the address only when the link sent to the new one is used, and tells the old one', async () => {
    const oldEmail = uniqueEmail('old');
    const newEmail = uniqueEmail('new');
    const { client } = await signedUp(oldEmail);

    const wrong = await requestChange(client, { newEmail, currentPassword: 'not it' });
    expect(wrong.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'currentPassword' });
    const malformed = await requestChange(client, { newEmail: 'nope', currentPassword: password });
    expect(malformed.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'newEmail' });
    const taken = await requestChange(client, { newEmail: oldEmail.toUpperCase(), currentPassword: password });
    expect(taken.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'newEmail' });

    const asked = await requestChange(client, { newEmail, currentPassword: password });
    expect(asked.body.errors).toBeUndefined();
    // Nothing changes until the link is used.
    expect((await client.get('/api/user')).body).toMatchObject({ email: oldEmail });
    expect((await login(oldEmail, password)).status).toBe(200);

    const token = verificationTokenIn(await verificationEmailTo(newEmail));
    // Opened where the change was asked: that browser stays signed in (with a fresh session).
    const used = await client.get(`/api/auth/verify-email?token=${token}`);
    expect(used.status).toBe(200);
    expect((await client.get('/api/user')).body).toMatchObject({ email: newEmail, emailVerified: true });
    expect((await login(newEmail, password)).status).toBe(200);
    expect((await login(oldEmail, password)).status).toBe(401);
    expect((await new ApiClient(haven.gatewayUrl).get(`/api/auth/verify-email?token=${token}`)).status).toBe(400);

    await mailTo(oldEmail, /^Your Haven email address was changed$/, 'the e-mail-changed notice');
  });

  it('refuses an address another account has', async () => {
    const other = uniqueEmail('other');
    await signedUp(other);
    const { client } = await signedUp(uniqueEmail('mover'));
    const taken = await requestChange(client, { newEmail: other, currentPassword: password });
    expect(taken.body.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT' });
  });
});
