/**
 * The card provider behind billing: Stripe, or the local test-mode provider for machines without Stripe keys.
 * Every write carries an idempotency key, so a retried request never makes a second customer or subscription.
 */
export type ProviderName = 'local' | 'stripe';

export interface ProviderSetupIntent {
  setupIntentId: string;
  clientSecret: string;
}

/** Longer than any client secret a provider hands out (Stripe's are under 100 characters). */
export const clientSecretMaxLength = 200;

/** What is wrong with a client secret a person sends back, as they would read it; null when it can be looked up. */
export function clientSecretProblem(clientSecret: string): string | null {
  if (clientSecret.trim() === '') return 'Client secret is required';
  if (clientSecret.length > clientSecretMaxLength) return 'Client secret is not one Haven gave out';
  return null;
}

export interface ProviderSubscription {
  subscriptionId: string;
  status: 'trialing' | 'active' | 'payment_failed';
  trialEnd: Date | null;
  currentPeriodEnd: Date | null;
}

/** A saved card as the provider describes it (never its number). */
export interface PaymentMethodSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** A past invoice as the provider keeps it. Amounts are in minor units (499 is £4.99). */
export interface ProviderInvoice {
  id: string;
  date: Date;
  amount: number;
  currency: string;
  /** paid, open, void, uncollectible, draft */
  status: string;
  /** The provider's own page of the invoice (Stripe only). */
  hostedInvoiceUrl: string | null;
}

/** What a card setup is for: starting the subscription, or replacing the card of the running one. */
export type SetupPurpose = 'start' | 'change_card';

export interface PaymentProvider {
  name: ProviderName;
  /** Whether billing's scheduler runs trial and period ends (local), or the provider's webhooks report them (Stripe). */
  runsLifecycleLocally: boolean;
  ensureCustomer(input: { userId: string; email: string; idempotencyKey: string }): Promise<string>;
  /** The intent names the user (Stripe's metadata), so its webhook can start the user's subscription. */
  createSetupIntent(input: {
    customerId: string;
    userId: string;
    purpose: SetupPurpose;
    idempotencyKey: string;
  }): Promise<ProviderSetupIntent>;
  /** The card a payment method id names, or null when the provider knows no such card. */
  describePaymentMethod(paymentMethodId: string): Promise<PaymentMethodSummary | null>;
  /**
   * Makes the card the subscription's, and the customer's default for later invoices. Each write carries
   * the key (with a suffix per write), so a retried change is one change.
   */
  setDefaultPaymentMethod(input: {
    customerId: string;
    subscriptionId: string;
    paymentMethodId: string;
    idempotencyKey: string;
  }): Promise<void>;
  /**
   * Retries the charge a failed payment left open, with the given card, now. `paid` says whether it went through;
   * `currentPeriodEnd` is the end of the period it paid for (null when the provider does not say).
   */
  retryOpenCharge(input: {
    subscriptionId: string;
    paymentMethodId: string;
    customerId: string;
    now: Date;
    idempotencyKey: string;
  }): Promise<{ paid: boolean; currentPeriodEnd: Date | null }>;
  /**
   * Where a setup intent stands at the provider (requires_payment_method, requires_action, processing, succeeded,
   * canceled), or null when the provider knows no such setup.
   */
  setupStatus(setupIntentId: string): Promise<string | null>;
  /** The payment method a setup intent confirmed, or null when it did not succeed. */
  confirmedPaymentMethod(setupIntentId: string): Promise<string | null>;
  createSubscription(input: {
    customerId: string;
    paymentMethodId: string;
    trialDays: number;
    now: Date;
    idempotencyKey: string;
  }): Promise<ProviderSubscription>;
  setCancelAtPeriodEnd(input: { subscriptionId: string; cancel: boolean; idempotencyKey: string }): Promise<void>;
  /** Charges one period (local provider only: Stripe charges by itself). True when the payment went through. */
  charge(input: {
    customerId: string;
    subscriptionId: string;
    paymentMethodId: string;
    now: Date;
    idempotencyKey: string;
  }): Promise<boolean>;
  /** The customer's invoices, newest first, at most `limit`. */
  listInvoices(input: { customerId: string; limit: number }): Promise<ProviderInvoice[]>;
  /** Cancels a subscription now (an account deletion); one already gone counts as done. */
  cancelNow(input: { subscriptionId: string }): Promise<void>;
  /** Deletes the provider's customer with the payment methods it holds; one already gone counts as done. */
  deleteCustomer(input: { customerId: string }): Promise<void>;
}
