/**
 * Sign-in with Google and the hosted platform, end to end: the gateway, the user service and a local
 * OpenID Connect provider (oidc-provider, its own process on a loopback port) playing both. A cookie-keeping
 * HTTP client walks each flow like a browser, one redirect at a time. Every failure is checked to have
 * created and changed nothing, in the user database itself.
 */
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { mailbox } from '../../../tools/testing/infra-control';
import {
  CookieBrowser,
  signInAtProvider,
  startTestOidcProvider,
  type ProviderAccount,
  type TestOidcProvider,
} from '../../../tools/testing/oidc-provider';
import { verificationEmailTo, verifyByEmailLink } from '../../../tools/testing/verification';

/** The public origin the services and the provider know (the harness's APP_URL). */
const appUrl = 'http://localhost:4000';
const password = 'a long enough password';

let provider: TestOidcProvider;
let haven: TestHaven;

beforeAll(async () => {
  provider = await startTestOidcProvider({ appUrl });
  haven = await startTestHaven({ env: provider.env });
});

afterAll(async () => {
  await haven?.stop();
  await provider?.stop();
});

const users = () => haven.collection('user', 'users');
const sessions = () => haven.collection('user', 'sessions');
const gateway = (path: string) => new URL(path, haven.gatewayUrl);
/** A URL on the public origin (a provider's redirect back) as the browser reaches it here: the test gateway. */
const atGateway = (url: URL) => new URL(url.pathname + url.search, haven.gatewayUrl);

/** What is stored for an address: the accounts, their linked identities, their sessions. */
async function stored(email: string) {
  const accounts = await (await users()).find({ email }).toArray();
  const ids = accounts.map((account) => account._id);
  return {
    accounts: accounts.length,
    identities: accounts.flatMap((account) => (account.identities as Array<{ key: string }> | undefined) ?? []),
    sessions: await (await sessions()).countDocuments({ userId: { $in: ids } }),
  };
}

const startPaths = { google: '/api/auth/google', platform: '/api/login' } as const;

/**
 * Presses the provider's button: Haven answers with a redirect to the provider's authorisation page. The web
 * app adds the browser's time zone to the start link.
 */
async function start(
  browser: CookieBrowser,
  which: keyof typeof startPaths = 'google',
  timeZone?: string,
): Promise<URL> {
  const url = gateway(startPaths[which]);
  if (timeZone) url.searchParams.set('timeZone', timeZone);
  const response = await browser.request(url);
  expect(response.status).toBe(302);
  expect(response.location?.origin).toBe(provider.issuer);
  return response.location!;
}

/** Start, the provider's sign-in page, and the callback URL it sends the browser to (not yet opened). */
async function callbackFor(
  browser: CookieBrowser,
  account: ProviderAccount | 'cancel',
  which: keyof typeof startPaths = 'google',
  timeZone?: string,
): Promise<URL> {
  const callback = await signInAtProvider(browser, await start(browser, which, timeZone), account);
  expect(callback.origin).toBe(appUrl);
  return callback;
}

/** The whole flow: Haven's answer at the callback (a redirect). */
async function signIn(
  browser: CookieBrowser,
  account: ProviderAccount,
  which: keyof typeof startPaths = 'google',
  timeZone?: string,
) {
  return browser.request(atGateway(await callbackFor(browser, account, which, timeZone)));
}

async function currentUser(browser: CookieBrowser) {
  const response = await browser.request(gateway('/api/user'));
  return {
    status: response.status,
    user: response.status === 200 ? (JSON.parse(response.text) as Record<string, unknown>) : null,
  };
}

const signedInHome = (response: { status: number; location: URL | null }) => {
  expect(response.status).toBe(302);
  expect(response.location?.pathname).toBe('/');
  expect(response.location?.search).toBe('');
};

const failedWith = (response: { status: number; location: URL | null }, reason: string, name = 'google') => {
  expect(response.status).toBe(302);
  expect(response.location?.pathname).toBe('/auth');
  expect(Object.fromEntries(response.location!.searchParams)).toEqual({ signin: 'failed', provider: name, reason });
};

async function registered(email: string, verified: boolean): Promise<string> {
  const client = new ApiClient(haven.gatewayUrl);
  const response = await client.post<{ user: { id: string } }>('/api/auth/register', { email, password });
  expect(response.status).toBe(201);
  // Verified where it registered: the password and the mailbox are shown to be one person's.
  if (verified) await verifyByEmailLink(haven.gatewayUrl, email, client);
  return response.body.user.id;
}

const linkedNotice = (email: string, providerName = 'Google') =>
  mailbox().waitForEmail(
    (mail) =>
      mail.to.some((to) => to.address === email) &&
      mail.subject === `${providerName} sign-in was linked to your Haven account`,
    { to: email, what: `the "sign-in method linked" notice to ${email}` },
  );

describe('a first sign-in through a provider', () => {
  it('creates a verified account from Google in the browser’s time zone, and a second sign-in reuses it', async () => {
    const email = uniqueEmail('google-first');
    const first = new CookieBrowser();
    const gail = { email, emailVerified: true, givenName: 'Gail', familyName: 'Hart' };
    const response = await signIn(first, gail, 'google', 'Europe/London');
    signedInHome(response);
    // The session cookie is set as a password sign-in sets it; the browser binding is cleared.
    expect(first.cookie(haven.gatewayUrl, 'haven_session')).toBeDefined();
    expect(first.cookie(haven.gatewayUrl, 'haven_signin')).toBeUndefined();
    const me = await currentUser(first);
    expect(me.status).toBe(200);
    expect(me.user).toMatchObject({ email, firstName: 'Gail', lastName: 'Hart', emailVerified: true });

    const account = await (await users()).findOne({ email });
    expect(account).toMatchObject({ authProvider: 'google', passwordHash: null, timeZone: 'Europe/London' });
    expect(account?.identities).toEqual([expect.objectContaining({ provider: 'google', email, emailVerified: true })]);

    // Another browser, the same Google account: the same Haven account, still one, its time zone kept.
    const second = new CookieBrowser();
    signedInHome(await signIn(second, { email, emailVerified: true }, 'google', 'America/New_York'));
    expect((await currentUser(second)).user?.id).toBe(me.user?.id);
    expect(await stored(email)).toMatchObject({ accounts: 1, identities: [expect.anything()], sessions: 2 });
    expect(await (await users()).findOne({ email })).toMatchObject({ timeZone: 'Europe/London' });

    // The account says how it signs in (the data export lists these).
    const methods = await second.request(gateway('/graphql'), {
      json: { query: '{ me { signInMethods { kind email linkedAt } } }' },
    });
    expect(JSON.parse(methods.text)).toEqual({
      data: { me: { signInMethods: [{ kind: 'GOOGLE', email, linkedAt: expect.any(String) }] } },
    });
  });

  it('creates an unverified account (in UTC when the time zone is unknown) from the hosted platform when it does not vouch for the address, and e-mails a verification link', async () => {
    const email = uniqueEmail('platform-first');
    const browser = new CookieBrowser();
    // A time zone the browser got wrong does not stop the sign-in: the account starts in UTC.
    const response = await signIn(browser, { email, emailVerified: false }, 'platform', 'Mars/Olympus_Mons');
    signedInHome(response);
    expect((await currentUser(browser)).user).toMatchObject({ email, emailVerified: false });
    expect(await (await users()).findOne({ email })).toMatchObject({ authProvider: 'oidc', timeZone: 'UTC' });
    await verificationEmailTo(email);
  });
});

describe('an address that already has an account', () => {
  it('links Google at once when Google and Haven have both verified the address, and says so by e-mail', async () => {
    const email = uniqueEmail('both-verified');
    const id = await registered(email, true);
    const browser = new CookieBrowser();
    signedInHome(await signIn(browser, { email, emailVerified: true }));
    expect((await currentUser(browser)).user?.id).toBe(id);
    const after = await stored(email);
    expect(after.accounts).toBe(1);
    expect(after.identities).toEqual([expect.objectContaining({ provider: 'google' })]);

    const notice = await linkedNotice(email);
    expect(notice.text).toContain('Google sign-in was just linked to your Haven account.');
    expect(notice.text).toContain('If it was not you, please reset your password now');
  });

  it.each([
    { case: 'Haven has not verified the address', local: false, atProvider: true },
    { case: 'the provider does not vouch for the address', local: true, atProvider: false },
  ])('asks for the account password when $case; a wrong one links nothing, the right one links once', async (row) => {
    const email = uniqueEmail('ask-password');
    const id = await registered(email, row.local);
    const before = await stored(email);
    expect(before).toMatchObject({ accounts: 1, identities: [] });
    const browser = new CookieBrowser();
    const response = await signIn(browser, { email, emailVerified: row.atProvider });
    expect(response.status).toBe(302);
    expect(response.location?.pathname).toBe('/auth');
    expect(response.location?.searchParams.get('provider')).toBe('google');
    const token = response.location?.searchParams.get('link');
    expect(token).toMatch(/^[\w-]{43}$/);
    // Not signed in, nothing linked, and only the token's hash is kept.
    expect((await currentUser(browser)).status).toBe(401);
    expect(await stored(email)).toEqual(before);
    expect(JSON.stringify(await (await users()).findOne({ email }))).not.toContain(token);

    const wrong = await browser.request(gateway('/api/auth/link-account'), {
      json: { token, password: 'not the password' },
    });
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.text)).toMatchObject({
      field: 'password',
      message: 'That password is not right. Please try again.',
    });
    expect(await stored(email)).toEqual(before);

    const right = await browser.request(gateway('/api/auth/link-account'), { json: { token, password } });
    expect(right.status).toBe(200);
    expect(JSON.parse(right.text)).toMatchObject({ user: { id, email } });
    expect((await currentUser(browser)).user?.id).toBe(id);
    expect((await stored(email)).identities).toEqual([expect.objectContaining({ provider: 'google' })]);
    await linkedNotice(email);

    // The token worked once.
    const again = await new CookieBrowser().request(gateway('/api/auth/link-account'), { json: { token, password } });
    expect(again.status).toBe(400);
    expect(JSON.parse(again.text)).toMatchObject({ field: 'token' });

    // From now on Google signs straight in.
    const later = new CookieBrowser();
    signedInHome(await signIn(later, { email, emailVerified: row.atProvider }));
    expect((await currentUser(later)).user?.id).toBe(id);
  });

  it('refuses the link token in a browser that did not start the sign-in, and it still works in the one that did', async () => {
    const email = uniqueEmail('link-elsewhere');
    const id = await registered(email, false);
    const before = await stored(email);
    const started = new CookieBrowser();
    const response = await signIn(started, { email, emailVerified: true });
    const token = response.location?.searchParams.get('link');
    expect(token).toMatch(/^[\w-]{43}$/);

    // The link someone else's Google sign-in produced, sent to the account's owner, who knows the password.
    const message =
      'This link works only in the browser where the Google sign-in started. Please sign in with Google again from this browser.';
    const elsewhere = new CookieBrowser();
    const refused = await elsewhere.request(gateway('/api/auth/link-account'), { json: { token, password } });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({ field: 'token', reason: 'other_browser', message });
    const overGraphql = await elsewhere.request(gateway('/graphql'), {
      json: {
        query: 'mutation ($input: LinkSignInMethodInput!) { linkSignInMethod(input: $input) { user { id } } }',
        variables: { input: { token, password } },
      },
    });
    expect(JSON.parse(overGraphql.text).errors[0]).toMatchObject({
      message,
      extensions: { code: 'BAD_USER_INPUT', reason: 'other_browser' },
    });
    // A binding named in a header instead of the cookie is no binding (the gateway drops x-haven-* headers).
    const spoofed = await fetch(gateway('/api/auth/link-account'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-haven-signin-binding': 'a'.repeat(43) },
      body: JSON.stringify({ token, password }),
    });
    expect(spoofed.status).toBe(400);
    expect((await currentUser(elsewhere)).status).toBe(401);
    expect(await stored(email)).toEqual(before);

    // The browser that started the sign-in links with the same token.
    const right = await started.request(gateway('/api/auth/link-account'), { json: { token, password } });
    expect(right.status).toBe(200);
    expect((await currentUser(started)).user?.id).toBe(id);
    expect((await stored(email)).identities).toEqual([expect.objectContaining({ provider: 'google' })]);
  });

  it('refuses, changing nothing, when the account has no password to confirm the link with', async () => {
    const email = uniqueEmail('no-password');
    // Created through the hosted platform (verified there, so no password), then Google without vouching.
    signedInHome(await signIn(new CookieBrowser(), { email, emailVerified: true }, 'platform'));
    const before = await stored(email);
    failedWith(await signIn(new CookieBrowser(), { email, emailVerified: false }), 'account_exists');
    expect(await stored(email)).toEqual(before);
  });

  it('lets the owner of a mailbox take the address back from a provider sign-in that never proved it', async () => {
    const email = uniqueEmail('squatted');
    // Someone signs up first through a provider that does not check addresses, with the owner's address.
    const squatter = new CookieBrowser();
    signedInHome(await signIn(squatter, { email, emailVerified: false }, 'platform'));
    // The owner resets the password from their mailbox: the unproved sign-in goes with it.
    await new ApiClient(haven.gatewayUrl).post('/api/auth/forgot-password', { email });
    const reset = await mailbox().waitForEmail(
      (mail) => mail.to.some((to) => to.address === email) && /^Reset your Haven password$/.test(mail.subject),
      { to: email, what: `the reset e-mail to ${email}` },
    );
    const token = new URL(/https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(reset.text ?? '')![0]).searchParams.get(
      'token',
    );
    const done = await new ApiClient(haven.gatewayUrl).post('/api/auth/reset-password', {
      token,
      newPassword: password,
    });
    expect(done.status).toBe(200);
    expect((await stored(email)).identities).toEqual([]);
    // The squatter's provider sign-in now needs the owner's password.
    const again = await signIn(new CookieBrowser(), { email, emailVerified: false }, 'platform');
    expect(again.location?.searchParams.get('link')).toBeTruthy();
    expect((await currentUser(squatter)).status).toBe(401);
  });

  it('answers 400 naming the field for a link request without a usable token or password', async () => {
    const client = new ApiClient(haven.gatewayUrl);
    const noToken = await client.post('/api/auth/link-account', { password });
    expect(noToken.status).toBe(400);
    expect(noToken.body).toMatchObject({ field: 'token' });
    const unknown = await client.post('/api/auth/link-account', { token: 'a'.repeat(43), password });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      field: 'token',
      message: 'This link has expired or was already used. Please sign in with your provider again.',
    });
    const noPassword = await client.post('/api/auth/link-account', { token: 'a'.repeat(43) });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body).toMatchObject({ field: 'password' });
  });
});

describe('a sign-in that must not work changes nothing', () => {
  const nothingStoredFor = async (email: string) =>
    expect(await stored(email)).toEqual({ accounts: 0, identities: [], sessions: 0 });

  it('when the person says no at the provider', async () => {
    const browser = new CookieBrowser();
    const callback = await callbackFor(browser, 'cancel');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    failedWith(await browser.request(atGateway(callback)), 'denied');
    expect(browser.cookie(haven.gatewayUrl, 'haven_session')).toBeUndefined();
  });

  it('when the state is tampered with', async () => {
    const email = uniqueEmail('tampered');
    const browser = new CookieBrowser();
    const callback = await callbackFor(browser, { email, emailVerified: true });
    callback.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    failedWith(await browser.request(atGateway(callback)), 'expired');
    await nothingStoredFor(email);
  });

  it('when the code is missing, and the state is spent by that try', async () => {
    const email = uniqueEmail('no-code');
    const browser = new CookieBrowser();
    const callback = await callbackFor(browser, { email, emailVerified: true });
    const withoutCode = new URL(callback);
    withoutCode.searchParams.delete('code');
    failedWith(await browser.request(atGateway(withoutCode)), 'failed');
    failedWith(await browser.request(atGateway(callback)), 'expired');
    await nothingStoredFor(email);
  });

  it('when a used callback is replayed, even from the browser that started it', async () => {
    const email = uniqueEmail('replayed');
    const browser = new CookieBrowser();
    const callback = await callbackFor(browser, { email, emailVerified: true });
    const binding = browser.cookie(haven.gatewayUrl, 'haven_signin')!;
    signedInHome(await browser.request(atGateway(callback)));
    const after = await stored(email);

    const replay = new CookieBrowser();
    replay.setCookie(haven.gatewayUrl, 'haven_signin', binding);
    failedWith(await replay.request(atGateway(callback)), 'expired');
    expect(replay.cookie(haven.gatewayUrl, 'haven_session')).toBeUndefined();
    expect(await stored(email)).toEqual(after);
  });

  it('when the callback arrives in a browser that did not start the sign-in (login CSRF)', async () => {
    const email = uniqueEmail('csrf');
    // The attacker's own flow, finished at the provider in the attacker's browser…
    const callback = await callbackFor(new CookieBrowser(), { email, emailVerified: true });
    // …and its callback URL opened in the victim's browser, which has a sign-in of its own under way.
    const victim = new CookieBrowser();
    await start(victim);
    failedWith(await victim.request(atGateway(callback)), 'expired');
    // And in one with no sign-in at all.
    failedWith(await new CookieBrowser().request(atGateway(callback)), 'expired');
    expect(victim.cookie(haven.gatewayUrl, 'haven_session')).toBeUndefined();
    await nothingStoredFor(email);
  });

  it('when the provider answer fails the checks (a forged code, a wrong issuer)', async () => {
    const email = uniqueEmail('forged');
    for (const forge of [
      (url: URL) => url.searchParams.set('code', 'forged-code'),
      (url: URL) => url.searchParams.set('iss', 'http://127.0.0.1:1'),
    ]) {
      const browser = new CookieBrowser();
      const callback = await callbackFor(browser, { email, emailVerified: true });
      forge(callback);
      failedWith(await browser.request(atGateway(callback)), 'failed');
    }
    await nothingStoredFor(email);
  });

  it('for a provider Haven does not know, at its start and at its callback', async () => {
    const browser = new CookieBrowser();
    for (const path of ['/api/auth/github', '/api/auth/github/callback?code=abc&state=def']) {
      failedWith(await browser.request(gateway(path)), 'unknown_provider', 'github');
    }
    // The JSON API says 400.
    const graphql = await new ApiClient(haven.gatewayUrl).graphql(
      'mutation { startFederatedSignIn(input: { provider: GITHUB, browserBinding: "b" }) { authorizationUrl } }',
    );
    expect(graphql.status).toBe(400);
    // Other auth routes keep their own answers.
    expect((await browser.request(gateway('/api/auth/login'))).status).toBe(404);
  });

  it('answers BAD_USER_INPUT with its reason to a GraphQL caller, and stores nothing', async () => {
    const before = await (await users()).countDocuments();
    const reply = await new ApiClient(haven.gatewayUrl).graphql(
      `mutation { completeFederatedSignIn(input: { provider: GOOGLE, callbackQuery: "code=x&state=y", browserBinding: "z" }) { created } }`,
    );
    expect(reply.body.errors?.[0]).toMatchObject({
      message: 'That sign-in expired or was started in another browser. Please start again from this page.',
      extensions: { code: 'BAD_USER_INPUT', field: 'state', reason: 'expired' },
    });
    expect(await (await users()).countDocuments()).toBe(before);
  });
});

// Last: it stops the provider.
it('changes nothing, and says to try again later, when the provider cannot be reached for the code exchange', async () => {
  const email = uniqueEmail('unreachable');
  const browser = new CookieBrowser();
  const callback = await callbackFor(browser, { email, emailVerified: true });
  await provider.stop();
  failedWith(await browser.request(atGateway(callback)), 'unreachable');
  expect(await stored(email)).toEqual({ accounts: 0, identities: [], sessions: 0 });
});
