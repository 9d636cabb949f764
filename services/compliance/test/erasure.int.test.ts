/**
 * Account deletion as a user lives it, against the real stack: a fully used account deletes itself; the
 * account closes at once (sessions refused, sign-in fails as for an unknown address, the subscription
 * cancelled at the provider before the answer), every service erases its part and confirms, and afterwards
 * no collection of any service holds the person's address, names, notes or id (only keyed hashes in the
 * erasure's own records) — also after Kafka delivered every event about them again.
 */
import { erasureEventTypes } from '@haven/proto';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import {
  anotherSessionCookie,
  consumersCaughtUp,
  deletionProgress,
  forgetProcessedEvents,
  fullyUsedAccount,
  needlesOf,
  redeliverEventsOf,
  tracesOf,
  type UsedAccount,
} from '../../../tools/testing/erasure';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { mailbox } from '../../../tools/testing/infra-control';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
  await Promise.all(Object.values(haven.services).map((service) => service.eventsReady));
});

afterAll(async () => {
  await haven?.stop();
});

const progressOf = (requestId: string) => deletionProgress(haven, requestId);

describe('a user deletes their account', () => {
  let account: UsedAccount;
  let requestId: string;
  let otherSession: string;
  let subscriptionId: string;

  beforeAll(async () => {
    account = await fullyUsedAccount(haven);
    otherSession = await anotherSessionCookie(haven, account.email);
    const subscription = await (await haven.collection('billing', 'subscriptions')).findOne({ _id: account.userId });
    subscriptionId = String(subscription?.subscriptionId);
    // Everything about the account is there before the deletion (the scan finds what it should).
    const before = await tracesOf(haven, needlesOf(account));
    expect(new Set(before.map((trace) => trace.service))).toEqual(
      new Set(['user', 'quote', 'billing', 'notification']),
    );
  });

  it('closes the account at once and says so', async () => {
    const answer = await account.client.request<{ message: string; requestId: string; status: string }>(
      'DELETE',
      '/api/user/delete-account',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'pending', requestId: expect.any(String) });
    expect(answer.body.message).toMatch(/closed/);
    requestId = answer.body.requestId;
    // The answer cleared this browser's cookie.
    expect(answer.headers.get('set-cookie')).toMatch(/haven_session=;.*Max-Age=0/);
    expect(account.client.hasSession).toBe(false);
  });

  it('refuses the account’s other session at once', async () => {
    const me = await fetch(`${haven.gatewayUrl}/api/user`, { headers: { cookie: otherSession } });
    expect(me.status).toBe(401);
    const graphql = await fetch(`${haven.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { cookie: otherSession, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(((await graphql.json()) as { data: { me: unknown } }).data.me).toBeNull();
  });

  it('signs nobody in with the address, exactly as for an unknown one', async () => {
    const login = (email: string) =>
      new ApiClient(haven.gatewayUrl).post('/api/auth/login', { email, password: 'a password for erasure' });
    const deleted = await login(account.email);
    const unknown = await login(uniqueEmail('never'));
    expect(deleted.status).toBe(401);
    expect({ status: deleted.status, body: deleted.body }).toEqual({ status: unknown.status, body: unknown.body });
  });

  it('cancelled the subscription at the provider before it answered', async () => {
    const atProvider = await (
      await haven.collection('billing', 'local_subscriptions')
    ).findOne({ _id: subscriptionId });
    expect(atProvider).toMatchObject({ status: 'canceled', customerId: null });
  });

  it('shows the deletion as pending until every service confirmed, then completed', async () => {
    await eventuallyExpect('every service confirming the erasure', async () => {
      const progress = await progressOf(requestId);
      expect(progress.status).toBe('completed');
      expect(progress.services.map((each) => each.service).sort()).toEqual([
        'billing',
        'compliance',
        'notification',
        'quote',
        'user',
      ]);
      expect(progress.services.every((each) => each.erased)).toBe(true);
    });
  });

  it('leaves nothing of the person in any collection of any service', async () => {
    expect(await tracesOf(haven, needlesOf(account))).toEqual([]);
    // The erasure's own records hold a keyed hash instead of the id.
    const erasedRecords = await (await haven.collection('quote', 'erased_subjects')).countDocuments();
    expect(erasedRecords).toBeGreaterThan(0);
    const saga = await (await haven.collection('compliance', 'account_deletions')).findOne({ _id: requestId });
    expect(saga).toMatchObject({
      state: 'completed',
      userId: null,
      subjectKey: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const retained = await (await haven.collection('billing', 'retained_billing_records')).find({}).toArray();
    expect(retained).toEqual([
      expect.objectContaining({ _id: expect.stringMatching(/^[0-9a-f]{64}$/), statusAtDeletion: 'canceled' }),
    ]);
  });

  it('brings nothing back when Kafka delivers every event about the person again', async () => {
    const inbox = mailbox();
    const mailBefore = (await inbox.listEmails({ to: account.email })).length;
    // As if the 14-day sweep had forgotten them: the consumers cannot skip the events as already handled.
    await forgetProcessedEvents(haven);
    // First every event but the erasure's own (a repeated erasure would tidy up after a consumer that wrote).
    const subjects = [account.userId, account.subscriberId, requestId];
    const redelivered = await redeliverEventsOf(subjects, (type) => !erasureEventTypes.has(type));
    expect(redelivered).toEqual(
      expect.arrayContaining([
        'user.registered',
        'user.email_verified',
        'billing.trial_started',
        'quote.generated',
        'notification.newsletter_confirmation_requested',
      ]),
    );
    await consumersCaughtUp();
    expect(await tracesOf(haven, needlesOf(account))).toEqual([]);
    // Then the erasure's own events: every service erases again (nothing left) and confirms again.
    const repeated = await redeliverEventsOf(subjects, (type) => erasureEventTypes.has(type));
    expect(repeated).toEqual(expect.arrayContaining(['account.deletion_requested', 'quote.user_data_purged']));
    await consumersCaughtUp();
    expect(await tracesOf(haven, needlesOf(account))).toEqual([]);
    const mailAfter = (await inbox.listEmails({ to: account.email })).length;
    expect(mailAfter).toBe(mailBefore);
    // The repeated request was confirmed again and the completed deletion stays completed.
    await eventually('the deletion still completed', async () => (await progressOf(requestId)).status === 'completed');
  });
});
