/**
 * Past invoices in Settings, with the local test-mode provider: its own record of each charge it makes (the
 * trial's £0.00 one, the first charge, renewals, a failed renewal left unpaid), the owner's alone to see.
 */
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { type ApiClient, uniqueEmail } from '../../../tools/testing/http';
import {
  confirmedLocalSetup,
  goodTestCard,
  signedUpPerson,
  subscribedWithCard,
} from '../../../tools/testing/subscription';
import { verifyByEmailLink } from '../../../tools/testing/verification';
import { advanceBillingClock } from './support';

let haven: TestHaven;
const adminEmail = uniqueEmail('invoice-admin');

beforeAll(async () => {
  haven = await startTestHaven({ env: { ADMIN_EMAIL: adminEmail } });
});

afterAll(async () => {
  await haven?.stop();
});

const day = 24 * 60 * 60;
const failsAtRenewal = '4000 0000 0000 0341';

interface Invoice {
  id: string;
  date: string;
  amount: number;
  currency: string;
  status: string;
  hostedInvoiceUrl: string | null;
}

const invoicesOf = async (client: ApiClient) => {
  const answer = await client.graphql<{ me: { invoices: Invoice[] } }>(
    '{ me { id invoices { id date amount currency status hostedInvoiceUrl } } }',
  );
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.me.invoices;
};

/** The charges alone, leaving out the trial's £0.00 invoice. */
const charges = async (client: ApiClient) => (await invoicesOf(client)).filter((invoice) => invoice.amount > 0);

const paid = { amount: 499, currency: 'gbp', status: 'paid', hostedInvoiceUrl: null };

describe('past invoices', () => {
  it('lists none before subscribing, the trial’s £0.00 one, then each charge newest first', async () => {
    const { client } = await signedUpPerson(haven.gatewayUrl, 'invoices-none');
    expect(await invoicesOf(client)).toEqual([]);

    const { client: member } = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'invoices');
    // As with Stripe, the trial's start is a £0.00 invoice, and no charge.
    expect(await invoicesOf(member)).toEqual([
      { id: expect.any(String), date: expect.any(String), ...paid, amount: 0 },
    ]);
    expect(await charges(member)).toEqual([]);

    const afterTrial = await advanceBillingClock(haven, 3 * day + 60);
    const first = await charges(member);
    expect(first).toEqual([{ id: expect.any(String), date: expect.any(String), ...paid }]);
    // Dated by billing's clock at the charge.
    expect(Math.abs(Date.parse(first[0]!.date) / 1000 - afterTrial)).toBeLessThan(120);

    const afterRenewal = await advanceBillingClock(haven, 31 * day);
    const both = await charges(member);
    expect(both).toHaveLength(2);
    expect(both[0]).toMatchObject(paid);
    expect(both[1]).toEqual(first[0]);
    expect(Date.parse(both[0]!.date)).toBeGreaterThan(Date.parse(both[1]!.date));
    expect(Math.abs(Date.parse(both[0]!.date) / 1000 - afterRenewal)).toBeLessThan(120);
    // Newest first across the whole list, the trial's last.
    expect((await invoicesOf(member)).map((invoice) => invoice.amount)).toEqual([499, 499, 0]);
  });

  it('shows a failed charge as unpaid, and the same invoice paid once a new card pays it', async () => {
    const { client } = await subscribedWithCard(haven.gatewayUrl, failsAtRenewal, 'invoices-failed');
    await advanceBillingClock(haven, 3 * day + 60);
    expect((await client.get<{ status: string }>('/api/subscription-status')).body).toMatchObject({
      status: 'payment_failed',
    });
    const unpaid = await charges(client);
    expect(unpaid).toEqual([{ id: expect.any(String), date: expect.any(String), ...paid, status: 'open' }]);

    await confirmedLocalSetup(client, goodTestCard, 'CHANGE_CARD');
    const changed = await client.graphql('mutation { updatePaymentMethodAfterSetup { message } }');
    expect(changed.body.errors).toBeUndefined();
    expect(await charges(client)).toEqual([{ ...unpaid[0], status: 'paid' }]);
  });

  it('is the owner’s alone: another member is refused and an admin sees none', async () => {
    const owner = await subscribedWithCard(haven.gatewayUrl, goodTestCard, 'invoices-owner');
    await advanceBillingClock(haven, 3 * day + 60);
    expect(await charges(owner.client)).toHaveLength(1);
    const query = 'query($id: ID!) { user(id: $id) { id subscriptionStatus { status } invoices { id amount } } }';

    const other = await signedUpPerson(haven.gatewayUrl, 'invoices-other');
    const byOther = await other.client.graphql(query, { id: owner.userId });
    expect(byOther.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    expect(await invoicesOf(other.client)).toEqual([]);

    const admin = await signedUpPerson(haven.gatewayUrl, 'invoice-admin', adminEmail);
    await verifyByEmailLink(haven.gatewayUrl, adminEmail, admin.client);
    const byAdmin = await admin.client.graphql<{
      user: { subscriptionStatus: { status: string }; invoices: Invoice[] };
    }>(query, { id: owner.userId });
    expect(byAdmin.body.errors).toBeUndefined();
    expect(byAdmin.body.data!.user.subscriptionStatus.status).toBe('active');
    expect(byAdmin.body.data!.user.invoices).toEqual([]);
  });
});
