/**
 * The authorisation matrix: every public GraphQL root field and every REST route, read from the supergraph and
 * the REST table, tried as six people (signed out, unverified, trial ended, premium, another member, admin), each
 * cell against the outcome written once in authorization-matrix.ts. Every call is a valid one (fresh tokens from
 * the mailbox and the sign-in provider, the people's own ids), so a cell's outcome is about who asks, not what.
 * "another member" is a premium member handed the premium member's ids: a cell that leaked across accounts shows.
 */
import { randomBytes } from 'node:crypto';
import { advanceBillingClock } from '../../services/billing/test/support';
import { stopToken } from '../../services/notification/src/domain/stop-links';
import { eventually } from '../../tools/testing/eventually';
import { startTestHaven, testLinkKey, type TestHaven } from '../../tools/testing/haven';
import { ApiClient, uniqueEmail, type ApiResponse } from '../../tools/testing/http';
import { mailbox } from '../../tools/testing/infra-control';
import {
  CookieBrowser,
  planTestOidcProvider,
  signInAtProvider,
  type TestOidcProvider,
} from '../../tools/testing/oidc-provider';
import {
  publicGraphqlOperations,
  restEndpoints,
  type GraphqlOperation,
  type RestEndpoint,
} from '../../tools/testing/operations';
import { authenticationTestCard, goodTestCard, startTrial } from '../../tools/testing/subscription';
import { expectedOutcomes, personas, type Outcome, type Persona } from './authorization-matrix';
import { unsubscribeTokenOf } from '../../services/notification/src/domain/newsletter';

/** The public origin the services and the sign-in provider know (the harness's APP_URL). */
const appUrl = 'http://localhost:4000';
const day = 24 * 60 * 60;
const firstPassword = 'a matrix test password';
const adminEmail = uniqueEmail('matrix-admin');

interface Person {
  client: ApiClient;
  id: string;
  email: string;
  password: string;
}

let provider: TestOidcProvider;
let haven: TestHaven;
const people = {} as Record<Persona, Person>;
/** What the cells act on: the premium member's quote and card setup, a deletion's id, tokens from e-mails. */
const world = {
  premiumQuoteId: '',
  premiumSetupSecret: '',
  deletionRequestId: '',
  unsubscribeToken: '',
  loginAccount: { email: '', password: firstPassword },
  verifyTokens: [] as string[],
  resetTokens: [] as string[],
  newsletterTokens: [] as string[],
  linkTokens: [] as Array<{ token: string; binding: string; password: string }>,
  /** Spare people for the cells that end their session, account or subscription. */
  spare: { 'trial ended': [] as Person[], premium: [] as Person[] },
};
const usedAdminTokens = new Set<string>();

const graphqlOperations = publicGraphqlOperations();
const rest = restEndpoints();

// ---------------------------------------------------------------------------------------------------------------
// What each operation is called with, and which calls change the caller themself.

interface Cell {
  persona: Persona;
  expected: Outcome;
  /** Who calls: the persona's shared person, or a fresh one when the call would end them. */
  actor: Person;
}

type Variables = Record<string, unknown>;

/** Operations that start the subscription of the caller's newest setup (or answer the one it started). */
const startsTheSubscription = new Set([
  'mutation confirmLocalSetup',
  'mutation authenticateLocalSetup',
  'POST /api/local-payments/authenticate-setup',
  'mutation createSubscriptionAfterSetup',
  'POST /api/local-payments/confirm-setup',
  'POST /api/create-subscription-after-setup',
]);

/**
 * Operations a person does not come back from here (the account is gone, or it pays now): where one is expected
 * to succeed, the cell gets its own person of that kind (the admin, of whom there is one, is made anew after).
 */
const endsThePerson = new Set([...startsTheSubscription, 'mutation deleteAccount', 'DELETE /api/user/delete-account']);

/**
 * Operations that leave the caller's newest card setup a change-card one, which no start path answers: where one is
 * expected to succeed, the cell gets its own person, so the shared members' setups still answer their subscription.
 */
const changesTheCard = new Set(['mutation updatePaymentMethodAfterSetup']);

/** Operations whose effect on the caller is undone after the cell: signed in again, the subscription reactivated. */
const undoneAfterwards = new Set([
  'mutation logout',
  'mutation signOutEverywhere',
  'mutation cancelSubscription',
  'mutation reactivateSubscription',
  'POST /api/subscription/cancel',
  'POST /api/subscription/reactivate',
]);

/**
 * Operations that change the caller's own card setup or password, which other cells of the same person read: they
 * run one at a time, after the cells that run side by side.
 */
const changesWhatOthersRead = new Set([
  'mutation createSetupIntent',
  'mutation confirmLocalSetup',
  'mutation authenticateLocalSetup',
  'mutation changePassword',
  'POST /api/create-setup-intent',
  'POST /api/local-payments/confirm-setup',
  'POST /api/local-payments/authenticate-setup',
]);

/** Operations whose success signs the client in as another account: they run on a copy of the caller's cookies. */
const signsInElsewhere = new Set([
  'mutation register',
  'mutation login',
  'mutation completeFederatedSignIn',
  'mutation linkSignInMethod',
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/link-account',
]);

const take = <T>(pool: T[], what: string): T => {
  const next = pool.shift();
  if (next === undefined) throw new Error(`no ${what} left: prepare more in beforeAll`);
  return next;
};

const consentChoice = { necessary: true, analytics: false, marketing: false, preferences: false };
const emailPreferences = { marketingEmails: 0, productUpdates: 1, securityNotifications: 1, newsletter: 0 };
const newPassword = 'another matrix password';

/** A card setup of the caller's own (confirmed when asked), through the REST facade as the web app does it. */
async function ownSetup(client: ApiClient, confirm: boolean): Promise<string> {
  const setup = await client.post<{ clientSecret: string }>('/api/create-setup-intent');
  if (setup.status !== 200) return 'seti_nobody_secret_nothing';
  if (confirm) {
    await client.post('/api/local-payments/confirm-setup', {
      clientSecret: setup.body.clientSecret,
      cardNumber: goodTestCard,
    });
  }
  return setup.body.clientSecret;
}

/** A confirmed change-card setup of the caller's own, when they have a subscription whose card to change. */
async function ownChangeCardSetup(client: ApiClient): Promise<void> {
  const setup = await client.graphql<{ createSetupIntent: { clientSecret: string } }>(
    'mutation { createSetupIntent(purpose: CHANGE_CARD) { clientSecret } }',
  );
  const clientSecret = setup.body.data?.createSetupIntent.clientSecret;
  if (!clientSecret) return;
  await client.post('/api/local-payments/confirm-setup', { clientSecret, cardNumber: goodTestCard });
}

/**
 * The setup whose bank check a cell answers: the premium member's own, long succeeded (the other member is handed
 * it too), else a new one of the caller's confirmed with the card whose bank asks for the check.
 */
async function challengedSetupSecretFor({ persona, actor }: Cell): Promise<string> {
  if (persona === 'premium' || persona === 'another member') return world.premiumSetupSecret;
  const clientSecret = await ownSetup(actor.client, false);
  await actor.client.post('/api/local-payments/confirm-setup', { clientSecret, cardNumber: authenticationTestCard });
  return clientSecret;
}

/** The setup a cell confirms: the premium member's own (the other member is handed it too), else a new one. */
const setupSecretFor = async ({ persona, actor }: Cell) =>
  persona === 'premium' || persona === 'another member' ? world.premiumSetupSecret : ownSetup(actor.client, false);

/** A premium member's subscription is cancelled first, so that reactivating it has something to undo. */
async function cancelledFirst({ persona, actor }: Cell): Promise<void> {
  if (persona === 'premium' || persona === 'another member') await actor.client.post('/api/subscription/cancel');
}

/** The account an admin's deletion targets: a new member for the admin (who succeeds), else the premium member. */
const deletionTarget = async ({ persona }: Cell) =>
  persona === 'admin' ? (await register('matrix-target')).id : people.premium.id;

/** The variables of each GraphQL operation (its arguments, valid), by operation name. */
const graphqlCalls: Record<string, (cell: Cell) => Variables | Promise<Variables>> = {
  'query paymentConfig': () => ({}),
  'query gdprConfig': () => ({}),
  'query cookieConsent': () => ({}),
  'query accountDeletion': () => ({ requestId: world.deletionRequestId }),
  'query pendingAccountDeletions': () => ({}),
  'query newsletterStats': () => ({}),
  'query newsletterSubscribersExport': () => ({}),
  'query newsletterAudience': () => ({}),
  'query newsletterPreview': () => ({ subject: 'Matrix', content: '<p>A quiet note.</p>' }),
  'query supportResources': () => ({ country: 'GB' }),
  'query me': () => ({}),
  'query user': () => ({ id: people.premium.id }),
  'query adminUsers': () => ({ input: { q: 'matrix' } }),
  'query adminUserStats': () => ({}),
  'query checkInDays': () => ({ month: '2026-11' }),
  'query yearInMoods': () => ({ year: '2026' }),
  'mutation createSetupIntent': () => ({}),
  'mutation confirmLocalSetup': async (cell) => ({
    input: { clientSecret: await setupSecretFor(cell), cardNumber: goodTestCard },
  }),
  'mutation authenticateLocalSetup': async (cell) => ({
    input: { clientSecret: await challengedSetupSecretFor(cell), approve: true },
  }),
  'mutation createSubscriptionAfterSetup': async ({ actor }) => {
    await ownSetup(actor.client, true);
    return {};
  },
  'mutation cancelSubscription': () => ({}),
  'mutation updatePaymentMethodAfterSetup': async ({ actor }) => {
    await ownChangeCardSetup(actor.client);
    return {};
  },
  'mutation reactivateSubscription': async (cell) => {
    await cancelledFirst(cell);
    return {};
  },
  'mutation saveCookieConsent': () => ({ input: consentChoice }),
  'mutation deleteAccount': () => ({}),
  'mutation adminDeleteUser': async (cell) => ({ id: await deletionTarget(cell) }),
  'mutation adminBulkDeleteUsers': async (cell) => ({ userIds: [await deletionTarget(cell)] }),
  'mutation subscribeToNewsletter': () => ({ input: { email: uniqueEmail('matrix-reader') } }),
  'mutation confirmNewsletterSubscription': () => ({ token: take(world.newsletterTokens, 'newsletter link') }),
  'mutation unsubscribeFromNewsletterByToken': () => ({ token: world.unsubscribeToken }),
  'mutation unsubscribeFromNewsletterByEmail': () => ({ email: uniqueEmail('matrix-leaver') }),
  'mutation sendNewsletter': () => ({ subject: 'Matrix', content: '<p>A quiet note.</p>' }),
  'mutation sendTestNewsletter': () => ({ subject: 'Matrix', content: '<p>A quiet note.</p>' }),
  'mutation updateEmailPreferences': () => ({ input: emailPreferences }),
  'mutation stopEmailsByLink': () => ({ token: stopToken(testLinkKey, people.premium.id, 'marketing') }),
  'mutation generateQuote': () => ({ input: {} }),
  'mutation setQuoteFavorite': () => ({ id: world.premiumQuoteId, isFavorite: true }),
  // The premium member deletes an entry of their own made for the cell; everyone else tries the shared one.
  'mutation deleteEntry': async ({ persona, actor }) => ({
    quoteId: persona === 'premium' ? await newQuoteOf(actor) : world.premiumQuoteId,
  }),
  'mutation editEntry': () => ({ quoteId: world.premiumQuoteId, input: { sleepQuality: 4 } }),
  'mutation updatePrivacySettings': () => ({ input: { allowInsights: true } }),
  'mutation register': () => ({ input: { email: uniqueEmail('matrix-new'), password: firstPassword } }),
  'mutation login': () => ({ input: world.loginAccount }),
  'mutation verifyEmail': () => ({ token: take(world.verifyTokens, 'verification link') }),
  'mutation resendVerification': () => ({ email: uniqueEmail('matrix-resend') }),
  'mutation saveSafetyPlan': () => ({ input: { warningSigns: 'Staying in bed all day', peopleToAsk: 'My brother' } }),
  'mutation updateProfile': () => ({ input: { firstName: 'Matrix' } }),
  'mutation changePassword': ({ actor }) => ({ input: { currentPassword: actor.password, newPassword } }),
  'mutation requestPasswordReset': () => ({ email: uniqueEmail('matrix-forgot') }),
  'mutation resetPassword': () => ({ input: { token: take(world.resetTokens, 'reset link'), newPassword } }),
  'mutation requestEmailChange': ({ actor }) => ({
    input: { newEmail: uniqueEmail('matrix-moved'), currentPassword: actor.password },
  }),
  'mutation logout': () => ({}),
  'mutation signOutEverywhere': () => ({}),
  'mutation startFederatedSignIn': () => ({
    input: { provider: 'GOOGLE', browserBinding: randomBytes(32).toString('base64url') },
  }),
  // The provider's code lives a minute, so each cell walks its own sign-in up to the callback.
  'mutation completeFederatedSignIn': async () => {
    const { callbackQuery, binding } = await providerCallback(uniqueEmail('matrix-federated'));
    return { input: { provider: 'GOOGLE', callbackQuery, browserBinding: binding } };
  },
  'mutation linkSignInMethod': ({ actor }) => {
    const link = take(world.linkTokens, 'link token');
    actor.client.setCookie('haven_signin', link.binding);
    return { input: { token: link.token, password: link.password } };
  },
};

interface RestCall {
  /** The route's path with its parameters and query string filled in; the route's own path when absent. */
  path?: string;
  body?: unknown;
}

/** How each REST route is called (path parameters, query string, body), by route. */
const restCalls: Record<string, (cell: Cell) => RestCall | Promise<RestCall>> = {
  'POST /api/auth/register': () => ({ body: { email: uniqueEmail('matrix-new'), password: firstPassword } }),
  'POST /api/auth/login': () => ({ body: world.loginAccount }),
  'GET /api/auth/verify-email': () => ({
    path: `/api/auth/verify-email?token=${take(world.verifyTokens, 'verification link')}`,
  }),
  'POST /api/auth/resend-verification': () => ({ body: { email: uniqueEmail('matrix-resend') } }),
  'POST /api/auth/forgot-password': () => ({ body: { email: uniqueEmail('matrix-forgot') } }),
  'POST /api/auth/reset-password': () => ({
    body: { token: take(world.resetTokens, 'reset link'), newPassword },
  }),
  'POST /api/auth/link-account': ({ actor }) => {
    const link = take(world.linkTokens, 'link token');
    actor.client.setCookie('haven_signin', link.binding);
    return { body: { token: link.token, password: link.password } };
  },
  'GET /api/user': () => ({}),
  'GET /api/user/stats': () => ({}),
  'POST /api/quotes/generate': () => ({ body: {} }),
  'GET /api/quotes/recent': () => ({ path: '/api/quotes/recent?limit=2' }),
  'GET /api/quotes/favorites': () => ({}),
  'PATCH /api/quotes/:id/favorite': () => ({
    path: `/api/quotes/${world.premiumQuoteId}/favorite`,
    body: { isFavorite: true },
  }),
  'GET /api/user/analytics': () => ({}),
  'GET /api/subscription-status': () => ({}),
  'POST /api/create-setup-intent': () => ({}),
  'POST /api/local-payments/confirm-setup': async (cell) => ({
    body: { clientSecret: await setupSecretFor(cell), cardNumber: goodTestCard },
  }),
  'POST /api/local-payments/authenticate-setup': async (cell) => ({
    body: { clientSecret: await challengedSetupSecretFor(cell), approve: true },
  }),
  'POST /api/create-subscription-after-setup': async ({ actor }) => {
    await ownSetup(actor.client, true);
    return {};
  },
  'POST /api/subscription/cancel': () => ({}),
  'POST /api/subscription/reactivate': async (cell) => {
    await cancelledFirst(cell);
    return {};
  },
  'GET /api/gdpr/config': () => ({}),
  'GET /api/user/data-export': () => ({}),
  'DELETE /api/user/delete-account': () => ({}),
  'GET /api/user/privacy-settings': () => ({}),
  'POST /api/user/privacy-settings': () => ({ body: { allowInsights: true } }),
  'GET /api/gdpr/cookie-consent': () => ({}),
  'POST /api/gdpr/cookie-consent': () => ({ body: consentChoice }),
  'POST /api/newsletter/subscribe': () => ({
    body: { email: uniqueEmail('matrix-reader'), subscriptionSource: 'website' },
  }),
  'GET /api/newsletter/confirm': () => ({
    path: `/api/newsletter/confirm?token=${take(world.newsletterTokens, 'newsletter link')}`,
  }),
  'GET /api/newsletter/unsubscribe': () => ({ path: `/api/newsletter/unsubscribe?token=${world.unsubscribeToken}` }),
  'POST /api/newsletter/unsubscribe': () => ({ body: { email: uniqueEmail('matrix-leaver') } }),
  'GET /api/admin/newsletter/stats': () => ({}),
  'POST /api/newsletter/send': () => ({ body: { subject: 'Matrix', content: '<p>A quiet note.</p>' } }),
  'POST /api/admin/newsletter/test': () => ({ body: { subject: 'Matrix', content: '<p>A quiet note.</p>' } }),
  'GET /api/admin/newsletter/audience': () => ({}),
  'GET /api/admin/export-subscribers': () => ({}),
  'GET /api/user/email-preferences': () => ({}),
  'POST /api/user/email-preferences': () => ({ body: emailPreferences }),
  'DELETE /api/admin/users/:id': async (cell) => ({ path: `/api/admin/users/${await deletionTarget(cell)}` }),
  'POST /api/admin/users/bulk-delete': async (cell) => ({ body: { userIds: [await deletionTarget(cell)] } }),
  'GET /api/admin/users': () => ({ path: '/api/admin/users?q=matrix' }),
  'GET /api/admin/user-stats': () => ({}),
};

// ---------------------------------------------------------------------------------------------------------------
// What the caller met, as the table names it.

type Extensions = { code?: string; reason?: string };

/** A 403's reason, as the web client reads it: a subscription reason, or a plain refusal. */
function refusal(reason: unknown): Outcome {
  if (reason === 'no_subscription') return 'needs-subscription';
  if (reason === 'trial_expired') return 'trial-ended';
  return 'forbidden';
}

function graphqlOutcome(
  field: string,
  response: ApiResponse<{
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions?: Extensions }>;
  }>,
): string {
  const error = response.body.errors?.[0];
  if (!error) return response.body.data?.[field] === null ? 'answers-null' : 'allowed';
  const code = error.extensions?.code;
  if (code === 'UNAUTHENTICATED') return 'unauthenticated';
  if (code === 'FORBIDDEN') return refusal(error.extensions?.reason);
  if (code === 'NOT_FOUND') return 'not-found';
  if (code === 'CONFLICT') return 'conflict';
  return `${code ?? response.status}: ${error.message}`;
}

function restOutcome(response: ApiResponse<unknown>): string {
  const body = (typeof response.body === 'object' && response.body !== null ? response.body : {}) as Record<
    string,
    unknown
  >;
  if (response.status >= 200 && response.status < 300) return 'allowed';
  if (response.status === 401) return 'unauthenticated';
  if (response.status === 403) return refusal(body.reason);
  if (response.status === 404) return 'not-found';
  if (response.status === 409) return 'conflict';
  return `${response.status}: ${String(body.message ?? response.body)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// The people.

async function register(prefix: string, email = uniqueEmail(prefix)): Promise<Person> {
  const client = new ApiClient(haven.gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email,
    password: firstPassword,
  });
  if (registered.status !== 201) throw new Error(`registering ${email} answered ${registered.status}`);
  return { client, id: registered.body.user.id, email, password: firstPassword };
}

/**
 * The newest token of an e-mail to each address (its first `?token=` link) whose subject matches, found in one
 * poll of the mailbox for all of them. `skip` leaves out tokens already used.
 */
async function tokensMailedTo(
  addresses: string[],
  subject: RegExp,
  skip: ReadonlySet<string> = new Set(),
): Promise<Map<string, string>> {
  const wanted = new Set(addresses.map((address) => address.toLowerCase()));
  return eventually(
    `the e-mails "${subject.source}" to ${addresses.length} addresses`,
    async () => {
      const found = new Map<string, string>();
      for (const email of await mailbox().listEmails()) {
        if (!subject.test(email.subject)) continue;
        const token = /[?&]token=([\w-]+)/.exec(email.text ?? '')?.[1];
        if (!token || skip.has(token)) continue;
        for (const to of email.to) {
          if (wanted.has(to.address.toLowerCase())) found.set(to.address.toLowerCase(), token);
        }
      }
      return found.size === wanted.size ? found : null;
      // The whole inbox is read (and parsed here, beside Haven) each time: not too often.
    },
    // Dozens of e-mails at once, often in a run's busiest first minute.
    { intervalMs: 500, timeoutMs: 120_000 },
  );
}

/** Verifies each person's address by its e-mailed link, opened in their own client (a fresh session there). */
async function verified(persons: Person[]): Promise<Person[]> {
  const tokens = await tokensMailedTo(
    persons.map((person) => person.email),
    /verify your email/i,
  );
  await Promise.all(
    persons.map(async (person) => {
      const answer = await person.client.get(`/api/auth/verify-email?token=${tokens.get(person.email.toLowerCase())}`);
      if (answer.status !== 200) throw new Error(`verifying ${person.email} answered ${answer.status}`);
    }),
  );
  return persons;
}

const times = <T>(count: number, make: (index: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, index) => make(index)));

async function verifiedPeople(count: number, prefix: string): Promise<Person[]> {
  return verified(await times(count, () => register(prefix)));
}

/** Trials that are cancelled, so that moving billing's clock past them ends them (no charge, no access). */
async function trialsThatWillEnd(count: number): Promise<Person[]> {
  const persons = await verifiedPeople(count, 'matrix-lapsed');
  await Promise.all(
    persons.map(async (person) => {
      await startTrial(person.client);
      const cancelled = await person.client.post('/api/subscription/cancel');
      if (cancelled.status !== 200) throw new Error(`cancelling ${person.email}'s trial answered ${cancelled.status}`);
    }),
  );
  return persons;
}

async function premiumPeople(count: number): Promise<Person[]> {
  const persons = await verifiedPeople(count, 'matrix-premium');
  await Promise.all(persons.map((person) => startTrial(person.client)));
  return persons;
}

/** The premium member: their trial is started step by step here, to keep the setup's client secret. */
async function premiumMember(): Promise<Person> {
  const [person] = await verifiedPeople(1, 'matrix-premium');
  world.premiumSetupSecret = await ownSetup(person!.client, true);
  const created = await person!.client.post('/api/create-subscription-after-setup');
  if (created.status !== 200) throw new Error(`the premium member's subscription answered ${created.status}`);
  await eventually('the premium member’s trial opening the paid features', async () => {
    const status = await person!.client.get<{ status: string; needsSetup: boolean }>('/api/subscription-status');
    return status.body.status === 'trialing' && !status.body.needsSetup;
  });
  return person!;
}

/** The admin: ADMIN_EMAIL, verified in the browser that registered it (so its password is the mailbox owner's). */
async function makeAdmin(): Promise<Person> {
  const person = await register('matrix-admin', adminEmail);
  const token = (await tokensMailedTo([adminEmail], /verify your email/i, usedAdminTokens)).get(adminEmail)!;
  usedAdminTokens.add(token);
  const answer = await person.client.get(`/api/auth/verify-email?token=${token}`);
  if (answer.status !== 200) throw new Error(`verifying the admin answered ${answer.status}`);
  await expectAdmin(person.client);
  return person;
}

async function expectAdmin(client: ApiClient): Promise<void> {
  const me = await client.get<{ isAdmin?: boolean }>('/api/user');
  if (me.status !== 200 || me.body.isAdmin !== true) throw new Error(`the admin is not one: ${JSON.stringify(me)}`);
}

/**
 * After a cell that may have changed its caller (`endsThePerson`, `undoneAfterwards`): the shared person as the
 * other cells expect, signed in again, the premium member's cancelled subscription reactivated.
 */
async function restore(persona: Persona): Promise<void> {
  if (persona === 'signed out') return;
  if (persona === 'admin') return restoreAdmin();
  const person = people[persona];
  if ((await person.client.get('/api/user')).status !== 200) {
    const client = new ApiClient(haven.gatewayUrl);
    const signedIn = await client.post('/api/auth/login', { email: person.email, password: person.password });
    if (signedIn.status !== 200) throw new Error(`signing ${persona} in again answered ${signedIn.status}`);
    people[persona] = { ...person, client };
  }
  if (persona !== 'premium' && persona !== 'another member') return;
  const status = await people[persona].client.get<{ cancel_at_period_end?: boolean }>('/api/subscription-status');
  if (status.body.cancel_at_period_end !== true) return;
  const reactivated = await people[persona].client.post('/api/subscription/reactivate');
  if (reactivated.status !== 200) throw new Error(`reactivating ${persona} answered ${reactivated.status}`);
}

/**
 * After a cell that may have ended the admin's session, account or freedom from a subscription: the admin as
 * the other cells expect (signed in, no subscription), signing in again or making the account anew.
 */
async function restoreAdmin(): Promise<void> {
  const admin = people.admin;
  const [me, subscription] = await Promise.all([
    admin.client.get<{ isAdmin?: boolean }>('/api/user'),
    admin.client.get<{ needsSetup?: boolean }>('/api/subscription-status'),
  ]);
  if (me.status === 200 && me.body.isAdmin === true && subscription.body.needsSetup === true) return;
  const client = new ApiClient(haven.gatewayUrl);
  const signedIn = await client.post('/api/auth/login', { email: adminEmail, password: admin.password });
  if (signedIn.status === 200) {
    const status = await client.get<{ needsSetup?: boolean }>('/api/subscription-status');
    if (status.body.needsSetup === true) {
      await expectAdmin(client);
      people.admin = { ...admin, client };
      return;
    }
    const deleted = await client.request('DELETE', '/api/user/delete-account');
    if (deleted.status !== 200) throw new Error(`deleting the subscribed admin answered ${deleted.status}`);
  }
  people.admin = await makeAdmin();
}

/** A link token: an unverified account here, a provider vouching for its address, so the password is asked. */
async function linkToken(): Promise<{ token: string; binding: string; password: string }> {
  const account = await register('matrix-linked');
  const { callbackQuery, binding } = await providerCallback(account.email);
  const completed = await new ApiClient(haven.gatewayUrl).graphql<{
    completeFederatedSignIn: { linkToken: string | null };
  }>('mutation($input: CompleteFederatedSignInInput!) { completeFederatedSignIn(input: $input) { linkToken } }', {
    input: { provider: 'GOOGLE', callbackQuery, browserBinding: binding },
  });
  const token = completed.body.data?.completeFederatedSignIn.linkToken;
  if (!token) throw new Error(`no link token: ${JSON.stringify(completed.body)}`);
  return { token, binding, password: account.password };
}

/** A sign-in with the provider started through GraphQL, up to the provider's redirect back (not yet used). */
async function providerCallback(email: string): Promise<{ callbackQuery: string; binding: string }> {
  const binding = randomBytes(32).toString('base64url');
  const started = await new ApiClient(haven.gatewayUrl).graphql<{ startFederatedSignIn: { authorizationUrl: string } }>(
    'mutation($input: StartFederatedSignInInput!) { startFederatedSignIn(input: $input) { authorizationUrl } }',
    { input: { provider: 'GOOGLE', browserBinding: binding } },
  );
  const authorizationUrl = started.body.data?.startFederatedSignIn.authorizationUrl;
  if (!authorizationUrl) throw new Error(`the sign-in did not start: ${JSON.stringify(started.body)}`);
  const callback = await signInAtProvider(new CookieBrowser(), new URL(authorizationUrl), {
    email,
    emailVerified: true,
  });
  return { callbackQuery: callback.search.slice(1), binding };
}

// ---------------------------------------------------------------------------------------------------------------
// The cells, in the table's order, the ones that end their caller last.

interface MatrixCell {
  operation: string;
  persona: Persona;
  expected: Outcome;
  run: (cell: Cell) => Promise<string>;
}

const operations: Array<{ name: string; run: (cell: Cell) => Promise<string> }> = [
  ...graphqlOperations.map((operation: GraphqlOperation) => ({
    name: operation.name,
    run: async (cell: Cell) => {
      const variables = await (graphqlCalls[operation.name] ?? (() => ({})))(cell);
      return graphqlOutcome(operation.field, await cell.actor.client.graphql(operation.document, variables));
    },
  })),
  ...rest.map((route: RestEndpoint) => ({
    name: route.name,
    run: async (cell: Cell) => {
      const call: RestCall = await (restCalls[route.name] ?? (() => ({})))(cell);
      const options = call.body === undefined ? {} : { json: call.body };
      return restOutcome(await cell.actor.client.request(route.method, call.path ?? route.path, options));
    },
  })),
];

/** 0: side by side with the others; 1: alone; 2: alone, and it may end its caller. */
const stage = (operation: string) =>
  endsThePerson.has(operation) || undoneAfterwards.has(operation) ? 2 : changesWhatOthersRead.has(operation) ? 1 : 0;

const cells: MatrixCell[] = operations
  .filter((operation) => expectedOutcomes[operation.name])
  .sort((a, b) => stage(a.name) - stage(b.name))
  .flatMap((operation) =>
    personas.map((persona, column) => ({
      operation: operation.name,
      persona,
      expected: expectedOutcomes[operation.name]![column]!,
      run: operation.run,
    })),
  );

/** A cell that would end its caller (or change its card), expected to succeed: it gets its own person of that kind. */
const needsOwnPerson = (cell: Pick<MatrixCell, 'operation' | 'expected' | 'persona'>) =>
  (changesTheCard.has(cell.operation) && cell.expected === 'allowed') ||
  (endsThePerson.has(cell.operation) &&
    cell.expected === 'allowed' &&
    // A member whose setup started their subscription is answered that one: nothing changes.
    !((cell.persona === 'premium' || cell.persona === 'another member') && startsTheSubscription.has(cell.operation)));

const spareCount = (persona: Persona) =>
  cells.filter((cell) => needsOwnPerson(cell) && cell.persona === persona).length;

async function actorFor(cell: MatrixCell): Promise<Person> {
  const shared = people[cell.persona];
  if (needsOwnPerson(cell)) {
    if (cell.persona === 'trial ended') return take(world.spare['trial ended'], 'person whose trial ended');
    if (cell.persona === 'premium' || cell.persona === 'another member')
      return take(world.spare.premium, 'premium member');
    if (cell.persona === 'unverified') return register('matrix-unverified');
  }
  if (signsInElsewhere.has(cell.operation)) return { ...shared, client: shared.client.at() };
  return shared;
}

// ---------------------------------------------------------------------------------------------------------------

/** Runs `work` on every item, at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** Accounts whose verification and reset links the cells use (each link once). */
async function prepareAccountLinks(verifyCount: number, resetCount: number): Promise<void> {
  const accounts = await times(Math.max(verifyCount, resetCount), () => register('matrix-links'));
  const addresses = accounts.map((account) => account.email);
  await Promise.all(
    addresses.map((email) => new ApiClient(haven.gatewayUrl).post('/api/auth/forgot-password', { email })),
  );
  const [verifyTokens, resetTokens] = await Promise.all([
    tokensMailedTo(addresses, /verify your email/i),
    tokensMailedTo(addresses, /reset your/i),
  ]);
  world.verifyTokens = addresses.slice(0, verifyCount).map((email) => verifyTokens.get(email.toLowerCase())!);
  world.resetTokens = addresses.slice(0, resetCount).map((email) => resetTokens.get(email.toLowerCase())!);
}

/** Newsletter links: confirmations (each once), and one subscriber's unsubscribe token (it works every time). */
async function prepareNewsletterLinks(count: number): Promise<void> {
  const readers = Array.from({ length: count + 1 }, () => uniqueEmail('matrix-reader'));
  await Promise.all(
    readers.map((email) => new ApiClient(haven.gatewayUrl).post('/api/newsletter/subscribe', { email })),
  );
  const tokens = await tokensMailedTo(readers, /confirm your .* newsletter/i);
  world.newsletterTokens = readers.slice(1).map((email) => tokens.get(email.toLowerCase())!);
  const subscribers = await haven.collection('notification', 'newsletter_subscribers');
  const reader = await subscribers.findOne({ email: readers[0]!.toLowerCase() });
  if (!reader) throw new Error('the reader is not on the list');
  world.unsubscribeToken = unsubscribeTokenOf(testLinkKey, String(reader._id));
}

/** A deletion's request id, which anyone may read. */
async function prepareDeletionRequest(): Promise<void> {
  const leaver = await register('matrix-leaver');
  const deleted = await leaver.client.request<{ requestId: string }>('DELETE', '/api/user/delete-account');
  if (deleted.status !== 200) throw new Error(`the leaver's deletion answered ${deleted.status}`);
  world.deletionRequestId = deleted.body.requestId;
}

/** A new check-in of `person`'s: the id of its quote. */
async function newQuoteOf(person: Person): Promise<string> {
  const generated = await person.client.post<{ quote: { id: string } }>('/api/quotes/generate', {});
  if (generated.status !== 200) throw new Error(`a check-in of ${person.email} answered ${generated.status}`);
  return generated.body.quote.id;
}

/** The premium member, the other member, spares for the cells that end them, and the premium member's quote. */
async function preparePremiumPeople(): Promise<void> {
  const [premium, others] = await Promise.all([
    premiumMember(),
    premiumPeople(1 + spareCount('premium') + spareCount('another member')),
  ]);
  people.premium = premium;
  people['another member'] = others[0]!;
  world.spare.premium = others.slice(1);
  world.premiumQuoteId = await newQuoteOf(premium);
}

const cellsOf = (operation: string) => cells.filter((cell) => cell.operation === operation).length;

/**
 * The six people and everything the cells use. Billing's clock is shared: the trials that must end start (and
 * are cancelled) before it moves, the premium members' after; what does not care about the clock is prepared
 * meanwhile.
 */
async function prepareEveryone(): Promise<void> {
  const planned = await planTestOidcProvider();
  [haven, provider] = await Promise.all([
    startTestHaven({ env: { ...planned.env, ADMIN_EMAIL: adminEmail } }),
    planned.start(appUrl),
  ]);

  const independent = Promise.all([
    prepareAccountLinks(
      cellsOf('mutation verifyEmail') + cellsOf('GET /api/auth/verify-email'),
      cellsOf('mutation resetPassword') + cellsOf('POST /api/auth/reset-password'),
    ),
    prepareNewsletterLinks(cellsOf('mutation confirmNewsletterSubscription') + cellsOf('GET /api/newsletter/confirm')),
    prepareDeletionRequest(),
    times(cellsOf('mutation linkSignInMethod') + cellsOf('POST /api/auth/link-account'), () => linkToken()).then(
      (tokens) => (world.linkTokens = tokens),
    ),
  ]);
  const [lapsed] = await Promise.all([
    trialsThatWillEnd(1 + spareCount('trial ended')),
    makeAdmin().then((admin) => (people.admin = admin)),
    register('matrix-unverified').then((person) => (people.unverified = person)),
    register('matrix-login').then(
      (person) => (world.loginAccount = { email: person.email, password: person.password }),
    ),
  ]);
  people['trial ended'] = lapsed[0]!;
  world.spare['trial ended'] = lapsed.slice(1);
  people['signed out'] = { client: new ApiClient(haven.gatewayUrl), id: '', email: '', password: '' };

  await advanceBillingClock(haven, 3 * day + 60);
  await Promise.all([
    preparePremiumPeople(),
    ...lapsed.map((person) =>
      eventually(`${person.email}'s ended trial closing the paid features`, async () => {
        const answer = await person.client.get<{ reason?: string }>('/api/quotes/favorites');
        return answer.status === 403 && answer.body.reason === 'trial_expired';
      }),
    ),
  ]);
  await independent;
  // Everyone has made their cookie choice, so reading it answers it (a visitor's under the consent cookie).
  await Promise.all(personas.map((persona) => people[persona].client.post('/api/gdpr/cookie-consent', consentChoice)));
}

afterAll(async () => {
  await haven?.stop();
  await provider?.stop();
});

describe('the matrix has a row for every operation', () => {
  const rows = new Set(Object.keys(expectedOutcomes));
  const named = operations.map((operation) => operation.name);

  test('every public GraphQL root field of the supergraph', () => {
    expect(graphqlOperations.length).toBeGreaterThan(0);
    const missing = graphqlOperations.filter((operation) => !rows.has(operation.name));
    expect(missing.map((operation) => `${operation.name}: add its row to the matrix`)).toEqual([]);
  });

  test('every route of the REST table', () => {
    expect(rest.length).toBeGreaterThan(0);
    const missing = rest.filter((route) => !rows.has(route.name));
    expect(missing.map((route) => `${route.name}: add its row to the matrix`)).toEqual([]);
  });

  test('no row for an operation that is gone', () => {
    expect([...rows].filter((row) => !named.includes(row)).map((row) => `${row}: remove its row`)).toEqual([]);
  });

  test('every operation has a valid call here', () => {
    const calls = new Set([...Object.keys(graphqlCalls), ...Object.keys(restCalls)]);
    expect(named.filter((name) => !calls.has(name)).map((name) => `${name}: write its call`)).toEqual([]);
  });
});

describe('who may call what', () => {
  /** Each cell's outcome (or what went wrong trying it), tried before the tests read them. */
  const tried = new Map<MatrixCell, { outcome?: string; error?: unknown }>();

  async function attempt(cell: MatrixCell): Promise<void> {
    try {
      const actor = await actorFor(cell);
      try {
        const outcome = await cell.run({ persona: cell.persona, expected: cell.expected, actor });
        if (outcome === 'allowed' && cell.operation === 'mutation changePassword') actor.password = newPassword;
        tried.set(cell, { outcome });
      } finally {
        // A person of its own is left as it is; the shared one (and the one admin) is put back for the next cells.
        const sharedActor = cell.persona === 'admin' || !needsOwnPerson(cell);
        if (stage(cell.operation) === 2 && sharedActor) await restore(cell.persona);
      }
    } catch (error) {
      tried.set(cell, { error });
    }
  }

  beforeAll(async () => {
    await prepareEveryone();
    // The cells that leave their caller as it was run side by side; then the others, one person's at a time
    // (in the table's order), the six people side by side since none of them touches another's account.
    await inParallel(
      cells.filter((cell) => stage(cell.operation) === 0),
      8,
      attempt,
    );
    await Promise.all(
      personas.map(async (persona) => {
        for (const cell of cells.filter((each) => each.persona === persona && stage(each.operation) > 0)) {
          await attempt(cell);
        }
      }),
    );
  }, 420_000);

  test.each(cells.map((cell) => [`${cell.operation} as ${cell.persona} → ${cell.expected}`, cell] as const))(
    '%s',
    (_name, cell) => {
      const result = tried.get(cell);
      if (result?.error) throw result.error;
      expect(result?.outcome).toBe(cell.expected);
    },
  );
});
