import { inSpan, SpanKind } from '@haven/platform';
import Stripe from 'stripe';
import type { PaymentProvider, ProviderSubscription } from '../domain/provider';

export interface StripeSettings {
  secretKey: string;
  /** The Price of Premium (4.99 GBP a month), created once in Stripe's dashboard. */
  priceId: string;
  /** Another API origin, e.g. stripe-mock's in tests (http://127.0.0.1:12111); unset = Stripe itself. */
  apiUrl?: string;
}

export function stripeClient(settings: Pick<StripeSettings, 'secretKey' | 'apiUrl'>): Stripe {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : null;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 1,
    timeout: 10_000,
    httpClient: tracedHttpClient(),
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port || 80),
          protocol: api.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
}

/**
 * A Stripe call as its span names it: the method and the path with every Stripe id (`cus_…`, `seti_…`) and the
 * query left out, so a span names the kind of call and never whose.
 */
export function stripeCallName(method: string, path: string): string {
  const template = path
    .split('?')[0]!
    .split('/')
    // An id is a prefix and random letters and digits (`seti_1Pq…`); a resource is lower case (`setup_intents`).
    .map((segment) => (/^[a-z]+_(?=[a-z]*[A-Z0-9])[A-Za-z0-9]+$/.test(segment) ? '{id}' : segment))
    .join('/');
  return `stripe ${method} ${template}`;
}

/** The SDK's own Node HTTP client, each request a span of the operation that makes it. */
function tracedHttpClient(): Stripe.HttpClient {
  const client = Stripe.createNodeHttpClient();
  const request = client.makeRequest.bind(client);
  client.makeRequest = (host, port, path, method, headers, requestData, protocol, timeout) =>
    inSpan(stripeCallName(method, path), { kind: SpanKind.CLIENT, attributes: { 'http.request.method': method } }, () =>
      request(host, port, path, method, headers, requestData, protocol, timeout),
    );
  return client;
}

const fromEpoch = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/** Stripe's subscription status, as billing's. */
export function statusOfStripe(status: Stripe.Subscription.Status): ProviderSubscription['status'] | 'canceled' {
  if (status === 'trialing' || status === 'active') return status;
  if (status === 'past_due' || status === 'unpaid' || status === 'incomplete') return 'payment_failed';
  return 'canceled';
}

/** The end of the current period: on the subscription's item in current API versions. */
export function periodEndOf(subscription: Stripe.Subscription): Date | null {
  const item = subscription.items?.data?.[0] as { current_period_end?: number } | undefined;
  const legacy = (subscription as unknown as { current_period_end?: number }).current_period_end;
  return fromEpoch(item?.current_period_end ?? legacy);
}

/** Stripe's card brand ("visa") as people read it. */
function brandName(brand: string): string {
  const names: Record<string, string> = {
    amex: 'American Express',
    diners: 'Diners Club',
    discover: 'Discover',
    eftpos_au: 'eftpos',
    jcb: 'JCB',
    mastercard: 'Mastercard',
    unionpay: 'UnionPay',
    visa: 'Visa',
  };
  return names[brand] ?? 'Card';
}

/** A repeated cancellation or deletion finds nothing (or a cancelled subscription): the work is already done. */
async function alreadyGoneIsDone(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const { code, statusCode } = error as { code?: string; statusCode?: number };
    if (code === 'resource_missing' || statusCode === 404) return;
    if (statusCode === 400 && /cancel/i.test((error as Error).message)) return; // already cancelled
    throw error;
  }
}

/** Stripe runs the lifecycle itself (trial ends, renewals, retries) and tells billing through webhooks. */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = stripeClient(settings);
  return {
    name: 'stripe',
    runsLifecycleLocally: false,
    ensureCustomer: async ({ userId, email, idempotencyKey }) =>
      (await stripe.customers.create({ email, metadata: { userId } }, { idempotencyKey })).id,
    createSetupIntent: async ({ customerId, userId, purpose, idempotencyKey }) => {
      const intent = await stripe.setupIntents.create(
        {
          customer: customerId,
          usage: 'off_session',
          payment_method_types: ['card'],
          metadata: { userId, purpose },
        },
        { idempotencyKey },
      );
      if (!intent.client_secret) throw new Error('Stripe returned a setup intent without a client secret');
      return { setupIntentId: intent.id, clientSecret: intent.client_secret };
    },
    setupStatus: async (setupIntentId) => {
      try {
        return (await stripe.setupIntents.retrieve(setupIntentId)).status;
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw error;
      }
    },
    confirmedPaymentMethod: async (setupIntentId) => {
      const intent = await stripe.setupIntents.retrieve(setupIntentId);
      if (intent.status !== 'succeeded' || !intent.payment_method) return null;
      return typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method.id;
    },
    createSubscription: async ({ customerId, paymentMethodId, trialDays, idempotencyKey }) => {
      const subscription = await stripe.subscriptions.create(
        {
          customer: customerId,
          items: [{ price: settings.priceId }],
          default_payment_method: paymentMethodId,
          ...(trialDays > 0 ? { trial_period_days: trialDays } : {}),
          payment_behavior: 'allow_incomplete',
        },
        { idempotencyKey },
      );
      const status = statusOfStripe(subscription.status);
      return {
        subscriptionId: subscription.id,
        status: status === 'canceled' ? 'payment_failed' : status,
        trialEnd: fromEpoch(subscription.trial_end),
        currentPeriodEnd: periodEndOf(subscription),
      };
    },
    describePaymentMethod: async (paymentMethodId) => {
      try {
        const { card } = await stripe.paymentMethods.retrieve(paymentMethodId);
        if (!card) return null;
        return { brand: brandName(card.brand), last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw error;
      }
    },
    // The subscription's own default wins over the customer's; the customer's covers invoices made without one.
    setDefaultPaymentMethod: async ({ customerId, subscriptionId, paymentMethodId, idempotencyKey }) => {
      await stripe.subscriptions.update(
        subscriptionId,
        { default_payment_method: paymentMethodId },
        { idempotencyKey: `${idempotencyKey}-subscription` },
      );
      await stripe.customers.update(
        customerId,
        { invoice_settings: { default_payment_method: paymentMethodId } },
        { idempotencyKey: `${idempotencyKey}-customer` },
      );
    },
    // The failed payment's open invoice, paid now with the new card; without one (or unpaid), Stripe's own retries
    // go on with the new default card and the subscription's webhook brings the change.
    retryOpenCharge: async ({ subscriptionId, paymentMethodId, idempotencyKey }) => {
      const open = await stripe.invoices.list({ subscription: subscriptionId, status: 'open', limit: 1 });
      const invoice = open.data[0];
      if (!invoice?.id) return { paid: false, currentPeriodEnd: null };
      const paid = await stripe.invoices.pay(
        invoice.id,
        { payment_method: paymentMethodId },
        { idempotencyKey: `${idempotencyKey}-pay` },
      );
      if (paid.status !== 'paid') return { paid: false, currentPeriodEnd: null };
      return { paid: true, currentPeriodEnd: periodEndOf(await stripe.subscriptions.retrieve(subscriptionId)) };
    },
    setCancelAtPeriodEnd: async ({ subscriptionId, cancel, idempotencyKey }) => {
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel }, { idempotencyKey });
    },
    charge: () => Promise.reject(new Error('Stripe charges by itself; billing never asks it to')),
    // Stripe lists newest first. Its £0.00 invoice at a trial's start is listed too, as Stripe's own pages show it.
    listInvoices: async ({ customerId, limit }) =>
      (await stripe.invoices.list({ customer: customerId, limit })).data.map((invoice) => ({
        id: invoice.id ?? '',
        date: new Date(invoice.created * 1000),
        amount: invoice.total,
        currency: invoice.currency,
        status: invoice.status ?? 'draft',
        hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
      })),
    cancelNow: async ({ subscriptionId }) => {
      await alreadyGoneIsDone(() => stripe.subscriptions.cancel(subscriptionId));
    },
    // Deleting the customer also removes its payment methods (and would cancel any subscription left).
    deleteCustomer: async ({ customerId }) => {
      await alreadyGoneIsDone(() => stripe.customers.del(customerId));
    },
  };
}
