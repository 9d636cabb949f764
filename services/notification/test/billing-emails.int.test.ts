/**
 * Billing's e-mails about a cancellation, a reactivation, a charge and a card change, end to end with the local test-mode
 * provider: the REST facade changes the subscription, billing publishes through its outbox, the notification
 * service sends, and the mail catcher receives. They go with every e-mail switch off, and never to an account
 * that is being deleted.
 */
import { topicOf } from '@haven/proto';
import { consumersCaughtUp } from '../../../tools/testing/erasure';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { mailbox } from '../../../tools/testing/infra-control';
import { billingEmailDate, billingEmailTo, confirmedLocalSetup, startTrial } from '../../../tools/testing/subscription';
import { advanceBillingClock } from '../../billing/test/support';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
  await Promise.all(Object.values(haven.services).map((service) => service.eventsReady));
});

afterAll(async () => {
  await haven?.stop();
});

const day = 24 * 60 * 60;
const cancelledSubject = 'Your Haven Premium subscription is cancelled';
const reactivatedSubject = 'Your Haven Premium subscription is back on';
const receiptSubject = 'Your Haven receipt: £4.99';
const cardChangedSubject = 'Your Haven card has been changed';

/** A new account with every e-mail switch off (the newsletter included), in its 3-day trial. */
async function subscriberWithEveryEmailSwitchOff(): Promise<{ client: ApiClient; email: string; userId: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const email = uniqueEmail('billing-mail');
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email,
    password: 'a long enough password',
    firstName: 'Sam',
  });
  expect(registered.status).toBe(201);
  const userId = registered.body.user.id;
  const switchesOff = { userId, marketingEmails: 0, productUpdates: 0, securityNotifications: 0, newsletter: 0 };
  expect((await client.post('/api/user/email-preferences', switchesOff)).status).toBe(200);
  expect((await client.get<{ preferences: unknown }>('/api/user/email-preferences')).body.preferences).toEqual({
    marketingEmails: false,
    productUpdates: false,
    securityNotifications: false,
    newsletter: false,
    weeklySummary: false,
    checkInReminder: false,
    reminderHour: 19,
  });
  await startTrial(client);
  return { client, email, userId };
}

const trialEndOf = async (client: ApiClient) =>
  (await client.get<{ trialEnd: number }>('/api/subscription-status')).body.trialEnd;

it('confirms a cancellation with the day access ends, and a reactivation, with the newsletter off', async () => {
  const { client, email } = await subscriberWithEveryEmailSwitchOff();
  const trialEnd = billingEmailDate(await trialEndOf(client));

  expect((await client.post('/api/subscription/cancel')).status).toBe(200);
  const cancelled = await billingEmailTo(email, cancelledSubject);
  expect(cancelled.text).toContain('Hi Sam,');
  expect(cancelled.text).toContain(`Your free trial stays open until ${trialEnd}, and you will not be charged.`);
  expect(cancelled.text).toContain(`reactivate in Settings any time before ${trialEnd}`);
  expect(cancelled.text).toContain('is a wellness companion, not therapy');
  expect(cancelled.html).toContain(`Your free trial stays open until ${trialEnd}`);

  expect((await client.post('/api/subscription/reactivate')).status).toBe(200);
  const reactivated = await billingEmailTo(email, reactivatedSubject);
  expect(reactivated.text).toContain(`Your free trial continues until ${trialEnd}`);
  expect(reactivated.text).toContain('£4.99 a month');
  expect(reactivated.text).toContain('is a wellness companion, not therapy');
});

it('sends a receipt for £4.99 with the date and the plan for the first charge and each renewal; a paid plan’s cancellation names the month’s end', async () => {
  const { client, email } = await subscriberWithEveryEmailSwitchOff();
  const billingNow = await advanceBillingClock(haven, 3 * day + 60);
  expect((await client.get('/api/subscription-status')).body).toMatchObject({ status: 'active', planType: 'premium' });
  const periodEnd = (await client.get<{ current_period_end: number }>('/api/subscription-status')).body
    .current_period_end;

  const receipt = await billingEmailTo(email, receiptSubject);
  expect(receipt.text).toContain('Amount: £4.99 (including VAT)');
  expect(receipt.text).toContain(`Date: ${billingEmailDate(billingNow)}`);
  expect(receipt.text).toContain('Plan: Haven Premium, monthly');
  expect(receipt.text).toContain(`Your next payment is on ${billingEmailDate(periodEnd)}`);
  expect(receipt.html).toContain('Amount: £4.99 (including VAT)');
  expect(receipt.text).toContain('is a wellness companion, not therapy');
  // One charge, one receipt.
  const receiptsTo = async () => mailbox().listEmails({ to: email, subject: receiptSubject });
  await consumersCaughtUp({ 'notification-billing': [topicOf('billing')] });
  expect(await receiptsTo()).toHaveLength(1);

  // A month later the plan renews: a second charge, a second receipt with its own date.
  const renewedAt = await advanceBillingClock(haven, 31 * day);
  const renewed = await eventually('the renewal’s receipt', async () => {
    const receipts = await receiptsTo();
    return receipts.length === 2 && receipts.find((caught) => caught.id !== receipt.id);
  });
  expect(renewed.text).toContain('Amount: £4.99 (including VAT)');
  expect(renewed.text).toContain(`Date: ${billingEmailDate(renewedAt)}`);

  // Cancelling a paid plan names the end of the month paid for.
  const paidUntil = (await client.get<{ current_period_end: number }>('/api/subscription-status')).body
    .current_period_end;
  expect((await client.post('/api/subscription/cancel')).status).toBe(200);
  const cancelled = await billingEmailTo(email, cancelledSubject);
  expect(cancelled.text).toContain(
    `Premium stays open until ${billingEmailDate(paidUntil)}, and you will not be charged again.`,
  );
});

it('tells the person their card was changed, once, with where the next payment goes', async () => {
  const { client, email } = await subscriberWithEveryEmailSwitchOff();
  const trialEnd = billingEmailDate(await trialEndOf(client));
  await confirmedLocalSetup(client, '5555 5555 5555 4444', 'CHANGE_CARD');
  const changed = await client.graphql('mutation { updatePaymentMethodAfterSetup { message } }');
  expect(changed.body.errors).toBeUndefined();

  const notice = await billingEmailTo(email, cardChangedSubject);
  expect(notice.text).toContain('Hi Sam,');
  expect(notice.text).toContain(
    `Nothing is charged during your free trial; from ${trialEnd}, Premium is £4.99 a month`,
  );
  expect(notice.text).toContain('If you did not make this change, please change your password');
  expect(notice.text).toContain('is a wellness companion, not therapy');
  // Asked again with the same card: nothing changed, nothing more is sent.
  expect((await client.graphql('mutation { updatePaymentMethodAfterSetup { message } }')).body.errors).toBeUndefined();
  await consumersCaughtUp({ 'notification-billing': [topicOf('billing')] });
  expect(await mailbox().listEmails({ to: email, subject: cardChangedSubject })).toHaveLength(1);
});

it('sends no cancellation or ending e-mail to an account that is being deleted', async () => {
  const { client, email } = await subscriberWithEveryEmailSwitchOff();
  await billingEmailTo(email, 'Welcome to Haven Premium'); // billing's e-mails reach this address
  const deleted = await client.request<{ requestId: string }>('DELETE', '/api/user/delete-account');
  expect(deleted.status).toBe(200);
  await eventuallyExpect('the deletion completed', async () => {
    const answer = await new ApiClient(haven.gatewayUrl).graphql<{ accountDeletion: { status: string } }>(
      'query($id: ID!) { accountDeletion(requestId: $id) { status } }',
      { id: deleted.body.requestId },
    );
    expect(answer.body.data?.accountDeletion.status).toBe('completed');
  });
  // Everything billing published by now has reached the notification service's billing e-mails.
  await consumersCaughtUp({ 'notification-billing': [topicOf('billing')] });
  const toThem = await mailbox().listEmails({ to: email });
  expect(toThem.map((caught) => caught.subject)).not.toContain(cancelledSubject);
  expect(toThem.map((caught) => caught.subject)).not.toContain('Your Haven Premium subscription has ended');
});
